/**
 * The site's own endpoints under `/_quire/` (decisions.md section 6: `search`, `chat`, `feedback`,
 * `token`; plus preview links): which one a request names, before its path is resolved as a file.
 */

/** A site endpoint under `/_quire/` (besides the theme's assets). */
export type SiteEndpoint = { kind: 'token' } | { kind: 'link'; token: string } | { kind: 'search' };

/** The gate form's endpoint (`POST`). */
export const TOKEN_PATH = '/_quire/token';
/** The site's search (`GET`, site-search.ts). */
export const SEARCH_PATH = '/_quire/search';
/** Preview links: `/_quire/link/<token>` on a preview host. */
export const LINK_PREFIX = '/_quire/link/';

/** The site endpoint a raw request target names, if any (exact paths; query ignored). */
export function siteEndpointOf(rawUrl: string): SiteEndpoint | undefined {
  if (!rawUrl.startsWith('/_quire/')) return undefined;
  const q = rawUrl.indexOf('?');
  const path = q === -1 ? rawUrl : rawUrl.slice(0, q);
  if (path === TOKEN_PATH) return { kind: 'token' };
  if (path === SEARCH_PATH) return { kind: 'search' };
  if (path.startsWith(LINK_PREFIX)) {
    const token = path.slice(LINK_PREFIX.length);
    if (token && !token.includes('/')) return { kind: 'link', token };
  }
  return undefined;
}
