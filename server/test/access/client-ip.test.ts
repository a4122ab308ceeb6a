/**
 * The visitor's address behind reverse proxies (`QUIRE_TRUSTED_PROXIES`): X-Forwarded-For is read
 * only from a trusted socket address, from the right, skipping trusted hops.
 */
import type { IncomingMessage } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/env';
import { clientIp } from '../../src/access/policy';
import { createTestApp, type TestApp } from '../helpers/app';

/** A raw request as the site sees it: its socket address and headers. */
function request(remoteAddress: string | undefined, forwarded?: string | string[]): IncomingMessage {
  return { socket: { remoteAddress }, headers: forwarded === undefined ? {} : { 'x-forwarded-for': forwarded } } as unknown as IncomingMessage;
}

describe('QUIRE_TRUSTED_PROXIES', () => {
  it('defaults to no trusted proxy and reads comma-separated ranges in canonical form', () => {
    expect(loadConfig({ QUIRE_DATA_DIR: '/tmp/q' }).trustedProxies).toEqual([]);
    expect(loadConfig({ QUIRE_DATA_DIR: '/tmp/q', QUIRE_TRUSTED_PROXIES: ' 127.0.0.1 , 10.1.2.3/8,FD00::/8,' }).trustedProxies).toEqual(['127.0.0.1/32', '10.0.0.0/8', 'fd00::/8']);
  });

  it('refuses a value that is not a range, naming the variable', () => {
    expect(() => loadConfig({ QUIRE_DATA_DIR: '/tmp/q', QUIRE_TRUSTED_PROXIES: '10.0.0.0/8,proxy.internal' })).toThrow(ConfigError);
    expect(() => loadConfig({ QUIRE_DATA_DIR: '/tmp/q', QUIRE_TRUSTED_PROXIES: '10.0.0.0/8,proxy.internal' })).toThrow(/QUIRE_TRUSTED_PROXIES: "proxy.internal" is not a CIDR range/);
  });
});

describe('clientIp without trusted proxies', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t?.close();
  });

  it('takes the socket address and never believes X-Forwarded-For', () => {
    expect(clientIp(t.ctx, request('127.0.0.1', '203.0.113.9'))).toBe('127.0.0.1');
    expect(clientIp(t.ctx, request('::ffff:198.51.100.4', '203.0.113.9'))).toBe('198.51.100.4');
    expect(clientIp(t.ctx, request(undefined))).toBe('');
  });
});

describe('clientIp behind trusted proxies', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ env: { QUIRE_TRUSTED_PROXIES: '127.0.0.1,10.0.0.0/8,fd00::/8' } });
  });
  afterAll(async () => {
    await t?.close();
  });

  it.each([
    ['one proxy', '127.0.0.1', '203.0.113.9', '203.0.113.9'],
    ['a dual-stack socket address of a trusted proxy', '::ffff:127.0.0.1', '203.0.113.9', '203.0.113.9'],
    ['a chain of trusted proxies', '127.0.0.1', '203.0.113.9, 10.0.0.5, 10.2.0.1', '203.0.113.9'],
    ['an address the client wrote itself on the left', '127.0.0.1', '6.6.6.6, 203.0.113.9, 10.0.0.5', '203.0.113.9'],
    ['only trusted hops: the left-most', '127.0.0.1', '10.0.0.7, 10.0.0.5', '10.0.0.7'],
    ['several header lines', '127.0.0.1', ['6.6.6.6, 203.0.113.9', '10.0.0.5'], '203.0.113.9'],
    ['an IPv6 visitor through an IPv6 proxy', 'fd00::1', '2001:db8::7, fd00::2', '2001:db8::7'],
    ['an IPv4-mapped visitor', '127.0.0.1', '::ffff:203.0.113.9', '203.0.113.9'],
    ['ports on entries', '127.0.0.1', '[2001:db8::7]:443, 10.0.0.5:8080', '2001:db8::7'],
    ['an IPv4 entry with a port', '127.0.0.1', '203.0.113.9:4711', '203.0.113.9'],
    ['garbage after a trusted hop: that hop', '127.0.0.1', '203.0.113.9, unknown, 10.0.0.5', '10.0.0.5'],
    ['garbage right away: the proxy itself', '127.0.0.1', 'unknown', '127.0.0.1'],
    ['no header: the proxy itself', '127.0.0.1', undefined, '127.0.0.1'],
  ])('%s', (_name, socket, forwarded, expected) => {
    expect(clientIp(t.ctx, request(socket, forwarded as string | string[] | undefined))).toBe(expected);
  });

  it('ignores X-Forwarded-For from a socket address outside the trusted ranges', () => {
    expect(clientIp(t.ctx, request('198.51.100.2', '203.0.113.9'))).toBe('198.51.100.2');
    expect(clientIp(t.ctx, request('2001:db8::99', '203.0.113.9'))).toBe('2001:db8::99');
  });
});
