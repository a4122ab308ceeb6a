/**
 * Serving documentation versions on a production site (interface-spec.md "Versioning >
 * Documentation versions" rules 3, 5 and 7; decisions.md section 6). Runs before the access gate,
 * on the deployment the Host resolved to:
 *
 * - on a production deployment whose manifest lists versions, a path whose first segment is a
 *   non-default version's label (`/v1/guides/setup`) is served by that version's live deployment
 *   (loaded with base path `/v1`, so it takes the prefix off itself); its pages, `.md` files,
 *   `llms.txt`, `sitemap.xml`, assets and 404 page are its own. The gate then judges it exactly as
 *   a production page (the same project's rules, tokens and gated pages). A version listed but not
 *   deployed yet (its build queued or failed) leaves the request to the production deployment. A
 *   label shadows a production path of the same first segment (a version `guides` owns `/guides/…`);
 * - a version with `autoRedirectToLatest` answers 302 to the same path (and query) on the default
 *   version (rule 7);
 * - a request from the version switcher (`?_quire_from=switcher`, shared/src/docs/versions.ts
 *   `SWITCHER_PARAM`) answers 302 to the same URL without the marker when the target version has
 *   the page, else 302 to that version's first page (its root), so switching never lands on a 404
 *   (rule 5). Requests without the marker are never redirected for a missing page.
 *
 * A production deployment without versions, and any request whose URL has no marker and whose
 * first segment is no version label, passes through synchronously with no allocation beyond one
 * string scan (the site's hot path).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { SWITCHER_PARAM, SWITCHER_VALUE, versionOfPath } from '@quire/shared/docs/versions';
import type { DeploymentSite } from './deployment-site';
import { sitePathOf } from '../deployments/site-path';
import { CACHE_REVALIDATE, SECURITY_HEADERS } from './security-headers';

/**
 * The live deployment of version `label` of a project (the `version` channel's newest, loaded with
 * base path `/<label>`), null when it has none; a promise while it is read or loaded.
 */
export type VersionLookup = (projectId: string, label: string) => DeploymentSite | null | Promise<DeploymentSite | null>;

/** Where a request goes: a deployment to serve it (now or later), or `answered` (a redirect was sent). */
export type VersionRoute = DeploymentSite | 'answered' | Promise<DeploymentSite | 'answered'>;

const MARKER = `${SWITCHER_PARAM}=${SWITCHER_VALUE}`;

/**
 * Routes one request of `site` (see the module comment).
 * @param site the deployment the Host resolved to
 * @param lookup the version deployments (`SiteResolver.version`)
 */
export function routeVersion(req: IncomingMessage, res: ServerResponse, site: DeploymentSite, lookup: VersionLookup): VersionRoute {
  const url = req.url ?? '/';
  const versions = site.manifest.versions;
  const marked = url.includes(MARKER);
  const routed = versions && versions.length > 1 && site.previewName === undefined && site.basePath === '';
  if (!routed && !marked) return site;
  const target = sitePathOf(url);
  if (!target) return site;
  const named = routed ? versionOfPath(versions, target.path) : undefined;
  if (!named) return marked ? switcherLanding(req, res, site, target, url) : site;
  const rest = named.rest;
  if (named.version.autoRedirectToLatest) {
    redirect(res, req, `${encodedPath(rest, rest !== '' && target.trailingSlash)}${queryOf(url, false)}`);
    return 'answered';
  }
  const found = lookup(site.projectId, named.version.label);
  const serve = (version: DeploymentSite | null): DeploymentSite | 'answered' => {
    if (!version) return site;
    if (!marked) return version;
    return switcherLanding(req, res, version, { path: rest, trailingSlash: target.trailingSlash }, url);
  };
  if (!(found instanceof Promise)) return serve(found);
  return found.then(serve, () => site);
}

/**
 * The switcher's landing: 302 to the URL without the marker when `site` has the path, else to the
 * site's root (its first page). `site.basePath` is the version's prefix ('' for the default).
 */
function switcherLanding(req: IncomingMessage, res: ServerResponse, site: DeploymentSite, target: { path: string; trailingSlash: boolean }, url: string): 'answered' {
  const exists = target.path === '' || site.has(target.path, target.trailingSlash);
  const location = exists ? `${site.basePath}${encodedPath(target.path, target.trailingSlash)}${queryOf(url, true)}` : `${site.basePath}/`;
  redirect(res, req, location);
  return 'answered';
}

/** `/a/b` (segments percent-encoded), `/` for the root; `trailingSlash` keeps a final `/`. */
function encodedPath(path: string, trailingSlash: boolean): string {
  if (path === '') return '/';
  return `/${path.split('/').map(encodeURIComponent).join('/')}${trailingSlash ? '/' : ''}`;
}

/** The URL's query (`?a=1`, or ''), without the switcher's marker when `dropMarker`. */
function queryOf(url: string, dropMarker: boolean): string {
  const q = url.indexOf('?');
  if (q === -1) return '';
  const end = url.indexOf('#', q);
  const query = url.slice(q + 1, end === -1 ? undefined : end);
  const parts = query.split('&').filter((p) => p !== '' && !(dropMarker && p === MARKER));
  return parts.length > 0 ? `?${parts.join('&').replace(/[^\x21-\x7e]/gu, (c) => encodeURIComponent(c))}` : '';
}

/** Answers 302 to a same-site location (revalidated by caches, like the site's other redirects). */
function redirect(res: ServerResponse, req: IncomingMessage, location: string): void {
  res.writeHead(302, ['Location', location, 'Cache-Control', CACHE_REVALIDATE, 'Content-Length', '0', ...SECURITY_HEADERS]);
  res.end();
  req.resume();
}
