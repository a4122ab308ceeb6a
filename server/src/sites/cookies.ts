import type { IncomingMessage } from 'node:http';
import { SITE_COOKIE_MAX_AGE_SECONDS } from '@quire/shared/api/access';

/**
 * The site's cookies (decisions.md section 6): `quire_audience` holds a visitor's audience token,
 * `quire_preview` the proof that a preview link was opened (access/preview-access.ts). Both are host-only
 * (no `Domain`), `Path=/`, `HttpOnly` and `SameSite=Lax` (RFC 6265bis), and `Secure` when the
 * request came over https.
 */

/** Cookie holding the visitor's audience token. */
export const AUDIENCE_COOKIE = 'quire_audience';
/** Cookie holding a preview host's signed access proof. */
export const PREVIEW_COOKIE = 'quire_preview';
/** Lifetime of the site's cookies, in seconds (shared/src/api/access.ts). */
export const COOKIE_MAX_AGE_SECONDS = SITE_COOKIE_MAX_AGE_SECONDS;
/** Longest cookie value read (longer ones are ignored unread). */
const MAX_VALUE = 4096;

/**
 * The value of the first cookie named `name` in the request's `Cookie` header (RFC 6265 section
 * 5.4: `name=value` pairs separated by `;`), undefined when absent, empty or too long. Values are
 * taken as sent (the site's cookies hold only base64url and `.`).
 */
export function readCookie(req: IncomingMessage, name: string): string | undefined {
  const header = req.headers.cookie;
  if (!header) return undefined;
  const prefix = `${name}=`;
  let at = header.indexOf(prefix);
  // a match must start a pair: at the start, or after `;` and optional white space
  while (at > 0 && !/[;\s]/.test(header.charAt(at - 1))) at = header.indexOf(prefix, at + 1);
  if (at === -1) return undefined;
  const end = header.indexOf(';', at);
  let value = header.slice(at + prefix.length, end === -1 ? header.length : end).trim();
  if (value.length >= 2 && value.startsWith('"') && value.endsWith('"')) value = value.slice(1, -1);
  return value && value.length <= MAX_VALUE ? value : undefined;
}

/**
 * Whether the request reached us over https: a TLS socket, or `X-Forwarded-Proto: https` from a
 * proxy in front. The header is believed from anyone: it only adds `Secure` to a cookie, which a
 * client lying about it would just not get back over plain http.
 */
export function isHttps(req: IncomingMessage): boolean {
  if ((req.socket as { encrypted?: boolean }).encrypted === true) return true;
  const proto = req.headers['x-forwarded-proto'];
  const first = (Array.isArray(proto) ? proto[0] : proto)?.split(',')[0]?.trim().toLowerCase();
  return first === 'https';
}

/**
 * A `Set-Cookie` value for one of the site's cookies: host-only, `Path=/`, `HttpOnly`,
 * `SameSite=Lax`, `Max-Age` (seconds; 0 deletes it), `Secure` over https.
 * @param value cookie-octets only (RFC 6265 section 4.1.1; base64url and `.` are); the caller ensures it
 */
export function setCookie(req: IncomingMessage, name: string, value: string, maxAgeSeconds = COOKIE_MAX_AGE_SECONDS): string {
  return `${name}=${value}; Path=/; Max-Age=${maxAgeSeconds}; HttpOnly; SameSite=Lax${isHttps(req) ? '; Secure' : ''}`;
}

/** A `Set-Cookie` value deleting one of the site's cookies. */
export function clearCookie(req: IncomingMessage, name: string): string {
  return setCookie(req, name, '', 0);
}
