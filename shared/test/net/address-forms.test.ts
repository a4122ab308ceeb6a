/**
 * The address policy (decisions.md section 10) over every literal form of a host: the classifier
 * itself, the repoUrl rule (https://, ssh://, scp-like) and the outbound URL rule (webhooks) must
 * all read a host the same way, so no spelling of a private address slips through one of them.
 */
import { describe, expect, it } from 'vitest';
import { checkOutboundUrl } from '../../src/net/outbound-url';
import { describeNonPublic, nonPublicHostReason } from '../../src/repo/host-address';
import { checkRepoUrl } from '../../src/repo/repo-url';

/** [host as written in a URL, the reason the classifier gives (null: public)] */
const FORMS: Array<[string, string | null]> = [
  // loopback in every spelling
  ['127.0.0.1', 'loopback'],
  ['2130706433', 'loopback'], // decimal
  ['0177.0.0.1', 'loopback'], // octal
  ['0x7f.1', 'loopback'], // hex, short
  ['0x7f000001', 'loopback'], // hex
  ['127.1', 'loopback'], // short form
  ['127.0.0.1.', 'loopback'], // trailing dot
  ['[::1]', 'loopback'],
  ['[::ffff:7f00:1]', 'loopback'], // IPv4-mapped, hex
  ['[::ffff:127.0.0.1]', 'loopback'], // IPv4-mapped, dotted
  ['[64:ff9b::7f00:1]', 'loopback'], // NAT64 well-known prefix carrying 127.0.0.1
  ['[::127.0.0.1]', 'ipv4Compatible'], // IPv4-compatible (deprecated)
  ['[::7f00:1]', 'ipv4Compatible'],
  ['[::8.8.8.8]', 'ipv4Compatible'],
  ['[64:ff9b:1::7f00:1]', 'rfc6052'], // NAT64 local-use prefix 64:ff9b:1::/48
  ['[64:ff9b:1:abcd::1]', 'rfc6052'],
  ['[::ffff:0:7f00:1]', 'rfc6145'], // IPv4-translated
  // names
  ['localhost', 'localhost'],
  ['localhost.', 'localhost'],
  ['localhost..', 'localhost'],
  ['LOCALHOST', 'localhost'],
  ['Docs.LocalHost.', 'localhost'],
  // unspecified, link-local, private, CGNAT, multicast, broadcast
  ['0.0.0.0', 'unspecified'],
  ['0', 'unspecified'],
  ['[::]', 'unspecified'],
  ['169.254.169.254', 'linkLocal'],
  ['[fe80::1]', 'linkLocal'],
  ['[::ffff:169.254.169.254]', 'linkLocal'],
  ['10.0.0.5', 'private'],
  ['012.0.0.5', 'private'], // octal 10.0.0.5
  ['172.16.0.1', 'private'],
  ['172.31.255.254', 'private'],
  ['192.168.1.1', 'private'],
  ['[::ffff:a00:5]', 'private'],
  ['[64:ff9b::a00:5]', 'private'],
  ['[fc00::1]', 'uniqueLocal'],
  ['[fd12:3456::1]', 'uniqueLocal'],
  ['100.64.0.1', 'carrierGradeNat'],
  ['100.127.255.254', 'carrierGradeNat'],
  ['224.0.0.1', 'multicast'],
  ['[ff02::1]', 'multicast'],
  ['255.255.255.255', 'broadcast'],
  ['240.0.0.1', 'reserved'],
  ['[2001:db8::1]', 'reserved'],
  ['[2002:7f00:1::]', '6to4'],
  // public: must pass
  ['8.8.8.8', null],
  ['134744072', null], // 8.8.8.8 as a number
  ['172.32.0.1', null],
  ['100.128.0.1', null],
  ['[2606:4700::1111]', null],
  ['[::ffff:8.8.8.8]', null],
  ['[64:ff9b::808:808]', null], // NAT64 of 8.8.8.8
  ['github.com', null],
  ['github.com.', null],
  ['localhost.example.com', null],
];

const strict = { allowFileRepos: false, allowPrivateNetwork: false };
const privateAllowed = { allowFileRepos: false, allowPrivateNetwork: true };

describe('the address policy over every literal form', () => {
  it.each(FORMS)('classifies %s as %s', (host, reason) => {
    expect(nonPublicHostReason(host)).toBe(reason);
  });

  it.each(FORMS)('the repoUrl rule reads %s the same way over https://, ssh:// and scp-like URLs', (host, reason) => {
    for (const url of [`https://${host}/acme/docs.git`, `ssh://git@${host}/acme/docs.git`, `git@${host}:acme/docs.git`]) {
      const check = checkRepoUrl(url, strict);
      if (reason === null) {
        expect(check, url).toMatchObject({ ok: true });
      } else {
        expect(check, url).toMatchObject({ ok: false, problem: 'private_host' });
        expect(!check.ok && check.message, url).toContain(describeNonPublic(reason));
        expect(checkRepoUrl(url, privateAllowed), url).toMatchObject({ ok: true });
      }
    }
  });

  it.each(FORMS)('the outbound URL rule reads %s the same way over https:// and http://', (host, reason) => {
    for (const url of [`https://${host}/hooks/quire`, `http://${host}:8080/hooks/quire`]) {
      const check = checkOutboundUrl(url, { allowPrivateNetwork: false });
      if (reason === null) {
        expect(check, url).toMatchObject({ ok: true });
      } else {
        expect(check, url).toMatchObject({ ok: false, message: expect.stringContaining(describeNonPublic(reason)) });
        expect(checkOutboundUrl(url, { allowPrivateNetwork: true }), url).toMatchObject({ ok: true });
      }
    }
  });

  it('refuses https://[::ffff:127.0.0.1]/ in both rules, also with file repositories allowed', () => {
    const url = 'https://[::ffff:127.0.0.1]/';
    expect(checkRepoUrl(url, { allowFileRepos: true, allowPrivateNetwork: false })).toMatchObject({ ok: false, problem: 'private_host' });
    expect(checkOutboundUrl(url, { allowPrivateNetwork: false })).toMatchObject({
      ok: false,
      message: 'the host ::ffff:7f00:1 is a loopback address; loopback, private and link-local hosts are not allowed (QUIRE_ALLOW_PRIVATE_NETWORK=1 allows them)',
    });
  });
});
