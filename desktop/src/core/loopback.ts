/**
 * What "this computer" means to the web-mode core: the addresses it may listen on without
 * `QUIRE_DESKTOP_ALLOW_REMOTE=1` and the Host names it answers to. Built on the project's one
 * address classifier (`@quire/shared/repo/host-address`, ipaddr.js; decisions.md section 10), so
 * every literal form of a loopback address counts (`127.1`, `::ffff:7f00:1`, `[::1]`) and
 * `localhost` or a name under `.localhost` is loopback (RFC 6761 section 6.3); every other name and
 * address, `0.0.0.0` and `::` included, is not.
 */
import { nonPublicHostReason } from '@quire/shared/repo/host-address';

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
