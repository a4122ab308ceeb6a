/**
 * The rule for URLs Quire sends HTTP requests to (outgoing webhook destinations; decisions.md
 * sections 8 and 10): the part that needs no network. `http://` or `https://`, no user name or
 * password, at most {@link URL_MAX_LENGTH} characters, no whitespace, control characters or
 * backslashes, and a host that is not a non-public address in any literal form
 * (`@quire/shared/repo/host-address`) unless private networks are allowed. Names are not resolved
 * here: the server resolves them and checks every address (server/src/net/outbound.ts).
 * Used by the API's validation of webhook URLs and by every delivery.
 */
import { isIpLiteral, nonPublicHostRefusal } from '../repo/host-address';
import { UNSAFE_URL_CHARS, URL_MAX_LENGTH } from './url-text';

/** What outbound connections may reach (decisions.md section 10). */
export interface OutboundPolicy {
  /** `QUIRE_ALLOW_PRIVATE_NETWORK=1`: loopback, private, link-local, ... addresses too */
  allowPrivateNetwork: boolean;
}

/** An accepted destination, parsed. */
export interface OutboundUrlAccepted {
  ok: true;
  /** the WHATWG serialization: what is sent, so the request goes to the host that was classified */
  href: string;
  scheme: 'http' | 'https';
  /** lowercase host name (IDN as punycode, trailing dots kept) or IP address (IPv6 without brackets) */
  host: string;
  /** TCP port (80 / 443 when the URL names none) */
  port: number;
  /** true when `host` is an IP address (nothing to resolve) */
  isAddress: boolean;
}

/** A refused destination. */
export interface OutboundUrlRefused {
  ok: false;
  /** user-facing, e.g. `the host 127.0.0.1 is a loopback address; ...` */
  message: string;
}

/** The outcome of {@link checkOutboundUrl}. */
export type OutboundUrlCheck = OutboundUrlAccepted | OutboundUrlRefused;

/**
 * Checks `value` under `policy` without touching the network.
 * @returns {@link OutboundUrlAccepted} or {@link OutboundUrlRefused} with a message that completes
 *   "url: ..."; never throws. The API maps a refusal to `invalidField('url', message)`.
 * @example checkOutboundUrl('https://[::ffff:127.0.0.1]/hook', { allowPrivateNetwork: false })
 *   // { ok: false, message: 'the host ::ffff:7f00:1 is a loopback address; loopback, private and link-local hosts ...' }
 */
export function checkOutboundUrl(value: string, policy: OutboundPolicy): OutboundUrlCheck {
  const refuse = (message: string): OutboundUrlRefused => ({ ok: false, message });
  if (value.length === 0) return refuse('must not be empty');
  if (value.length > URL_MAX_LENGTH) return refuse(`must be at most ${URL_MAX_LENGTH} characters`);
  if (UNSAFE_URL_CHARS.test(value)) return refuse('must not contain spaces, control characters or backslashes');
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return refuse('must be an absolute http:// or https:// URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return refuse(`must use http:// or https://, not ${url.protocol}//`);
  if (url.username || url.password) return refuse('must not carry a user name or password');
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  if (!host) return refuse('must name a host');
  if (!policy.allowPrivateNetwork) {
    const refusal = nonPublicHostRefusal(host);
    if (refusal) return refuse(refusal);
  }
  const scheme = url.protocol === 'https:' ? 'https' : 'http';
  return { ok: true, href: url.href, scheme, host, port: url.port ? Number(url.port) : scheme === 'https' ? 443 : 80, isAddress: isIpLiteral(host) };
}
