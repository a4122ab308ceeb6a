import { describe, expect, it } from 'vitest';
import { nonPublicHostReason } from '../../src/repo/host-address';

describe('nonPublicHostReason', () => {
  it.each([
    ['127.0.0.1', 'loopback'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['[::ffff:7f00:1]', 'loopback'],
    ['0x7f.1', 'loopback'],
    ['2130706433', 'loopback'],
    ['::7f00:1', 'ipv4Compatible'],
    ['100.64.1.1', 'carrierGradeNat'],
    ['fe80::1%eth0', 'linkLocal'],
    ['localhost', 'localhost'],
    ['a.localhost..', 'localhost'],
  ])('classifies %s as %s', (host, reason) => {
    expect(nonPublicHostReason(host)).toBe(reason);
  });

  it('passes public addresses and ordinary names', () => {
    for (const host of ['8.8.8.8', '::ffff:8.8.8.8', '2606:4700::1111', 'github.com', 'localhost.example.com']) expect(nonPublicHostReason(host)).toBeNull();
  });
});
