import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkBranchName, checkCommitSha, checkoutRef, checkRepoUrl, redactUrls } from '../../src/builder/git';
import { BuildError } from '../../src/builder/errors';
import { createFixtureRepo, type FixtureRepo } from '../helpers/git-repo';
import { startGitHttpsServer, type GitHttpsServer } from '../net/git-https-server';
import { scriptedResolver } from '../net/scripted-resolver';

const strict = { allowFileRepos: false, allowPrivateNetwork: false };
const local = { allowFileRepos: true, allowPrivateNetwork: false };

describe('repository URL and ref validation', () => {
  it('accepts https, ssh and scp-style URLs', () => {
    expect(checkRepoUrl('https://github.com/acme/docs.git', strict)).toBe('https://github.com/acme/docs.git');
    expect(checkRepoUrl('ssh://git@github.com/acme/docs.git', strict)).toBe('ssh://git@github.com/acme/docs.git');
    expect(checkRepoUrl('git@github.com:acme/docs.git', strict)).toBe('git@github.com:acme/docs.git');
  });

  it.each([
    ['file:///etc', 'QUIRE_ALLOW_FILE_REPOS'],
    ['/srv/repo', 'QUIRE_ALLOW_FILE_REPOS'],
    ['http://github.com/acme/docs', 'http://'],
    ['https://localhost/acme/docs', 'localhost'],
    ['https://[::ffff:127.0.0.1]/x', 'loopback'],
    ['https://0x7f.1/x', 'loopback'],
    ['git@0177.0.0.1:a/b', 'loopback'],
    ['https://169.254.169.254/latest', 'link-local'],
    ['ssh://-oProxyCommand=touch%20x/y', '"-"'],
    ['git@-oProxyCommand=x:y', '"-"'],
    ['relative/path', 'git can use'],
  ])('refuses %s with a BuildError saying why', (url, words) => {
    expect(() => checkRepoUrl(url, strict)).toThrow(BuildError);
    expect(() => checkRepoUrl(url, strict)).toThrow(words);
  });

  // No spaces in these, so only the transport rule can refuse them.
  it.each([
    ['ext::sh%20-c%20id', 'ext'],
    ['ext::ssh', 'ext'],
    ['ssh::github.com/acme/docs', 'ssh'],
  ])('refuses %s naming its transport, even with file repos allowed', (url, transport) => {
    expect(() => checkRepoUrl(url, local)).toThrow(new RegExp(`\\b${transport}\\b.*transport is not allowed`));
  });

  it('allows file URLs and absolute paths only when file repos are allowed', () => {
    expect(checkRepoUrl('/srv/repo', local)).toBe('file:///srv/repo');
    expect(checkRepoUrl('file:///srv/repo', local)).toBe('file:///srv/repo');
  });

  it('allows private hosts only when private networks are allowed, whatever the file repos setting', () => {
    expect(() => checkRepoUrl('https://10.0.0.5/acme/docs.git', local)).toThrow(/private address.*QUIRE_ALLOW_PRIVATE_NETWORK=1/);
    expect(checkRepoUrl('https://10.0.0.5/acme/docs.git', { allowFileRepos: false, allowPrivateNetwork: true })).toBe('https://10.0.0.5/acme/docs.git');
  });

  it('refuses bad branch names and commit ids with a BuildError naming the rule', () => {
    expect(() => checkBranchName('--upload-pack')).toThrow(BuildError);
    expect(() => checkBranchName('a..b')).toThrow('".."');
    expect(() => checkBranchName('main')).not.toThrow();
    expect(() => checkCommitSha('--upload-pack=touch')).toThrow(BuildError);
    expect(() => checkCommitSha('a'.repeat(40))).not.toThrow();
  });

  it('redacts credentials from URLs', () => {
    expect(redactUrls("could not read from 'https://user:s3cret@github.com/a/b'")).toBe("could not read from 'https://***@github.com/a/b'");
  });
});

