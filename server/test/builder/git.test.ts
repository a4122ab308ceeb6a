import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkBranchName, checkCommitSha, checkoutRef, checkRepoUrl, redactUrls } from '../../src/builder/git';
import { BuildError } from '../../src/builder/errors';
import { createFixtureRepo, type FixtureRepo } from '../helpers/git-repo';

describe('repository URL and ref validation', () => {
  it('accepts https, ssh and scp-style URLs', () => {
    expect(checkRepoUrl('https://github.com/acme/docs.git', false)).toBe('https://github.com/acme/docs.git');
    expect(checkRepoUrl('ssh://git@github.com/acme/docs.git', false)).toBe('ssh://git@github.com/acme/docs.git');
    expect(checkRepoUrl('git@github.com:acme/docs.git', false)).toBe('git@github.com:acme/docs.git');
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
    expect(() => checkRepoUrl(url, false)).toThrow(BuildError);
    expect(() => checkRepoUrl(url, false)).toThrow(words);
  });

  // No spaces in these, so only the transport rule can refuse them.
  it.each([
    ['ext::sh%20-c%20id', 'ext'],
    ['ext::ssh', 'ext'],
    ['ssh::github.com/acme/docs', 'ssh'],
  ])('refuses %s naming its transport, even with file repos allowed', (url, transport) => {
    expect(() => checkRepoUrl(url, true)).toThrow(new RegExp(`\\b${transport}\\b.*transport is not allowed`));
  });

  it('allows file URLs and absolute paths only when file repos are allowed', () => {
    expect(checkRepoUrl('/srv/repo', true)).toBe('file:///srv/repo');
    expect(checkRepoUrl('file:///srv/repo', true)).toBe('file:///srv/repo');
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
    const co = await checkoutRef({ repoUrl: repo.url, branch: 'main', allowFileRepos: true, cacheDir });
    expect(co.commitSha).toBe(repo.headSha());
    expect(co.commitMessage).toBe('Second commit\n\nWith a body.');
    expect(fs.readFileSync(path.join(co.dir, 'intro.md'), 'utf8')).toBe('# Two');
    expect(fs.existsSync(path.join(co.dir, '.git', 'shallow'))).toBe(true);
  });

  it('checks out a given commit into the same cache, removing files it does not have', async () => {
    const cacheDir = path.join(tmp, 'reuse');
    await checkoutRef({ repoUrl: repo.path, branch: 'main', allowFileRepos: true, cacheDir });
    const co = await checkoutRef({ repoUrl: repo.path, branch: 'main', commitSha: first, allowFileRepos: true, cacheDir });
    expect(co.commitSha).toBe(first);
    expect(co.commitMessage).toBe('First commit');
    expect(fs.readFileSync(path.join(co.dir, 'intro.md'), 'utf8')).toBe('# One');
    expect(fs.existsSync(path.join(co.dir, 'extra.md'))).toBe(false);
  });

  it('refuses a local repository unless file repos are allowed', async () => {
    await expect(checkoutRef({ repoUrl: repo.url, branch: 'main', allowFileRepos: false, cacheDir: path.join(tmp, 'x') })).rejects.toThrow(
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
      const co = await checkoutRef({ repoUrl: url, branch: 'main', allowFileRepos: false, cacheDir: path.join(tmp, 'mirror') });
      expect(co.commitSha).toBe(repo.headSha());
      await expect(checkoutRef({ repoUrl: repo.path, branch: 'main', allowFileRepos: false, cacheDir: path.join(tmp, 'direct') })).rejects.toThrow(/QUIRE_ALLOW_FILE_REPOS/);
    } finally {
      for (const [k, v] of [['GIT_CONFIG_COUNT', saved.count], ['GIT_CONFIG_KEY_0', saved.key], ['GIT_CONFIG_VALUE_0', saved.value]] as const) {
        if (v === undefined) delete process.env[k];
        else process.env[k] = v;
      }
    }
  });

  it('fails with a clear message for a missing branch', async () => {
    await expect(checkoutRef({ repoUrl: repo.url, branch: 'nope', allowFileRepos: true, cacheDir: path.join(tmp, 'y') })).rejects.toThrow(
      /git fetch failed: .*nope/,
    );
  });

  it('stops when the signal is aborted', async () => {
    const ac = new AbortController();
    ac.abort();
    await expect(
      checkoutRef({ repoUrl: repo.url, branch: 'main', allowFileRepos: true, cacheDir: path.join(tmp, 'z'), signal: ac.signal }),
    ).rejects.toMatchObject({ name: 'AbortError' });
  });
});
