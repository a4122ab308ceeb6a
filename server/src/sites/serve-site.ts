import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyBaseLogger } from 'fastify';
import type { DeploymentSite } from './deployment-site';
import { sendMethodNotAllowed, sendPlainNotFound } from './respond';
import type { SiteAccess } from './site-access';
import { siteEndpointOf, type SiteEndpoint } from './site-endpoints';
import { serveThroughGate } from './site-gate';
import { routeVersion, type VersionLookup } from './version-routing';

/**
 * Answers one request for a site host completely, on the raw Node response, through the access
 * gate (`site-gate.ts`: gated pages, access rules, IP allowlists, private previews).
 * GET and HEAD (the search endpoint `/_quire/search` too: site-search.ts), plus POST on the site's
 * form endpoints (`/_quire/token`, `/_quire/link/<token>`), and any method on the handled endpoints
 * (feedback, chat, the MCP server: site-endpoint-handlers.ts, which answer 405 themselves);
 * 405 otherwise. `null` (nothing deployed, unknown project) and refused paths get the plain 404.
 * For a cached file of an ungated page without a token (and rules cached) this is synchronous
 * from start to `res.end`.
 *
 * A request carrying a `Service-Worker` header (browsers send `Service-Worker: script` when they
 * fetch a service worker to register, W3C Service Workers, "Update" algorithm) gets the plain 404 whatever its path: a site has no
 * service worker of its own, and a worker registered by a repository file would outlive the
 * project on a slug that another tenant may take later. No site answer ever carries
 * `Service-Worker-Allowed`.
 * @param resolved what the Host resolved to (see `SiteResolver.resolve`)
 * @param access what the gate asks of the server (`siteAccessOf(app.ctx)`, made once per app)
 * @param versions the live deployments of documentation versions (`SiteResolver.version`): a production
 *   site's `/<label>/` paths are served from them (version-routing.ts); absent: none
 */
export function serveSite(
  req: IncomingMessage,
  res: ServerResponse,
  resolved: DeploymentSite | null | Promise<DeploymentSite | null>,
  log: FastifyBaseLogger,
  access: SiteAccess,
  versions?: VersionLookup,
): void {
  const method = req.method;
  const endpoint = siteEndpointOf(req.url ?? '/', method, req.headers.accept);
  const takesPost = endpoint !== undefined && endpoint.kind !== 'search' && endpoint.kind !== 'pass';
  if (method !== 'GET' && method !== 'HEAD' && !(method === 'POST' && takesPost) && endpoint?.kind !== 'handler') {
    req.resume();
    return sendMethodNotAllowed(res, endpoint?.kind === 'token' ? 'POST' : takesPost ? 'GET, HEAD, POST' : 'GET, HEAD');
  }
  if (req.headers['service-worker'] !== undefined) return sendPlainNotFound(req, res);
  if (!(resolved instanceof Promise)) return serveFrom(req, res, resolved, log, access, endpoint, versions);
  resolved.then(
    (site) => serveFrom(req, res, site, log, access, endpoint, versions),
    () => {
      req.resume();
      sendPlainNotFound(req, res);
    },
  );
}

function serveFrom(
  req: IncomingMessage,
  res: ServerResponse,
  site: DeploymentSite | null,
  log: FastifyBaseLogger,
  access: SiteAccess,
  endpoint: SiteEndpoint | undefined,
  versions?: VersionLookup,
): void {
  if (site && versions && endpoint === undefined) {
    const routed = routeVersion(req, res, site, versions);
    if (routed === 'answered') return;
    if (!(routed instanceof Promise)) return serveThroughGate(req, res, routed, access, log, endpoint);
    routed.then((s) => s !== 'answered' && serveThroughGate(req, res, s, access, log, endpoint)).catch((err: unknown) => {
      log.error({ err, url: req.url }, 'version routing failed');
      if (!res.headersSent) sendPlainNotFound(req, res);
    });
    return;
  }
  if (site) return serveThroughGate(req, res, site, access, log, endpoint);
  req.resume();
  sendPlainNotFound(req, res);
}