describe('checkoutRef', () => {
  let repo: FixtureRepo;
  let first: string;
  let tmp: string;
  beforeAll(() => {
    repo = createFixtureRepo(undefined, { extraFiles: { 'docs.json': '{"name":"A"}', 'intro.md': '# One' }, message: 'First commit' });
    first = repo.headSha();
    repo.commit({ 'intro.md': '# Two', 'extra.md': '# Extra' }, 'Second commit\n\nWith a body.');
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-git-'));
  });
  afterAll(() => {
    repo.cleanup();
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  it('checks out the branch tip shallowly with its commit message', async () => {
    const cacheDir = path.join(tmp, 'by-branch');
    const co = await checkoutRef({ repoUrl: repo.url, branch: 'main', allowFileRepos: true, allowPrivateNetwork: false, cacheDir });
    expect(co.commitSha).toBe(repo.headSha());
    expect(co.commitMessage).toBe('Second commit\n\nWith a body.');
    expect(fs.readFileSync(path.join(co.dir, 'intro.md'), 'utf8')).toBe('# Two');
    expect(fs.existsSync(path.join(co.dir, '.git', 'shallow'))).toBe(true);
  });

  it('checks out a given commit into the same cache, removing files it does not have', async () => {
    const cacheDir = path.join(tmp, 'reuse');
    await checkoutRef({ repoUrl: repo.path, branch: 'main', allowFileRepos: true, allowPrivateNetwork: false, cacheDir });
    const co = await checkoutRef({ repoUrl: repo.path, branch: 'main', commitSha: first, allowFileRepos: true, allowPrivateNetwork: false, cacheDir });
    expect(co.commitSha).toBe(first);
    expect(co.commitMessage).toBe('First commit');
    expect(fs.readFileSync(path.join(co.dir, 'intro.md'), 'utf8')).toBe('# One');
    expect(fs.existsSync(path.join(co.dir, 'extra.md'))).toBe(false);
  });

  it('refuses a local repository unless file repos are allowed', async () => {
    await expect(checkoutRef({ repoUrl: repo.url, branch: 'main', allowFileRepos: false, allowPrivateNetwork: false, cacheDir: path.join(tmp, 'x') })).rejects.toThrow(
      /QUIRE_ALLOW_FILE_REPOS/,
    );
    expect(fs.existsSync(path.join(tmp, 'x'))).toBe(false);
  });

  it('follows the operator\'s insteadOf rewrite of an https URL to a local mirror, with file repos off', async () => {
    // decisions.md section 1: GIT_CONFIG_* can point https://github.com/... at a local mirror.
    const mirrorBase = `${path.dirname(repo.path)}/`;
    const saved = { count: process.env.GIT_CONFIG_COUNT, key: process.env.GIT_CONFIG_KEY_0, value: process.env.GIT_CONFIG_VALUE_0 };
    Object.assign(process.env, { GIT_CONFIG_COUNT: '1', GIT_CONFIG_KEY_0: `url.${mirrorBase}.insteadOf`, GIT_CONFIG_VALUE_0: 'https://github.com/' });
    try {
      const url = `https://github.com/${path.basename(repo.path)}`;
      // nothing is resolved: this machine may be offline (github.com does not resolve)
      const resolve = scriptedResolver([]);
      const co = await checkoutRef({ repoUrl: url, branch: 'main', allowFileRepos: false, allowPrivateNetwork: false, cacheDir: path.join(tmp, 'mirror'), resolve });
      expect(co.commitSha).toBe(repo.headSha());
      expect(resolve.calls).toEqual([]);
      await expect(checkoutRef({ repoUrl: repo.path, branch: 'main', allowFileRepos: false, allowPrivateNetwork: false, cacheDir: path.join(tmp, 'direct') })).rejects.toThrow(/QUIRE_ALLOW_FILE_REPOS/);
    } finally {
      for (const [k, v] of [['GIT_CONFIG_COUNT', saved.count], ['GIT_CONFIG_KEY_0', saved.key], ['GIT_CONFIG_VALUE_0', saved.value]] as const) {
        if (v === undefined) delete process.env[k];
        else process.env[k] = v;
      }
    }
  });

  it('fails with a clear message for a missing branch', async () => {
    await expect(checkoutRef({ repoUrl: repo.url, branch: 'nope', allowFileRepos: true, allowPrivateNetwork: false, cacheDir: path.join(tmp, 'y') })).rejects.toThrow(
      /git fetch failed: .*nope/,
    );
  });

  it('stops when the signal is aborted', async () => {
    const ac = new AbortController();
    ac.abort();
    await expect(
      checkoutRef({ repoUrl: repo.url, branch: 'main', allowFileRepos: true, allowPrivateNetwork: false, cacheDir: path.join(tmp, 'z'), signal: ac.signal }),
    ).rejects.toMatchObject({ name: 'AbortError' });
  });
});

describe('checkoutRef: the address policy when git connects', () => {
  let repo: FixtureRepo;
  let tmp: string;
  let server: GitHttpsServer;
  let repoName: string;
  beforeAll(async () => {
    repo = createFixtureRepo(undefined, { extraFiles: { 'docs.json': '{"name":"A"}' } });
    repoName = path.basename(repo.path);
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-git-pin-'));
    server = await startGitHttpsServer(path.dirname(repo.path));
    process.env.GIT_SSL_NO_VERIFY = '1';
  });
  afterAll(async () => {
    delete process.env.GIT_SSL_NO_VERIFY;
    await server.close();
    repo.cleanup();
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  it('resolves the host once and fetches from the address it checked, with the name kept for TLS and Host (DNS rebinding)', async () => {
    // the DNS answers 127.0.0.1 first and 127.0.0.2 afterwards, where another server listens
    const other = await startGitHttpsServer(path.dirname(repo.path), { address: '127.0.0.2', port: server.port });
    try {
      const resolve = scriptedResolver(['127.0.0.1'], ['127.0.0.2']);
      const before = server.requests.length;
      const url = `https://git.quire-test.invalid:${server.port}/${repoName}`;
      const co = await checkoutRef({ repoUrl: url, branch: 'main', allowFileRepos: false, allowPrivateNetwork: true, cacheDir: path.join(tmp, 'pinned'), resolve });
      expect(co.commitSha).toBe(repo.headSha());
      expect(resolve.calls).toEqual(['git.quire-test.invalid']);
      const seen = server.requests.slice(before);
      expect(seen.length).toBeGreaterThan(0);
      for (const r of seen) expect(r).toMatchObject({ host: `git.quire-test.invalid:${server.port}`, servername: 'git.quire-test.invalid', local: '127.0.0.1' });
      expect(other.requests).toEqual([]);
    } finally {
      await other.close();
    }
  });

  it('refuses a name that resolves to a private address before git connects, unless private networks are allowed', async () => {
    const before = server.requests.length;
    const url = `https://git.quire-test.invalid:${server.port}/${repoName}`;
    const err = await checkoutRef({ repoUrl: url, branch: 'main', allowFileRepos: true, allowPrivateNetwork: false, cacheDir: path.join(tmp, 'refused'), resolve: scriptedResolver(['127.0.0.1']) }).catch(
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(BuildError);
    expect((err as Error).message).toBe(
      'Repository URL refused: git.quire-test.invalid resolves to 127.0.0.1, a loopback address; loopback, private and link-local hosts are not allowed (QUIRE_ALLOW_PRIVATE_NETWORK=1 allows them).',
    );
    const mixed = scriptedResolver(['93.184.215.14', '10.0.0.5']);
    await expect(
      checkoutRef({ repoUrl: url, branch: 'main', commitSha: repo.headSha(), allowFileRepos: false, allowPrivateNetwork: false, cacheDir: path.join(tmp, 'refused'), resolve: mixed }),
    ).rejects.toThrow(/resolves to 10\.0\.0\.5, a private address/);
    expect(mixed.calls).toEqual(['git.quire-test.invalid']);
    expect(server.requests.length).toBe(before);
  });

  it('does not follow a redirect to another host', async () => {
    const redirecting = await startGitHttpsServer(path.dirname(repo.path), { redirectTo: `https://127.0.0.1:${server.port}` });
    try {
      const before = server.requests.length;
      const url = `https://git.quire-test.invalid:${redirecting.port}/${repoName}`;
      await expect(
        checkoutRef({ repoUrl: url, branch: 'main', allowFileRepos: false, allowPrivateNetwork: true, cacheDir: path.join(tmp, 'redirect'), resolve: scriptedResolver(['127.0.0.1']) }),
      ).rejects.toThrow(BuildError);
      expect(redirecting.requests.length).toBeGreaterThan(0);
      expect(server.requests.length).toBe(before);
    } finally {
      await redirecting.close();
    }
  });

  it('fails with a BuildError when the host does not resolve', async () => {
    await expect(
      checkoutRef({ repoUrl: 'https://quire-test.invalid/acme/docs.git', branch: 'main', allowFileRepos: false, allowPrivateNetwork: false, cacheDir: path.join(tmp, 'nxdomain') }),
    ).rejects.toThrow(new BuildError('git fetch failed: could not resolve quire-test.invalid (ENOTFOUND)'));
  });
});
