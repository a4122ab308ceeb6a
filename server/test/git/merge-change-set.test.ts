/**
 * Merging a change set into a branch of a local bare repository (decisions.md section 9): clean
 * merges pushed with the author, merges onto a branch that moved, conflicts that push nothing, and
 * the retry when the branch moves between fetch and push.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AppContext } from '../../src/context';
import { loadConfig } from '../../src/env';
import { mergeChangeSet, mergeText, MERGE_COMMITTER, type MergeChangeSetInput } from '../../src/git/merge-change-set';
import { scriptedResolver } from '../net/scripted-resolver';
import { KeyedLock } from '../../src/ops/keyed-lock';

const ENV = { ...process.env, GIT_AUTHOR_NAME: 'Upstream', GIT_AUTHOR_EMAIL: 'up@x.test', GIT_COMMITTER_NAME: 'Upstream', GIT_COMMITTER_EMAIL: 'up@x.test', GIT_CONFIG_NOSYSTEM: '1' };
const git = (cwd: string, ...args: string[]) => execFileSync('git', args, { cwd, env: ENV, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();

const roots: string[] = [];
afterAll(() => roots.forEach((d) => fs.rmSync(d, { recursive: true, force: true })));

const GUIDE = ['# Guide', '', 'Line one.', 'Line two.', 'Line three.', 'Line four.', 'Line five.', 'Line six.', 'Line seven.', ''].join('\n');

/** A bare repository (the "remote") with one commit on main, and a working clone to move it. */
function setup() {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-merge-'));
  roots.push(root);
  const seed = path.join(root, 'seed');
  fs.mkdirSync(path.join(seed, 'docs'), { recursive: true });
  fs.writeFileSync(path.join(seed, 'docs', 'guide.md'), GUIDE);
  fs.writeFileSync(path.join(seed, 'docs', 'intro.md'), '# Intro\n');
  fs.writeFileSync(path.join(seed, 'docs.json'), '{"name":"Docs"}\n');
  git(seed, 'init', '--quiet', '--initial-branch=main');
  git(seed, 'add', '--all');
  git(seed, 'commit', '--quiet', '-m', 'Initial');
  const bare = path.join(root, 'remote.git');
  git(root, 'clone', '--quiet', '--bare', seed, bare);
  const work = path.join(root, 'work');
  git(root, 'clone', '--quiet', bare, work);
  const dataDir = path.join(root, 'data');
  const ctx = { config: loadConfig({ QUIRE_DATA_DIR: dataDir, QUIRE_ALLOW_FILE_REPOS: '1', QUIRE_LOG_LEVEL: 'silent' }), locks: new KeyedLock() } as AppContext;
  return {
    ctx,
    dataDir,
    bare,
    url: pathToFileURL(bare).href,
    base: git(bare, 'rev-parse', 'main'),
    head: () => git(bare, 'rev-parse', 'main'),
    show: (ref: string, file: string) => git(bare, 'show', `${ref}:${file}`),
    /** commits `changes` in the working clone and pushes them to the remote's main */
    upstream(changes: Record<string, string | Buffer | null>, message = 'Upstream edit') {
      git(work, 'pull', '--quiet', '--ff-only');
      for (const [rel, content] of Object.entries(changes)) {
        const abs = path.join(work, rel);
        if (content === null) fs.rmSync(abs);
        else {
          fs.mkdirSync(path.dirname(abs), { recursive: true });
          fs.writeFileSync(abs, content);
        }
      }
      git(work, 'add', '--all');
      git(work, 'commit', '--quiet', '-m', message);
      git(work, 'push', '--quiet', 'origin', 'main');
      return git(work, 'rev-parse', 'HEAD');
    },
  };
}

type Repo = ReturnType<typeof setup>;

const input = (r: Repo, changes: MergeChangeSetInput['changes'], extra: Partial<MergeChangeSetInput> = {}): MergeChangeSetInput => ({
  ctx: r.ctx,
  projectId: 'prj_merge',
  repoUrl: r.url,
  branch: 'main',
  baseCommit: r.base,
  changes,
  author: { name: 'Ada Writer', email: 'ada@example.com' },
  message: 'Update the guide\n\nReview rev_1',
  credential: null,
  ...extra,
});

