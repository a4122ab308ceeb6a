/**
 * The address policy for outbound connections (decisions.md section 10: "every outbound
 * connection ... goes through one address policy in shared/"): which hosts are not public.
 *
 * Addresses are classified with ipaddr.js: everything whose range is not `unicast` is refused
 * (loopback, private, linkLocal, uniqueLocal, carrierGradeNat, unspecified, broadcast, multicast,
 * reserved, 6to4, teredo, NAT64 and the other special-purpose ranges); IPv4-mapped IPv6 addresses
 * are classified as the IPv4 address they map to, IPv4-compatible ones (`::a.b.c.d`, deprecated by
 * RFC 4291) are refused. Names are refused only when they are `localhost` or under `.localhost`
 * (RFC 6761), with or without trailing dots; other names must be resolved by the caller and each
 * resolved address passed here.
 */
import ipaddr from 'ipaddr.js';

/** Why a host is not public: an ipaddr.js range name, `ipv4Compatible` or `localhost`. */
export type NonPublicReason = string;

/**
 * Classifies one host: an IP literal in any form ipaddr.js or getaddrinfo accepts (`127.1`,
 * `0x7f.1`, `0177.0.0.1`, `2130706433`, `::ffff:7f00:1`, with or without `[]`), or a host name.
 * @param host a WHATWG `URL.hostname`, a resolved address, or a host as ssh would get it.
 * @returns null when the host is a public unicast address or an ordinary name; otherwise the
 *   reason (the ipaddr.js range, e.g. `loopback`, `private`, `linkLocal`; or `localhost`).
 */
export function nonPublicHostReason(host: string): NonPublicReason | null {
  const h = host.replace(/^\[(.*)\]$/, '$1').toLowerCase().replace(/\.+$/, '');
  if (h === 'localhost' || h.endsWith('.localhost')) return 'localhost';
  if (!ipaddr.isValid(h)) return null;
  const address = ipaddr.process(h);
  if (address.kind() === 'ipv6' && (address as ipaddr.IPv6).parts.slice(0, 6).every((p) => p === 0)) {
    // ::/96 holds `::` and `::1` (ranges of their own) and the IPv4-compatible addresses.
    const range = address.range();
    return range === 'unicast' ? 'ipv4Compatible' : range;
  }
  const range = address.range();
  return range === 'unicast' ? null : range;
}

const READABLE: Record<string, string> = {
  localhost: 'a localhost name',
  loopback: 'a loopback address',
  private: 'a private address',
  uniqueLocal: 'a unique-local (private) address',
  linkLocal: 'a link-local address',
  carrierGradeNat: 'a carrier-grade NAT address',
  unspecified: 'the unspecified address',
  broadcast: 'the broadcast address',
  multicast: 'a multicast address',
  ipv4Compatible: 'an IPv4-compatible IPv6 address',
};

/**
 * Words for a {@link NonPublicReason}, for messages shown to users.
 * @example describeNonPublic('loopback') === 'a loopback address'
 */
export function describeNonPublic(reason: NonPublicReason): string {
  return READABLE[reason] ?? `a special-purpose address (${reason})`;
}
