import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyBaseLogger } from 'fastify';
import type { DeploymentSite } from './deployment-site';
import { sendAnswer, sendMethodNotAllowed, sendPlainNotFound } from './respond';

/**
 * Answers one request for a site host completely, on the raw Node response.
 * GET and HEAD only (405 otherwise); `null` (nothing deployed, unknown project) and refused
 * paths get the plain 404. For a cached file this is synchronous from start to `res.end`.
 *
 * A request carrying a `Service-Worker` header (browsers send `Service-Worker: script` when they
 * fetch a service worker to register, W3C Service Workers, "Update" algorithm) gets the plain 404 whatever its path: a site has no
 * service worker of its own, and a worker registered by a repository file would outlive the
 * project on a slug that another tenant may take later. No site answer ever carries
 * `Service-Worker-Allowed`.
 * @param resolved what the Host resolved to (see `SiteResolver.resolve`)
 */
export function serveSite(
  req: IncomingMessage,
  res: ServerResponse,
  resolved: DeploymentSite | null | Promise<DeploymentSite | null>,
  log: FastifyBaseLogger,
): void {
  if (req.method !== 'GET' && req.method !== 'HEAD') return sendMethodNotAllowed(res);
  if (req.headers['service-worker'] !== undefined) return sendPlainNotFound(req, res);
  if (resolved instanceof Promise) {
    resolved.then(
      (site) => serveFrom(req, res, site, log),
      () => sendPlainNotFound(req, res),
    );
  } else serveFrom(req, res, resolved, log);
}

function serveFrom(req: IncomingMessage, res: ServerResponse, site: DeploymentSite | null, log: FastifyBaseLogger): void {
  if (!site) return sendPlainNotFound(req, res);
  const answer = site.answerUrl(req.url ?? '/');
  if (!(answer instanceof Promise)) return sendAnswer(req, res, answer);
  answer.then(
    (a) => sendAnswer(req, res, a),
    (err: unknown) => {
      log.error({ err, url: req.url }, 'site file cannot be read');
      if (!res.headersSent) sendPlainNotFound(req, res);
    },
  );
}
