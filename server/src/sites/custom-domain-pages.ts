/**
 * What a custom domain that serves no site answers (decisions.md section 4; the spec's "Domains":
 * "visitors of the removed domain see an error page"):
 *
 * - a `pending` domain answers `GET /.well-known/quire-domain-verification` with its verification
 *   token (`text/plain`), which is what `POST .../domains/{domainId}/verify` fetches: receiving it
 *   proves the domain's traffic reaches this server. Every other path gets the plain 404.
 * - a `removed` domain answers every path with a 404 page saying the domain is no longer connected
 *   to a documentation site; it names no project and shows nothing of the site.
 *
 * Only GET and HEAD (405 otherwise), with the site security headers.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { DOMAIN_VERIFICATION_PATH } from '@quire/shared/api/domains';
import { sendMethodNotAllowed, sendPlainNotFound } from './respond';
import { SECURITY_HEADERS } from './security-headers';
import type { DomainNotice } from './site-resolver';

const REMOVED_PAGE = Buffer.from(
  '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Domain not connected</title></head>' +
    '<body><h1>Domain not connected</h1><p>This domain is no longer connected to a documentation site.</p></body></html>\n',
);
const REMOVED_HEADERS = [
  'Content-Type', 'text/html; charset=utf-8',
  'Cache-Control', 'no-cache',
  'Content-Length', String(REMOVED_PAGE.length),
  ...SECURITY_HEADERS,
];

/** Answers a request for a pending or removed custom domain completely, on the raw response. */
export function answerDomainNotice(req: IncomingMessage, res: ServerResponse, notice: DomainNotice): void {
  if (req.method !== 'GET' && req.method !== 'HEAD') return sendMethodNotAllowed(res);
  if (notice.status === 'removed') {
    res.writeHead(404, REMOVED_HEADERS);
    res.end(req.method === 'HEAD' ? undefined : REMOVED_PAGE);
    return;
  }
  const url = req.url ?? '/';
  const query = url.indexOf('?');
  if ((query === -1 ? url : url.slice(0, query)) !== DOMAIN_VERIFICATION_PATH) return sendPlainNotFound(req, res);
  const body = Buffer.from(notice.token);
  res.writeHead(200, ['Content-Type', 'text/plain; charset=utf-8', 'Cache-Control', 'no-store', 'Content-Length', String(body.length), ...SECURITY_HEADERS]);
  res.end(req.method === 'HEAD' ? undefined : body);
}
