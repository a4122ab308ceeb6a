/**
 * What "this computer" means to a local server (the desktop's web-mode core, `quire-docs dev`): the
 * addresses the desktop core may listen on without `QUIRE_DESKTOP_ALLOW_REMOTE=1` and the Host names
 * both answer to. Built on the project's one
 * address classifier (`@quire/shared/repo/host-address`, ipaddr.js; decisions.md section 10), so
 * every literal form of a loopback address counts (`127.1`, `::ffff:7f00:1`, `[::1]`) and
 * `localhost` or a name under `.localhost` is loopback (RFC 6761 section 6.3); every other name and
 * address, `0.0.0.0` and `::` included, is not.
 */
import { nonPublicHostReason } from '../repo/host-address';

/**
 * True when `host` is a loopback address in any literal form (with or without `[]`) or a
 * `localhost` name; false for any other name or address.
 * @example isLoopbackHost('127.0.0.1') === true; isLoopbackHost('[::1]') === true
 * @example isLoopbackHost('0.0.0.0') === false; isLoopbackHost('example.com') === false
 */
export function isLoopbackHost(host: string): boolean {
  const reason = nonPublicHostReason(host);
  return reason === 'loopback' || reason === 'localhost';
}

/**
 * `host [":" port]` of a Host header or an absolute-form request target (RFC 9110 section 7.2,
 * RFC 3986 section 3.2.2): a registered name, an IPv4 literal or a bracketed IPv6 literal, no user
 * information. Nothing else matches.
 */
const AUTHORITY = /^(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9._~!$&'()*+,;=-]+)(?::\d{0,5})?$/;

/**
 * The host of an authority (`localhost:5199`, `[::1]:5199`, `127.0.0.1`), or null when the text is
 * not one (empty, several values, user information, spaces, a bad port).
 */
export function authorityHost(authority: string): string | null {
  const match = AUTHORITY.exec(authority);
  return match ? match[1]! : null;
}

/**
 * Why a request's Host header values do not name this computer, or null when they do (exactly one
 * value, `host[:port]`, a loopback host). A local server refuses the first two cases with 400 and
 * the last with 403: a page that reaches it through a DNS name of its own (DNS rebinding, CWE-350)
 * must not read it.
 * @returns `'missing'`, `'several'`, `'malformed'` or `'not loopback'`; null when accepted
 */
export function hostHeaderRefusal(values: readonly string[]): 'missing' | 'several' | 'malformed' | 'not loopback' | null {
  if (values.length === 0) return 'missing';
  if (values.length > 1) return 'several';
  const host = authorityHost(values[0]!);
  if (host === null) return 'malformed';
  return isLoopbackHost(host) ? null : 'not loopback';
}

/**
 * Every value of the Host header in Node's `rawHeaders` list (`[name, value, name, value, ...]`),
 * in order; repeated headers are kept apart so that {@link hostHeaderRefusal} can refuse them.
 */
export function hostHeaderValues(rawHeaders: readonly string[]): string[] {
  const values: string[] = [];
  for (let i = 0; i + 1 < rawHeaders.length; i += 2) {
    if (rawHeaders[i]!.toLowerCase() === 'host') values.push(rawHeaders[i + 1]!);
  }
  return values;
}
