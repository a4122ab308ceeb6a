import type { IncomingMessage, ServerResponse } from 'node:http';
import { Negotiator } from '@fastify/accept-negotiator';
import { CACHE_PRIVATE, type CachedFile, type Representation } from './cached-file';
import type { SiteAnswer } from './deployment-site';
import { CACHE_REVALIDATE, SECURITY_HEADERS } from './security-headers';

/** Accept-Encoding values already negotiated; cleared when full so made-up headers cannot grow it. */
class BoundedCache extends Map<string, string> {
  override set(key: string, value: string): this {
    if (this.size >= 1000) this.clear();
    return super.set(key, value);
  }
}

const encodings = new Negotiator<'br' | 'gzip'>({ supportedValues: ['br', 'gzip'], cache: new BoundedCache() });
const gzipOnly = new Negotiator<'gzip'>({ supportedValues: ['gzip'], cache: new BoundedCache() });

/** The representation to send: brotli, then gzip, by the client's `Accept-Encoding` (q-values honoured). */
export function pickRepresentation(file: CachedFile, acceptEncoding: string | undefined): Representation {
  if (!acceptEncoding || (!file.br && !file.gzip)) return file.identity;
  const choice = encodings.negotiate(acceptEncoding);
  if (choice === 'br' && file.br) return file.br;
  if (choice === 'gzip' && file.gzip) return file.gzip;
  if (choice === 'br' && file.gzip && gzipOnly.negotiate(acceptEncoding)) return file.gzip;
  return file.identity;
}

/**
 * Whether a conditional GET may answer 304 (RFC 9110 13.1): `If-None-Match` (weak comparison,
 * any encoding of the same content matches, `*` matches) wins over `If-Modified-Since`.
 */
export function isNotModified(req: IncomingMessage, file: CachedFile): boolean {
  const inm = req.headers['if-none-match'];
  if (inm !== undefined) {
    for (const raw of inm.split(',')) {
      const tag = raw.trim().replace(/^W\//, '');
      if (tag === '*') return true;
      const value = tag.replace(/^"|"$/g, '').replace(/-(?:br|gz)$/, '');
      if (value === file.hash) return true;
    }
    return false;
  }
  const ims = req.headers['if-modified-since'];
  if (ims === undefined) return false;
  const since = Date.parse(ims);
  return !Number.isNaN(since) && file.mtimeSeconds * 1000 <= since;
}

const PLAIN_404 = Buffer.from(
  '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Not found</title></head>' +
    '<body><h1>404 Not found</h1><p>There is no documentation site at this address.</p></body></html>\n',
);
const PLAIN_404_HEADERS = [
  'Content-Type', 'text/html; charset=utf-8',
  'Cache-Control', 'no-cache',
  'Content-Length', String(PLAIN_404.length),
  ...SECURITY_HEADERS,
];

/** Answers with the plain 404 page that never names or shows any project (unknown hosts, nothing deployed, bad paths). */
export function sendPlainNotFound(req: IncomingMessage, res: ServerResponse): void {
  res.writeHead(404, PLAIN_404_HEADERS);
  res.end(req.method === 'HEAD' ? undefined : PLAIN_404);
}

/** 405 for a method a site path does not take (`allow`: what it takes; GET and HEAD for pages and files). */
export function sendMethodNotAllowed(res: ServerResponse, allow = 'GET, HEAD'): void {
  res.writeHead(405, ['Allow', allow, 'Content-Type', 'text/plain; charset=utf-8', 'Content-Length', '19', ...SECURITY_HEADERS]);
  res.end('Method not allowed\n');
}

/**
 * Answers with a document only this visitor may see or that depends on their cookies (the gate
 * page, preview access pages, refusals, redirects setting a cookie): `Cache-Control: private,
 * no-store` and `Vary: Cookie` (decisions.md section 10), the security headers, and `extra`
 * headers (`Set-Cookie`, `Location`, `WWW-Authenticate`). HEAD gets headers only.
 * @param contentType default HTML
 */
export function sendPrivate(
  req: IncomingMessage,
  res: ServerResponse,
  status: number,
  body: Buffer | string,
  extra: readonly string[] = [],
  contentType = 'text/html; charset=utf-8',
): void {
  const bytes = typeof body === 'string' ? Buffer.from(body, 'utf8') : body;
  res.writeHead(status, [
    'Content-Type', contentType,
    'Cache-Control', CACHE_PRIVATE,
    'Vary', 'Cookie, X-Audience-Token',
    'Content-Length', String(bytes.length),
    ...SECURITY_HEADERS,
    ...extra,
  ]);
  res.end(req.method === 'HEAD' ? undefined : bytes);
}

/** Percent-encodes what may not stand in a header value (non-ASCII, spaces, controls); existing escapes are kept. */
function headerSafeLocation(location: string): string {
  return location.replace(/[^\x21-\x7e]/gu, (c) => encodeURIComponent(c));
}

/**
 * Writes a site answer on the raw response: files with their prepared headers (304 when the
 * client's copy is current; status 404 for the site's not-found page), redirects with
 * `Location`, and the plain 404 when the site has nothing to show. HEAD gets headers only.
 * @param file the form of the answer's file to send (default `answer.file`; a visitor's variant, `DeploymentSite.variant`)
 * @param extra headers added to a file answer or a redirect (a `Set-Cookie` clearing a stale token)
 */
export function sendAnswer(req: IncomingMessage, res: ServerResponse, answer: SiteAnswer, file?: CachedFile, extra?: readonly string[]): void {
  if (answer.kind === 'file') {
    const sent = file ?? answer.file;
    const rep = pickRepresentation(sent, req.headers['accept-encoding']);
    if (answer.status === 200 && isNotModified(req, sent)) {
      res.writeHead(304, extra ? [...rep.notModifiedHeaders, ...extra] : rep.notModifiedHeaders);
      res.end();
      return;
    }
    res.writeHead(answer.status, extra ? [...rep.headers, ...extra] : rep.headers);
    res.end(req.method === 'HEAD' ? undefined : rep.body);
    return;
  }
  if (answer.kind === 'redirect') {
    res.writeHead(answer.status, ['Location', headerSafeLocation(answer.location), 'Cache-Control', CACHE_REVALIDATE, 'Content-Length', '0', ...SECURITY_HEADERS, ...(extra ?? [])]);
    res.end();
    return;
  }
  sendPlainNotFound(req, res);
}
