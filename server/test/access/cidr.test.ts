/**
 * The address notation of access rules (`canonicalCidr`, `canonicalIp` in @quire/shared/api/access)
 * and range matching on the serving path (server/src/access/cidr.ts): IPv4, IPv6 and IPv4-mapped
 * IPv6 addresses, which a dual-stack socket reports for IPv4 visitors.
 */
import { describe, expect, it } from 'vitest';
import { canonicalCidr, canonicalIp } from '@quire/shared/api/access';
import { CidrSet, visitorAddress } from '../../src/access/cidr';

describe('CIDR notation', () => {
  it.each([
    ['203.0.113.0/24', '203.0.113.0/24'],
    ['203.0.113.77/24', '203.0.113.0/24'],
    ['198.51.100.7', '198.51.100.7/32'],
    ['0.0.0.0/0', '0.0.0.0/0'],
    ['2001:DB8::/32', '2001:db8::/32'],
    ['2001:db8:0:0:0:0:0:1', '2001:db8::1/128'],
    ['2001:db8:abcd:12::1/48', '2001:db8:abcd::/48'],
    ['::/0', '::/0'],
    ['::ffff:10.0.0.0/104', '10.0.0.0/8'],
    ['::ffff:192.0.2.5', '192.0.2.5/32'],
  ])('reads %s as %s', (text, canonical) => {
    expect(canonicalCidr(text)).toBe(canonical);
  });

  it.each(['10/8', '127.1', '010.0.0.1/8', '1.2.3.4/33', '1.2.3.4/', '1.2.3.4/08', '1.2.3.4/-1', '2001:db8::/129', 'fe80::1%eth0/64', 'example.com', '', '1.2.3.4 /24', '1.2.3.4/24/8'])(
    'refuses %j',
    (text) => {
      expect(canonicalCidr(text)).toBeNull();
    },
  );

  it.each([
    ['192.0.2.1', '192.0.2.1'],
    ['::ffff:192.0.2.1', '192.0.2.1'],
    ['::FFFF:c000:201', '192.0.2.1'],
    ['2001:0db8::0001', '2001:db8::1'],
    ['fe80::1%eth0', 'fe80::1'],
    ['::1', '::1'],
  ])('reads the address %s as %s', (text, canonical) => {
    expect(canonicalIp(text)).toBe(canonical);
  });

  it.each(['127.1', '0x7f.0.0.1', '192.0.2.1:80', '[::1]', 'localhost', ''])('refuses the address %j', (text) => {
    expect(canonicalIp(text)).toBeNull();
  });
});

describe('CIDR matching', () => {
  const set = new CidrSet(['10.0.0.0/8', '192.0.2.7/32', '2001:db8::/32', '::ffff:172.16.0.0/108'].map((c) => canonicalCidr(c)!));

  it.each([
    // IPv4 ranges
    ['10.0.0.1', true],
    ['10.255.255.255', true],
    ['11.0.0.0', false],
    ['9.255.255.255', false],
    ['192.0.2.7', true],
    ['192.0.2.8', false],
    // IPv4 visitors seen through a dual-stack socket
    ['::ffff:10.1.2.3', true],
    ['::ffff:192.0.2.7', true],
    ['::ffff:11.0.0.1', false],
    // IPv6 ranges
    ['2001:db8::1', true],
    ['2001:db8:ffff:ffff::1', true],
    ['2001:db9::1', false],
    ['::1', false],
    // an IPv4-mapped range written in IPv6 covers IPv4 visitors
    ['172.16.5.4', true],
    ['172.31.0.1', true],
    ['172.32.0.1', false],
  ])('%s is in the set: %s', (ip, inside) => {
    expect(set.has(visitorAddress(ip))).toBe(inside);
  });

  it('puts an unknown or unreadable address in no range, even 0.0.0.0/0 and ::/0', () => {
    const everything = new CidrSet(['0.0.0.0/0', '::/0']);
    expect(everything.has(visitorAddress(undefined))).toBe(false);
    expect(everything.has(visitorAddress('not an address'))).toBe(false);
    expect(everything.has(visitorAddress('198.51.100.1'))).toBe(true);
    expect(everything.has(visitorAddress('2001:db8::5'))).toBe(true);
  });

  it('skips a stored range that cannot be read instead of widening the set', () => {
    const set = new CidrSet(['garbage', '10.0.0.0/8']);
    expect(set.size).toBe(1);
    expect(set.has('10.1.1.1')).toBe(true);
    expect(set.has('11.1.1.1')).toBe(false);
  });
});