describe('mergeChangeSet', () => {
  let r: Repo;
  beforeEach(() => {
    r = setup();
  });
  afterEach(() => {
    // the scratch clone is removed whatever happened
    expect(fs.readdirSync(path.join(r.dataDir, 'git-merge'))).toEqual([]);
  });

  it('pushes a clean merge: the commit is on the branch with the author, Quire as committer, and the content', async () => {
    const result = await mergeChangeSet(
      input(r, [
        { path: 'docs/intro.md', content: '# Intro\n\nNew text.\n' },
        { path: 'docs/new/page.md', content: '# New page\n' },
        { path: 'docs.json', content: null },
      ]),
    );
    expect(result.status).toBe('merged');
    const sha = (result as { commitSha: string }).commitSha;
    expect(r.head()).toBe(sha);
    expect(git(r.bare, 'log', '-1', '--format=%an|%ae|%cn|%ce|%P', sha)).toBe(`Ada Writer|ada@example.com|${MERGE_COMMITTER.name}|${MERGE_COMMITTER.email}|${r.base}`);
    expect(git(r.bare, 'log', '-1', '--format=%B', sha)).toBe('Update the guide\n\nReview rev_1');
    expect(r.show(sha, 'docs/intro.md')).toBe('# Intro\n\nNew text.');
    expect(r.show(sha, 'docs/new/page.md')).toBe('# New page');
    expect(git(r.bare, 'ls-tree', '-r', '--name-only', sha)).toBe('docs/guide.md\ndocs/intro.md\ndocs/new/page.md');
  });

  it('merges cleanly when the branch changed other lines of the same file and other files', async () => {
    const moved = r.upstream({ 'docs/guide.md': GUIDE.replace('Line one.', 'Line one, edited upstream.'), 'docs/other.md': 'other\n' });
    const result = await mergeChangeSet(input(r, [{ path: 'docs/guide.md', content: GUIDE.replace('Line seven.', 'Line seven, edited in review.') }]));
    expect(result.status).toBe('merged');
    const sha = (result as { commitSha: string }).commitSha;
    expect(git(r.bare, 'rev-parse', `${sha}^`)).toBe(moved);
    const guide = r.show(sha, 'docs/guide.md');
    expect(guide).toContain('Line one, edited upstream.');
    expect(guide).toContain('Line seven, edited in review.');
    expect(r.show(sha, 'docs/other.md')).toBe('other');
  });

  it('accepts a change the branch already made the same way, pushing nothing new', async () => {
    const moved = r.upstream({ 'docs/intro.md': '# Intro v2\n' });
    const result = await mergeChangeSet(input(r, [{ path: 'docs/intro.md', content: '# Intro v2\n' }]));
    expect(result).toEqual({ status: 'merged', commitSha: moved });
    expect(r.head()).toBe(moved);
  });

  it('writes base64 changes byte for byte, and takes a binary file the branch changed the same way', async () => {
    const image = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0xff, 0x00, 0x10]);
    const same = Buffer.from([0x47, 0x49, 0x46, 0x00, 0x01]);
    r.upstream({ 'img/same.gif': same });
    const result = await mergeChangeSet(
      input(r, [
        { path: 'img/new.png', content: image.toString('base64'), encoding: 'base64' },
        { path: 'img/same.gif', content: same.toString('base64'), encoding: 'base64' },
      ]),
    );
    expect(result.status).toBe('merged');
    const sha = (result as { commitSha: string }).commitSha;
    const blob = (file: string) => execFileSync('git', ['cat-file', 'blob', `${sha}:${file}`], { cwd: r.bare });
    expect(blob('img/new.png').equals(image)).toBe(true);
    expect(blob('img/same.gif').equals(same)).toBe(true);
  });

  it('never merges a binary file by lines: a change to a file both sides changed, where one version is binary, conflicts', async () => {
    const moved = r.upstream({ 'docs/intro.md': Buffer.from([0x23, 0x20, 0x00, 0x0a, 0xff, 0x0a]) });
    const asText = await mergeChangeSet(input(r, [{ path: 'docs/intro.md', content: '# Intro\n\nMore.\n' }]));
    expect(asText).toEqual({ status: 'conflict', paths: ['docs/intro.md'] });
    const asBytes = await mergeChangeSet(input(r, [{ path: 'docs/intro.md', content: Buffer.from('# Intro\n\nMore.\n').toString('base64'), encoding: 'base64' }]));
    expect(asBytes).toEqual({ status: 'conflict', paths: ['docs/intro.md'] });
    expect(r.head()).toBe(moved);
  });

  it('answers a conflict with the path when both changed the same lines, and pushes nothing', async () => {
    const moved = r.upstream({ 'docs/guide.md': GUIDE.replace('Line four.', 'Line four by upstream.') });
    const result = await mergeChangeSet(
      input(r, [
        { path: 'docs/guide.md', content: GUIDE.replace('Line four.', 'Line four by review.') },
        { path: 'docs/intro.md', content: '# Fine\n' },
      ]),
    );
    expect(result).toEqual({ status: 'conflict', paths: ['docs/guide.md'] });
    expect(r.head()).toBe(moved);
  });

  it('answers delete-versus-modify and add-versus-add conflicts', async () => {
    const moved = r.upstream({ 'docs/intro.md': '# Intro changed upstream\n', 'docs/added.md': 'upstream version\n' });
    const result = await mergeChangeSet(
      input(r, [
        { path: 'docs/intro.md', content: null },
        { path: 'docs/added.md', content: 'review version\n' },
      ]),
    );
    expect(result).toEqual({ status: 'conflict', paths: ['docs/added.md', 'docs/intro.md'] });
    expect(r.head()).toBe(moved);
    // and the other way round: the branch deleted what the change set modified
    const gone = r.upstream({ 'docs/guide.md': null });
    const other = await mergeChangeSet(input(r, [{ path: 'docs/guide.md', content: `${GUIDE}more\n` }]));
    expect(other).toEqual({ status: 'conflict', paths: ['docs/guide.md'] });
    expect(r.head()).toBe(gone);
  });

  it('merges again on the new head when the branch moves between fetch and push', async () => {
    let moved = '';
    const result = await mergeChangeSet(
      input(r, [{ path: 'docs/intro.md', content: '# Intro from review\n' }], {
        beforePush: (attempt) => {
          if (attempt === 1) moved = r.upstream({ 'docs/race.md': 'pushed meanwhile\n' });
        },
      }),
    );
    expect(result.status).toBe('merged');
    const sha = (result as { commitSha: string }).commitSha;
    expect(r.head()).toBe(sha);
    expect(git(r.bare, 'rev-parse', `${sha}^`)).toBe(moved);
    expect(r.show(sha, 'docs/race.md')).toBe('pushed meanwhile');
    expect(r.show(sha, 'docs/intro.md')).toBe('# Intro from review');
  });

  it('gives up with 409 when the branch keeps moving, never force-pushing', async () => {
    let last = '';
    const err = await mergeChangeSet(
      input(r, [{ path: 'docs/intro.md', content: '# Intro from review\n' }], {
        beforePush: (attempt) => {
          last = r.upstream({ [`docs/race-${attempt}.md`]: 'meanwhile\n' });
        },
      }),
    ).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'conflict', message: expect.stringContaining('kept moving') });
    expect(r.head()).toBe(last);
  });

  it('refuses an unknown branch and an unknown base commit with clear 400s', async () => {
    await expect(mergeChangeSet(input(r, [{ path: 'a.md', content: 'a' }], { branch: 'nope' }))).rejects.toMatchObject({
      code: 'invalid_request',
      message: 'Branch "nope" was not found in the repository.',
    });
    await expect(mergeChangeSet(input(r, [{ path: 'a.md', content: 'a' }], { baseCommit: 'a'.repeat(40) }))).rejects.toMatchObject({
      code: 'invalid_request',
      details: { field: 'baseCommit' },
    });
  });

  it('refuses a local repository unless file repos are allowed', async () => {
    const ctx = { config: loadConfig({ QUIRE_DATA_DIR: r.dataDir, QUIRE_LOG_LEVEL: 'silent' }), locks: new KeyedLock() } as AppContext;
    fs.mkdirSync(path.join(r.dataDir, 'git-merge'), { recursive: true });
    await expect(mergeChangeSet(input(r, [{ path: 'a.md', content: 'a' }], { ctx }))).rejects.toMatchObject({ code: 'invalid_request', details: { field: 'repoUrl' } });
  });
});

