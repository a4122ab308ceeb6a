/**
 * Anchor checks: a link `page#section` (or `#section` on the same page) whose page is a page of the
 * site must name an element id that page's rendered HTML has. Ids written by authors are served
 * prefixed with `user-content-` and the site's script scrolls to them by their written name
 * (markdown/user-ids.ts), so both spellings count. Links to files, redirects and pages that do not
 * exist are left to the link check (link-check.ts). Node-free.
 */
import { resolveFilePath } from './files';
import { lineOf, isUncheckedTarget } from './link-check';
import { USER_ID_PREFIX } from './markdown/user-ids';
import type { BuildWarning, RenderedPage } from './types';

const PAGE_EXT = /\.(?:mdx?|html)$/i;

/** A rendered page as the anchor check sees it. */
export interface AnchorCheckPage {
  /** page path (`guides/setup`) */
  path: string;
  /** its file path relative to the docs root; generated OpenAPI pages have none */
  filePath?: string;
  page: Pick<RenderedPage, 'html' | 'links'>;
}

/**
 * The anchors of a rendered page body: every element id and `<a name>`, and author ids and names
 * without their `user-content-` prefix (the site's script finds those: assets/components.js `hashTarget`).
 */
export function pageAnchors(html: string): Set<string> {
  const ids = new Set<string>();
  for (const m of html.matchAll(/\sid="([^"]*)"|<a\s[^>]*?\sname="([^"]*)"/g)) {
    const id = decodeQuoted(m[1] ?? m[2]!);
    ids.add(id);
    if (id.startsWith(USER_ID_PREFIX)) ids.add(id.slice(USER_ID_PREFIX.length));
  }
  return ids;
}

/**
 * `broken-anchor` warnings (file, 1-based line of the link in `read(file)`, message `target`) for the
 * links of `pages` whose fragment names no anchor of the page they lead to; one per page and target.
 */
export function checkAnchors(pages: readonly AnchorCheckPage[], read: (filePath: string) => string | undefined): BuildWarning[] {
  const anchors = new Map<string, Set<string> | undefined>();
  const byPath = new Map(pages.map((p) => [p.path, p]));
  const anchorsOf = (pagePath: string) => {
    if (!anchors.has(pagePath)) anchors.set(pagePath, byPath.has(pagePath) ? pageAnchors(byPath.get(pagePath)!.page.html) : undefined);
    return anchors.get(pagePath);
  };
  const warnings: BuildWarning[] = [];
  for (const { path, filePath, page } of pages) {
    const from = filePath ?? `${path}.mdx`;
    const source = filePath ? read(filePath) : undefined;
    const sameFile = [...page.html.matchAll(/\shref="(#[^"]+)"/g)].map((m) => decodeQuoted(m[1]!));
    for (const link of new Set([...page.links, ...sameFile])) {
      const hash = link.indexOf('#');
      if (hash < 0 || (hash > 0 && isUncheckedTarget(link))) continue;
      const fragment = decodeSafe(link.slice(hash + 1));
      if (fragment === '') continue;
      const bare = link.slice(0, hash).replace(/\?.*$/, '');
      const target = bare === '' ? path : pageOf(from, bare, (p) => byPath.has(p));
      if (target === undefined) continue;
      const ids = anchorsOf(target);
      if (!ids || ids.has(fragment)) continue;
      warnings.push({ file: filePath ?? path, ...(source ? lineOf(source, link) : {}), kind: 'broken-anchor', message: link });
    }
  }
  return warnings;
}

/** The page a link target (no fragment) names from `fromFile`, when it is a page of the site. */
function pageOf(fromFile: string, bare: string, isPage: (p: string) => boolean): string | undefined {
  const resolved = resolveFilePath(fromFile, decodeSafe(bare));
  if (resolved === undefined) return undefined;
  const page = resolved.replace(PAGE_EXT, '').replace(/\/$/, '');
  for (const candidate of page === '' ? ['index'] : [page, `${page}/index`]) if (isPage(candidate)) return candidate;
  return undefined;
}

function decodeQuoted(s: string): string {
  return s.replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');
}

function decodeSafe(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}
