/**
 * Reads the request line and Host of a request to the web-mode core before anything routes it, so
 * that no request target or header, however malformed, can throw out of the server's handler.
 * What Node's HTTP parser already refuses (unknown methods, NUL and other control characters in
 * the target, malformed header lines, conflicting Content-Length, heads over 16 KiB) is answered by
 * Node itself with 400 or 431 before a handler runs.
 */
import type http from 'node:http';
import { hostHeaderRefusal, hostHeaderValues } from '@quire/shared/net/loopback';

/**
 * The longest request path served, in characters (the query is not counted: tRPC queries carry
 * their input there, such as a page's text to lint, and Node's 16 KiB limit on a request's head
 * bounds it). RFC 9112 section 3 asks servers to accept request lines of at least 8,000 octets;
 * longer paths are answered 414 (RFC 9110 section 15.5.15).
 */
export const MAX_PATH_LENGTH = 8000;

const BAD_AUTHORITY = 'The Host is not a host name or address with an optional port.';

/** A request the core may route. */
export interface AcceptedRequest {
  ok: true;
  /** the authority it was sent to (`127.0.0.1:5199`): the target's in absolute-form, else the Host header */
  authority: string;
  /** the target in origin-form (`/trpc/x?input=…`), as sent */
  target: string;
  /** the path of `target`, percent-decoded (`/assets/a b.js`) */
  pathname: string;
}

/** A request answered with `status` and `message` (plain text) without routing it. */
export interface RefusedRequest {
  ok: false;
  status: 400 | 403 | 414;
  message: string;
}

/**
 * Checks a request's target and Host. Accepted targets are origin-form (`/path?query`) and
 * absolute-form `http://authority/path` (RFC 9112 section 3.2.2: its authority then stands for the
 * Host header); refused with:
 * - 400: another form (`*`, `authority:port`, another scheme), a path whose percent-encoding is
 *   malformed or decodes to NUL, no Host header or more than one (RFC 9112 section 3.2), or a Host
 *   (or absolute-form authority) that is not `host[:port]` ({@link hostHeaderRefusal});
 * - 403: an authority that is not this computer, which refuses pages
 *   reaching the core through a DNS name of theirs (DNS rebinding, CWE-350) or through `0.0.0.0`;
 * - 414: a path longer than {@link MAX_PATH_LENGTH}.
 */
export function checkRequest(req: http.IncomingMessage): AcceptedRequest | RefusedRequest {
  const raw = req.url ?? '';
  const hosts = hostHeaderValues(req.rawHeaders);
  const hostRefusal = hostHeaderRefusal(hosts);
  if (hostRefusal === 'missing') return refuse(400, 'The Host header is missing.');
  if (hostRefusal === 'several') return refuse(400, 'More than one Host header.');
  if (hostRefusal === 'malformed') return refuse(400, BAD_AUTHORITY);
  let authority = hosts[0]!;
  let authorityRefusal: ReturnType<typeof hostHeaderRefusal> = hostRefusal;
  let target = raw;
  if (!raw.startsWith('/')) {
    const absolute = /^http:\/\/([^/?#]*)([/?].*)?$/i.exec(raw);
    if (!absolute) return refuse(400, 'The request target must be a path starting with "/" or an http:// URL.');
    // The authority of an absolute-form target replaces the Host header (RFC 9112 section 3.2.2).
    authority = absolute[1]!;
    authorityRefusal = hostHeaderRefusal([authority]);
    target = absolute[2]?.startsWith('/') ? absolute[2] : `/${absolute[2] ?? ''}`;
  }
  if (authorityRefusal === 'malformed') return refuse(400, BAD_AUTHORITY);
  if (authorityRefusal !== null) return refuse(403, 'Quire Desktop answers on localhost only.');
  const end = target.search(/[?#]/);
  const rawPath = end < 0 ? target : target.slice(0, end);
  if (rawPath.length > MAX_PATH_LENGTH) return refuse(414, `The request path is longer than ${MAX_PATH_LENGTH} characters.`);
  let pathname: string;
  try {
    pathname = decodeURIComponent(rawPath);
  } catch {
    return refuse(400, 'The request path has a malformed percent-encoding.');
  }
  if (pathname.includes('\0')) return refuse(400, 'The request path contains a NUL character.');
  return { ok: true, authority, target, pathname };
}

function refuse(status: RefusedRequest['status'], message: string): RefusedRequest {
  return { ok: false, status, message };
}