describe('mergeChangeSet and the address policy', () => {
  /** Runs `fn` with the operator's `GIT_CONFIG_*` entries set in the process environment. */
  async function withOperatorConfig<T>(entries: Array<[string, string]>, fn: () => Promise<T>): Promise<T> {
    const saved = { ...process.env };
    process.env.GIT_CONFIG_COUNT = String(entries.length);
    entries.forEach(([key, value], i) => {
      process.env[`GIT_CONFIG_KEY_${i}`] = key;
      process.env[`GIT_CONFIG_VALUE_${i}`] = value;
    });
    try {
      return await fn();
    } finally {
      for (const k of Object.keys(process.env)) if (/^GIT_CONFIG_(COUNT|KEY_|VALUE_)/.test(k) && !(k in saved)) delete process.env[k];
      Object.assign(process.env, saved);
    }
  }

  it("fetches through the operator's insteadOf and pushes through pushInsteadOf to local mirrors, with file repos off and nothing resolved", async () => {
    const r = setup();
    const root = path.dirname(r.bare);
    const pushMirror = path.join(root, 'push-mirror');
    fs.mkdirSync(pushMirror);
    git(root, 'clone', '--quiet', '--bare', r.bare, path.join(pushMirror, 'remote.git'));
    const ctx = { config: loadConfig({ QUIRE_DATA_DIR: r.dataDir, QUIRE_LOG_LEVEL: 'silent' }), locks: new KeyedLock() } as AppContext;
    const resolve = scriptedResolver([]);
    const result = await withOperatorConfig(
      [
        [`url.${root}/.insteadOf`, 'https://github.com/acme/'],
        [`url.${pushMirror}/.pushInsteadOf`, 'https://github.com/acme/'],
      ],
      () => mergeChangeSet(input(r, [{ path: 'docs/intro.md', content: '# Intro\n\nMerged.\n' }], { ctx, repoUrl: 'https://github.com/acme/remote.git', resolve })),
    );
    expect(result.status).toBe('merged');
    const pushed = (result as { commitSha: string }).commitSha;
    expect(git(path.join(pushMirror, 'remote.git'), 'rev-parse', 'main')).toBe(pushed);
    expect(r.head()).toBe(r.base);
    expect(resolve.calls).toEqual([]);
    expect(fs.readdirSync(path.join(r.dataDir, 'git-merge'))).toEqual([]);
  });

  it('checks the host a push goes to on its own: a pushInsteadOf to a private address is refused, nothing pushed', async () => {
    const r = setup();
    const root = path.dirname(r.bare);
    const ctx = { config: loadConfig({ QUIRE_DATA_DIR: r.dataDir, QUIRE_LOG_LEVEL: 'silent' }), locks: new KeyedLock() } as AppContext;
    const resolve = scriptedResolver(['10.0.0.5']);
    const err = await withOperatorConfig(
      [
        [`url.${root}/.insteadOf`, 'https://github.com/acme/'],
        ['url.https://push.quire-test.invalid/.pushInsteadOf', 'https://github.com/acme/'],
      ],
      () => mergeChangeSet(input(r, [{ path: 'docs/intro.md', content: '# Intro\n\nMerged.\n' }], { ctx, repoUrl: 'https://github.com/acme/remote.git', resolve })).catch((e: unknown) => e),
    );
    expect(err).toMatchObject({
      code: 'invalid_request',
      message: "The project's repository URL is refused: push.quire-test.invalid resolves to 10.0.0.5, a private address; loopback, private and link-local hosts are not allowed (QUIRE_ALLOW_PRIVATE_NETWORK=1 allows them).",
      details: { field: 'repoUrl' },
    });
    expect(resolve.calls).toEqual(['push.quire-test.invalid']);
    expect(r.head()).toBe(r.base);
  });

  it('refuses a repository whose host resolves to a loopback address before fetching', async () => {
    const r = setup();
    const ctx = { config: loadConfig({ QUIRE_DATA_DIR: r.dataDir, QUIRE_LOG_LEVEL: 'silent' }), locks: new KeyedLock() } as AppContext;
    const resolve = scriptedResolver(['127.0.0.1']);
    await expect(mergeChangeSet(input(r, [{ path: 'a.md', content: 'a' }], { ctx, repoUrl: 'https://git.quire-test.invalid/acme/docs.git', resolve }))).rejects.toMatchObject({
      code: 'invalid_request',
      details: { field: 'repoUrl', issue: expect.stringContaining('git.quire-test.invalid resolves to 127.0.0.1, a loopback address') },
    });
    expect(resolve.calls).toEqual(['git.quire-test.invalid']);
  });
});

describe('mergeText', () => {
  it('merges changes on distant lines and refuses overlapping ones', () => {
    const base = 'a\nb\nc\nd\ne\nf\n';
    expect(mergeText('A\nb\nc\nd\ne\nf\n', base, 'a\nb\nc\nd\ne\nF\n')).toBe('A\nb\nc\nd\ne\nF\n');
    expect(mergeText('a\nB1\nc\nd\ne\nf\n', base, 'a\nB2\nc\nd\ne\nf\n')).toBeNull();
    expect(mergeText('a\nX\nc\nd\ne\nf\n', base, 'a\nX\nc\nd\ne\nf\n')).toBe('a\nX\nc\nd\ne\nf\n');
  });
});
