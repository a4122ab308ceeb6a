/**
 * Where the visual mode loads an image block's picture from: the URL the published site would load,
 * mapped into the desktop preview's URL space for the project's own files (desktop/src/core/preview-urls.ts:
 * `/images/a.png` of the site is `<basePath>/images/a.png` of the preview; the core serves it by the site's
 * rule for repository files).
 */

/** Where the page and the project's files are: the preview's base path and the page's path on the site. */
export interface ImageBase {
  /** the preview's base path of the project's published files (`/_quire-preview/local%3Aab12`, no trailing slash) */
  basePath: string;
  /** the page's path on the site, under the docs root and without extension (`guides/setup`) */
  pagePath: string;
}

/**
 * The URL to show an image written as `src` in the page at `base.pagePath`, or null when it cannot be shown
 * here (a `data:` or other non-web URL, which the site's sanitizer drops too: shared/src/docs/markdown/sanitize.ts).
 * - `http:` / `https:` URLs and protocol-relative ones (`//host/a.png`, as `https:`) are loaded as they are;
 * - root-relative (`/images/a.png`) and page-relative (`../images/a.png`, resolved against the page's URL on
 *   the site as a browser does, RFC 3986 section 5.2) paths are the project's files, served by the preview.
 */
export function imageDisplayUrl(src: string, base: ImageBase): string | null {
  const s = src.trim();
  if (s === '') return null;
  if (s.startsWith('//')) return `https:${s}`;
  if (/^[a-z][a-z0-9+.-]*:/i.test(s)) return /^https?:/i.test(s) ? s : null;
  let resolved: URL;
  try {
    resolved = new URL(s, `http://site.invalid/${base.pagePath}`);
  } catch {
    return null;
  }
  return `${base.basePath.replace(/\/+$/, '')}${resolved.pathname}${resolved.search}`;
}
