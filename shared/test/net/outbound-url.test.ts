import { describe, expect, it } from 'vitest';
import { checkOutboundUrl } from '../../src/net/outbound-url';

const strict = { allowPrivateNetwork: false };

describe('checkOutboundUrl', () => {
  it('accepts http and https URLs and gives what to connect to', () => {
    expect(checkOutboundUrl('https://Hooks.Example.com/quire?x=1', strict)).toEqual({
      ok: true,
      href: 'https://hooks.example.com/quire?x=1',
      scheme: 'https',
      host: 'hooks.example.com',
      port: 443,
      isAddress: false,
    });
    expect(checkOutboundUrl('http://[2606:4700::1111]:8080/h', strict)).toMatchObject({ ok: true, scheme: 'http', host: '2606:4700::1111', port: 8080, isAddress: true });
    expect(checkOutboundUrl('http://134744072/h', strict)).toMatchObject({ ok: true, href: 'http://8.8.8.8/h', host: '8.8.8.8', port: 80, isAddress: true });
  });

  it.each([
    ['', 'must not be empty'],
    ['hooks.example.com/x', 'absolute http:// or https://'],
    ['ftp://hooks.example.com/x', 'must use http:// or https://, not ftp://'],
    ['file:///etc/passwd', 'must use http:// or https://'],
    ['javascript:alert(1)', 'must use http:// or https://'],
    ['https://user@hooks.example.com/x', 'user name or password'],
    ['https://user:pw@hooks.example.com/x', 'user name or password'],
    ['https://hooks.example.com/a b', 'spaces'],
    ['https://hooks.example.com/a\tb', 'control characters'],
    ['https://hooks.example.com\\@127.0.0.1/', 'backslashes'],
    [`https://hooks.example.com/${'a'.repeat(2048)}`, 'at most 2048 characters'],
    ['https://127.0.0.1/x', 'loopback'],
  ])('refuses %j (%s)', (url, words) => {
    const check = checkOutboundUrl(url, strict);
    expect(check.ok).toBe(false);
    expect(!check.ok && check.message).toContain(words);
  });

  it('takes 2048 characters, not one more', () => {
    const base = 'https://hooks.example.com/';
    expect(checkOutboundUrl(base + 'a'.repeat(2048 - base.length), strict).ok).toBe(true);
    expect(checkOutboundUrl(base + 'a'.repeat(2049 - base.length), strict).ok).toBe(false);
  });
});
