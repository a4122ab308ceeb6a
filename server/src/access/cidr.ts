/**
 * Sets of CIDR ranges for the serving path: is this visitor's address in one of these ranges?
 * Ranges and addresses come in the canonical notation of `@quire/shared/api/access`
 * (`canonicalCidr`, `canonicalIp`: IPv4 dotted quad, compact IPv6, IPv4-mapped IPv6 as IPv4),
 * which is where every address is parsed and validated; this module only matches, with Node's
 * native `net.BlockList` (one lookup per family, no parsing in JavaScript per request).
 */
import { BlockList } from 'node:net';
import { canonicalCidr, canonicalIp } from '@quire/shared/api/access';

/** The address family of a canonical address or range: IPv6 text always holds a `:`. */
function familyOf(text: string): 'ipv4' | 'ipv6' {
  return text.includes(':') ? 'ipv6' : 'ipv4';
}

/** A fixed set of CIDR ranges; build it once per rule, test it per request. */
export class CidrSet {
  private readonly list = new BlockList();
  /** Number of ranges in the set. */
  readonly size: number;

  /**
   * @param cidrs ranges in canonical form (as stored; `canonicalCidr`). A range that is not (a
   *   corrupt row) is re-read through `canonicalCidr` and skipped when still unreadable, so it
   *   can never widen the set.
   */
  constructor(cidrs: readonly string[]) {
    let size = 0;
    for (const text of cidrs) {
      const cidr = canonicalCidr(text);
      if (cidr === null) continue;
      const slash = cidr.indexOf('/');
      this.list.addSubnet(cidr.slice(0, slash), Number(cidr.slice(slash + 1)), familyOf(cidr));
      size++;
    }
    this.size = size;
  }

  /**
   * Whether `ip` is in one of the ranges.
   * @param ip a canonical address (`canonicalIp`); anything else (empty, unparsable) is in no range.
   */
  has(ip: string): boolean {
    if (this.size === 0 || ip === '') return false;
    try {
      return this.list.check(ip, familyOf(ip));
    } catch {
      return false; // not an address BlockList reads: in no range
    }
  }
}

/**
 * `ip` in canonical form, or "" when it is not an address (an unknown socket address): the empty
 * address is in no range, so it passes no CIDR condition.
 */
export function visitorAddress(ip: string | undefined): string {
  return ip ? (canonicalIp(ip) ?? '') : '';
}
