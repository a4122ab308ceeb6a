/**
 * The search and "Did you mean" parts of the site's 404 page. The page is built once per deployment
 * (renderer.ts `notFound`), but what the reader mistyped is known only per request, so the builder
 * leaves a marker ({@link didYouMeanMarker}) where site hosting puts the links to the closest pages
 * (server/src/sites/not-found-suggestions.ts, ranked by path-suggestions.ts). Without a server that
 * fills it (a plain static host) the marker is an HTML comment and shows nothing.
 */
import { escapeHtml } from './escape';
import { renderSearchButton } from './search-ui';

/** Start of the marker comment; the deployment's base path follows, then {@link DID_YOU_MEAN_MARK_END}. */
export const DID_YOU_MEAN_MARK = '<!--quire:did-you-mean:';
/** End of the marker comment. */
export const DID_YOU_MEAN_MARK_END = '-->';

/**
 * The marker the builder writes into the 404 page: `<!--quire:did-you-mean:/v1-->`, carrying the
 * deployment's base path ('' at the site root) so the links can be written without the renderer.
 * @param base the normalized base path (`SiteContext.base`: '' or `/label`); `-` and `>` are escaped
 */
export function didYouMeanMarker(base: string): string {
  return `${DID_YOU_MEAN_MARK}${escapeHtml(base).replace(/-/g, '&#45;')}${DID_YOU_MEAN_MARK_END}`;
}

/** The base path a marker carries (the inverse of the escaping in {@link didYouMeanMarker}). */
export function baseOfMarker(text: string): string {
  return text.replace(/&#45;/g, '-').replace(/&amp;/g, '&').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&#39;/g, "'");
}

/** The 404 page's search box: the site's search button (search-ui.ts), shown as a box in the page. */
export function renderNotFoundSearch(): string {
  return `<div class="q-not-found-search">${renderSearchButton('q-search-btn-inline', 'Search the documentation')}</div>`;
}

/** One suggested page. */
export interface DidYouMeanLink {
  /** page path (`guides/setup`; `index` for the home page) */
  path: string;
  /** page title (plain text); the path when absent */
  title?: string;
}

/**
 * The "Did you mean" section put in place of the marker: a heading and links to the pages, each
 * with its title and its path.
 * @param base the deployment's base path ('' or `/label`)
 */
export function renderDidYouMean(base: string, pages: readonly DidYouMeanLink[]): string {
  if (pages.length === 0) return '';
  const items = pages
    .map((p) => {
      const href = p.path === 'index' ? `${base}/` : `${base}/${p.path.split('/').map(encodeURIComponent).join('/')}`;
      const shown = p.path === 'index' ? '/' : `/${p.path}`;
      return `<li><a href="${escapeHtml(href)}">${escapeHtml(p.title || shown)}</a><span class="q-suggest-path">${escapeHtml(base + shown)}</span></li>`;
    })
    .join('');
  // no id on the heading: it is no section of a page to link to (and gets no anchor link)
  return `<section class="q-suggest" aria-label="Did you mean"><h2>Did you mean</h2><ul>${items}</ul></section>`;
}
