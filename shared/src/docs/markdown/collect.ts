/**
 * What the builder needs besides the HTML, read back from the sanitized page body (engine-neutral):
 * internal link targets (link checking), local asset sources (missing-image warnings) and plain text
 * (search index, descriptions).
 */
import { decodeEntities } from './html';

/** True for a URL with a scheme (`https:`, `mailto:`), protocol-relative (`//host`) or a pure `#fragment`. */
function isExternalOrFragment(url: string): boolean {
  return /^[a-z][a-z0-9+.-]*:/i.test(url) || url.startsWith('//') || url.startsWith('#') || url === '';
}

/**
 * Internal `href`s and local `src`/`poster`/`srcset` values of a sanitized HTML fragment, as written,
 * de-duplicated in document order. Pure fragment links (`#id`) are not included.
 */
export function collectLinksAndAssets(html: string): { links: string[]; assets: string[] } {
  const links = new Set<string>();
  const assets = new Set<string>();
  for (const m of html.matchAll(/\s(href|src|poster|srcset)="([^"]*)"/g)) {
    const attr = m[1]!;
    const value = decodeEntities(m[2]!).trim();
    if (attr === 'href') {
      if (!isExternalOrFragment(value)) links.add(value);
    } else if (attr === 'srcset') {
      for (const part of value.split(',')) {
        const url = part.trim().split(/\s+/)[0] ?? '';
        if (!isExternalOrFragment(url)) assets.add(url);
      }
    } else if (!isExternalOrFragment(value)) assets.add(value);
  }
  return { links: [...links], assets: [...assets] };
}

const BLOCK = /^(p|div|h[1-6]|li|tr|td|th|pre|blockquote|figure|figcaption|section|summary|details|dt|dd|br|hr|table|ul|ol|aside)$/i;

/**
 * Plain text of a sanitized HTML fragment: tags removed (block boundaries become line breaks), SVG,
 * button and MathML contents skipped (KaTeX shows the same formula as text next to its MathML), entities decoded, runs of blank lines collapsed.
 */
export function htmlToText(html: string): string {
  let out = '';
  let skip = 0;
  const re = /<(\/?)([a-zA-Z][\w-]*)[^>]*?(\/?)>|([^<]+)/g;
  for (const m of html.matchAll(re)) {
    if (m[4] !== undefined) {
      if (skip === 0) out += m[4];
      continue;
    }
    const closing = m[1] === '/';
    const tag = m[2]!.toLowerCase();
    const selfClosing = m[3] === '/';
    if (tag === 'svg' || tag === 'button' || tag === 'math') {
      if (closing) skip = Math.max(0, skip - 1);
      else if (!selfClosing) skip++;
      continue;
    }
    if (BLOCK.test(tag)) out += '\n';
    else if (tag === 'td' || tag === 'th') out += ' ';
  }
  return decodeEntities(out)
    .replace(/[ \t\u00a0]+/g, ' ')
    .replace(/ *\n[ \n]*/g, '\n')
    .trim();
}
