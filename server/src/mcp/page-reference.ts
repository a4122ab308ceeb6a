/**
 * What page an MCP client names in `get_page` or a resource URI (decisions.md section 6: `get_page`
 * takes a page path). Accepted forms, all naming the page `guides/setup`: `guides/setup`,
 * `/guides/setup`, `/guides/setup.md`, `/guides/setup.html`, `/guides/setup/`, with a `?query` or
 * `#anchor` (ignored), or a full `http(s)` URL of this site (any port). A non-default version's pages
 * are named with its prefix (`/old/guides/setup`), as the site serves them. Pure: no I/O.
 */
import { versionOfPath, type DocVersion } from '@quire/shared/docs/versions';
import { hostName } from '../deployments/site-host';
import { sitePathOf } from '../deployments/site-path';

/** A page named by a client: its path as the manifest lists it (`''`: the home page) and the version prefix it carried. */
export type PageReference = { ok: true; path: string; version?: string } | { ok: false; message: string };

/** Longest reference taken, in characters (a page URL is far shorter). */
export const MAX_PAGE_REFERENCE = 2000;

/**
 * Parses a page reference (see the module comment).
 * @param input what the client sent
 * @param host the request's `Host` (the site's own host name; a URL of another host is refused)
 * @param versions the served deployment's versions (`manifest.versions`): a first path segment naming
 *   a non-default version becomes `version` (shared/src/docs/versions.ts `versionOfPath`)
 * @returns the page path, or a message saying why the reference is refused (another site, another
 *   scheme, a path the site itself refuses: `..`, control characters, bad escapes)
 */
export function pageReferenceOf(input: string, host: string, versions: readonly DocVersion[] | undefined): PageReference {
  const text = input.trim();
  if (text.length > MAX_PAGE_REFERENCE) return { ok: false, message: `A page path is at most ${MAX_PAGE_REFERENCE} characters.` };
  let raw: string;
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(text)) {
    let url: URL;
    try {
      url = new URL(text);
    } catch {
      return { ok: false, message: `"${text.slice(0, 200)}" is not a valid URL.` };
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return { ok: false, message: 'Only http(s) URLs of this site, or page paths such as guides/setup, name a page.' };
    const own = hostName(host);
    if (url.hostname.toLowerCase() !== own) return { ok: false, message: `${url.hostname} is another site: this server serves the documentation at ${own} only.` };
    raw = url.pathname;
  } else {
    raw = text.replace(/[?#].*$/s, '');
    if (!raw.startsWith('/')) raw = `/${raw}`;
  }
  const target = sitePathOf(raw);
  if (!target) return { ok: false, message: `"${text.slice(0, 200)}" is not a page path of this site.` };
  const path = target.path.replace(/\.(?:md|mdx|html)$/i, '');
  const named = versionOfPath(versions, path);
  if (named) return { ok: true, path: named.rest, version: named.version.label };
  return { ok: true, path };
}
