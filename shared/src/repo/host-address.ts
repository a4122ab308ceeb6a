/**
 * The address policy for outbound connections (decisions.md section 10: "every outbound
 * connection ... goes through one address policy in shared/"): which hosts are not public.
 *
 * Addresses are classified with ipaddr.js: everything whose range is not `unicast` is refused
 * (loopback, private, linkLocal, uniqueLocal, carrierGradeNat, unspecified, broadcast, multicast,
 * reserved, 6to4, teredo, the RFC 8215 local-use NAT64 prefix `64:ff9b:1::/48` and the other
 * special-purpose ranges). Addresses that carry an IPv4 address are classified as that address:
 * IPv4-mapped IPv6 (`::ffff:a.b.c.d`, RFC 4291) and the well-known NAT64 prefix `64:ff9b::/96`
 * (RFC 6052: a DNS64 resolver answers it for IPv4-only names, so `64:ff9b::808:808` is 8.8.8.8 and
 * `64:ff9b::7f00:1` is loopback). IPv4-compatible ones (`::a.b.c.d`, deprecated by RFC 4291) are
 * refused. Names are refused only when they are `localhost` or under `.localhost` (RFC 6761), in
 * any case, with or without trailing dots; other names must be resolved by the caller and each
 * resolved address passed here.
 */
import ipaddr from 'ipaddr.js';

/** Why a host is not public: an ipaddr.js range name, `ipv4Compatible` or `localhost`. */
export type NonPublicReason = string;

/** The well-known NAT64 prefix 64:ff9b::/96 (RFC 6052 section 2.1). */
const NAT64_WELL_KNOWN: [ipaddr.IPv6, number] = [ipaddr.IPv6.parse('64:ff9b::'), 96];

/**
 * Classifies one host: an IP literal in any form ipaddr.js or getaddrinfo accepts (`127.1`,
 * `0x7f.1`, `0177.0.0.1`, `2130706433`, `::ffff:7f00:1`, `::ffff:127.0.0.1`, with or without `[]`,
 * with a `%zone`), or a host name.
 * @param host a WHATWG `URL.hostname`, a resolved address, or a host as ssh would get it.
 * @returns null when the host is a public unicast address or an ordinary name; otherwise the
 *   reason (the ipaddr.js range, e.g. `loopback`, `private`, `linkLocal`; `ipv4Compatible`; or
 *   `localhost`).
 */
export function nonPublicHostReason(host: string): NonPublicReason | null {
  const h = bareHost(host);
  if (h === 'localhost' || h.endsWith('.localhost')) return 'localhost';
  const address = parseIpAddress(h);
  return address ? addressReason(address) : null;
}

/**
 * True when `host` is an IP address in any literal form (see {@link nonPublicHostReason}), so
 * there is no name to resolve.
 */
export function isIpLiteral(host: string): boolean {
  return parseIpAddress(bareHost(host)) !== null;
}

function bareHost(host: string): string {
  return host.replace(/^\[(.*)\]$/, '$1').toLowerCase().replace(/\.+$/, '');
}

/**
 * Parses an IP literal; null when `text` is not one. ipaddr.js reads a dotted IPv4 tail after
 * zeros (`::127.0.0.1`) as IPv4-mapped, so a dotted tail is first written as two hex groups.
 */
function parseIpAddress(text: string): ipaddr.IPv4 | ipaddr.IPv6 | null {
  let h = text;
  const dotted = h.includes(':') ? /^(.*:)(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})(%.*)?$/.exec(h) : null;
  if (dotted) {
    const octets = dotted.slice(2, 6).map(Number);
    if (octets.some((o) => o > 255)) return null;
    const [a = 0, b = 0, c = 0, d = 0] = octets;
    h = `${dotted[1]}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}${dotted[6] ?? ''}`;
  }
  return ipaddr.isValid(h) ? ipaddr.parse(h) : null;
}

function addressReason(address: ipaddr.IPv4 | ipaddr.IPv6): NonPublicReason | null {
  if (address.kind() === 'ipv4') {
    const range = address.range();
    return range === 'unicast' ? null : range;
  }
  const v6 = address as ipaddr.IPv6;
  if (v6.isIPv4MappedAddress()) return addressReason(v6.toIPv4Address());
  if (v6.parts.slice(0, 6).every((p) => p === 0)) {
    // ::/96 holds `::` and `::1` (ranges of their own) and the IPv4-compatible addresses.
    const range = v6.range();
    return range === 'unicast' ? 'ipv4Compatible' : range;
  }
  if (v6.match(NAT64_WELL_KNOWN)) {
    const [, , , , , , hi = 0, lo = 0] = v6.parts;
    return addressReason(new ipaddr.IPv4([hi >> 8, hi & 0xff, lo >> 8, lo & 0xff]));
  }
  const range = v6.range();
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
  reserved: 'a reserved address',
  ipv4Compatible: 'an IPv4-compatible IPv6 address',
  rfc6052: 'a local-use NAT64 address',
  rfc6145: 'an IPv4-translated address',
  '6to4': 'a 6to4 address',
  teredo: 'a Teredo address',
  deprecatedSiteLocal: 'a site-local address',
};

/**
 * Words for a {@link NonPublicReason}, for messages shown to users.
 * @example describeNonPublic('loopback') === 'a loopback address'
 */
export function describeNonPublic(reason: NonPublicReason): string {
  return READABLE[reason] ?? `a special-purpose address (${reason})`;
}

/** What refusals of a non-public host add, after the reason. */
const PRIVATE_NETWORK_HINT = 'loopback, private and link-local hosts are not allowed (QUIRE_ALLOW_PRIVATE_NETWORK=1 allows them)';

/**
 * The user-facing refusal of a host that is not public, or null when it is public (or a name).
 * @param host as for {@link nonPublicHostReason}
 * @example nonPublicHostRefusal('[::ffff:7f00:1]')
 *   // 'the host ::ffff:7f00:1 is a loopback address; loopback, private and link-local hosts are not allowed (...)'
 */
export function nonPublicHostRefusal(host: string): string | null {
  const reason = nonPublicHostReason(host);
  return reason ? `the host ${host.replace(/^\[(.*)\]$/, '$1')} is ${describeNonPublic(reason)}; ${PRIVATE_NETWORK_HINT}` : null;
}

/**
 * The user-facing refusal of an address a name resolved to, or null when the address is public.
 * @example nonPublicAddressRefusal('example.com', '10.0.0.5')
 *   // 'example.com resolves to 10.0.0.5, a private address; loopback, private and link-local hosts are not allowed (...)'
 */
export function nonPublicAddressRefusal(name: string, address: string): string | null {
  const reason = nonPublicHostReason(address);
  return reason ? `${name} resolves to ${address}, ${describeNonPublic(reason)}; ${PRIVATE_NETWORK_HINT}` : null;
}
