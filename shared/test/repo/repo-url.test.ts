import { describe, expect, it } from 'vitest';
import { checkRepoUrl, type RepoUrlCheck } from '../../src/repo/repo-url';

const strict = { allowFileRepos: false, allowPrivateNetwork: false };
const local = { allowFileRepos: true, allowPrivateNetwork: false };
const everything = { allowFileRepos: true, allowPrivateNetwork: true };

function refusal(check: RepoUrlCheck) {
  if (check.ok) throw new Error(`expected a refusal, got ${JSON.stringify(check)}`);
  return check;
}

describe('checkRepoUrl', () => {
  it.each([
    ['https://github.com/acme/docs.git', 'https', 'github.com'],
    ['ssh://git@github.com/acme/docs.git', 'ssh', 'github.com'],
    ['ssh://git@github.com:2222/acme/docs.git', 'ssh', 'github.com'],
    ['git@github.com:acme/docs.git', 'scp', 'github.com'],
    ['https://token@gitlab.com/a/b', 'https', 'gitlab.com'],
    ['https://[2606:4700::1111]/a/b', 'https', '2606:4700::1111'],
    ['https://[::ffff:8.8.8.8]/a/b', 'https', '::ffff:808:808'],
  ])('accepts %s', (url, kind, host) => {
    expect(checkRepoUrl(url, strict)).toEqual({ ok: true, kind, host, gitUrl: url.replace('::ffff:8.8.8.8', '::ffff:808:808') });
  });

  // Every literal form the WHATWG URL parser turns into a loopback address.
  it.each([
    ['https://[::ffff:127.0.0.1]/a', 'loopback'],
    ['https://0x7f.1/a', 'loopback'],
    ['https://2130706433/a', 'loopback'],
    ['https://127.1/a', 'loopback'],
    ['https://0177.0.0.1/a', 'loopback'],
    ['https://127.0.0.1./a', 'loopback'],
    ['https://%31%32%37.0.0.1/a', 'loopback'],
    ['https://[::127.0.0.1]/a', 'IPv4-compatible'],
    ['https://localhost./a', 'localhost'],
    ['https://LOCALHOST/a', 'localhost'],
    ['https://docs.localhost./a', 'localhost'],
    ['https://0/a', 'unspecified'],
    ['https://10.1.2.3/a', 'private'],
    ['https://172.20.0.1/a', 'private'],
    ['https://192.168.0.1/a', 'private'],
    ['https://100.64.1.1/a', 'carrier-grade NAT'],
    ['https://169.254.169.254/latest', 'link-local'],
    ['https://[fe80::1]/a', 'link-local'],
    ['https://[fd00::1]/a', 'unique-local'],
    ['https://[::1]/a', 'loopback'],
    ['https://[::]/a', 'unspecified'],
    ['https://255.255.255.255/a', 'broadcast'],
    ['https://224.0.0.1/a', 'multicast'],
    ['https://240.0.0.1/a', 'reserved'],
    ['https://[2002:7f00:1::]/a', '6to4'],
    ['https://[64:ff9b::7f00:1]/a', 'loopback'],
    ['https://[64:ff9b:1::a00:1]/a', 'local-use NAT64'],
    ['ssh://git@127.1/a', 'loopback'],
    ['ssh://git@0x7f.1/a', 'loopback'],
    ['ssh://git@[::ffff:127.0.0.1]/a', 'loopback'],
    ['git@127.0.0.1:a/b', 'loopback'],
    ['git@127.1:a/b', 'loopback'],
    ['git@0x7f.1:a/b', 'loopback'],
    ['git@0177.0.0.1:a/b', 'loopback'],
    ['git@2130706433:a/b', 'loopback'],
    ['git@[::ffff:127.0.0.1]:a/b', 'loopback'],
    ['git@localhost.:a/b', 'localhost'],
    ['git@10.0.0.5:a/b.git', 'private'],
  ])('refuses %s as a non-public host (%s)', (url, words) => {
    const r = refusal(checkRepoUrl(url, strict));
    expect(r.problem).toBe('private_host');
    expect(r.message).toContain(words);
  });

  it('accepts private hosts only when private networks are allowed: file repositories do not imply it', () => {
    expect(checkRepoUrl('https://0x7f.1/a', { allowFileRepos: false, allowPrivateNetwork: true })).toMatchObject({ ok: true, host: '127.0.0.1', gitUrl: 'https://127.0.0.1/a' });
    expect(checkRepoUrl('git@10.0.0.5:a/b', { allowFileRepos: false, allowPrivateNetwork: true })).toMatchObject({ ok: true });
    expect(checkRepoUrl('file:///srv/repo', local)).toMatchObject({ ok: true, kind: 'file' });
    const refused = refusal(checkRepoUrl('https://127.0.0.1/a', local));
    expect(refused).toMatchObject({ problem: 'private_host' });
    expect(refused.message).toContain('QUIRE_ALLOW_PRIVATE_NETWORK=1');
    expect(refusal(checkRepoUrl('file:///srv/repo', { allowFileRepos: false, allowPrivateNetwork: true })).problem).toBe('local_repo');
  });

  it('hands git the URL the parser read, so git connects to the host that was classified', () => {
    expect(checkRepoUrl('https://github.com/a/b.git', strict)).toMatchObject({ gitUrl: 'https://github.com/a/b.git' });
    expect(checkRepoUrl('HTTPS://GitHub.com/a', strict)).toMatchObject({ gitUrl: 'https://github.com/a' });
  });

  it.each([
    ['ext::sh%20-c%20id', 'ext'],
    ['ext::ssh', 'ext'],
    ['fd::17', 'fd'],
    ['ftp://example.com/a', 'ftp'],
    ['git://github.com/a/b', 'git'],
    ['ssh+git://github.com/a/b', 'ssh+git'],
  ])('refuses %s naming its transport', (url, transport) => {
    const r = refusal(checkRepoUrl(url, local));
    expect(r.problem).toBe('transport');
    expect(r.message).toContain(`"${transport}`);
  });

  it('refuses http:// unless file repositories are allowed', () => {
    expect(refusal(checkRepoUrl('http://github.com/a/b', strict)).problem).toBe('transport');
    expect(checkRepoUrl('http://127.0.0.1:9/x', everything)).toMatchObject({ ok: true, kind: 'http' });
    expect(checkRepoUrl('http://git.example.com/x', local)).toMatchObject({ ok: true, kind: 'http' });
  });

  it('refuses file:// URLs and paths unless file repositories are allowed', () => {
    for (const url of ['file:///etc', '/srv/repo']) {
      expect(refusal(checkRepoUrl(url, strict)).message).toContain('QUIRE_ALLOW_FILE_REPOS=1');
    }
    expect(checkRepoUrl('/srv/repo', local)).toEqual({ ok: true, kind: 'path', gitUrl: '/srv/repo', host: null });
    expect(checkRepoUrl('file:///srv/repo', local)).toEqual({ ok: true, kind: 'file', gitUrl: 'file:///srv/repo', host: null });
  });

  it.each([
    ['--upload-pack=touch%20x', 'option_like'],
    ['-uhttps://x', 'option_like'],
    ['ssh://-oProxyCommand=touch%20x/y', 'option_like'],
    ['ssh://-oProxyCommand@github.com/y', 'option_like'],
    ['ssh://%2doProxyCommand@github.com/y', 'option_like'],
    ['git@-oProxyCommand=x:y', 'option_like'],
    ['-oProxyCommand=x@github.com:y', 'option_like'],
    ['git@github.com:-y', 'option_like'],
    ['https://user:pw@github.com/a/b', 'password'],
    ['https://github.com/a b', 'malformed'],
    ['https://github.com/a\tb', 'malformed'],
    ['https://github.com/a\u0000b', 'malformed'],
    ['https://evil.example\\@127.0.0.1/a', 'malformed'],
    ['ssh://git@%31%32%37.0.0.1/a', 'malformed'],
    ['git@1.2.3.08:a/b', 'malformed'],
    ['relative/path', 'malformed'],
    ['', 'malformed'],
    [`https://github.com/${'a'.repeat(2048)}`, 'too_long'],
  ])('refuses %j (%s)', (url, problem) => {
    expect(refusal(checkRepoUrl(url, local)).problem).toBe(problem);
  });
});
