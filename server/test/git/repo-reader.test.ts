import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError } from '@quire/shared/errors';
import type { AppContext } from '../../src/context';
import { loadConfig } from '../../src/env';
import { changedPaths, lastChangedAt, listFiles, readFileAt, resolveRef, MAX_READ_BYTES, INITIAL_DEPTH } from '../../src/git/repo-reader';
import { createFixtureRepo, type FixtureRepo } from '../helpers/git-repo';
import { KeyedLock } from '../../src/ops/keyed-lock';

/** The reader needs only the configuration of the context. */
function contextFor(dataDir: string, allowFileRepos = true): AppContext {
  return { config: loadConfig({ QUIRE_DATA_DIR: dataDir, QUIRE_ALLOW_FILE_REPOS: allowFileRepos ? '1' : '0', QUIRE_LOG_LEVEL: 'silent' }), locks: new KeyedLock() } as AppContext;
}

/** Commits with a fixed committer date so last-changed dates are predictable. */
function commitAt(repo: FixtureRepo, date: string, changes: Record<string, string | null>, message = 'Update docs'): string {
  for (const [rel, content] of Object.entries(changes)) {
    const abs = path.join(repo.path, rel);
    if (content === null) fs.rmSync(abs, { force: true });
    else {
      fs.mkdirSync(path.dirname(abs), { recursive: true });
      fs.writeFileSync(abs, content);
    }
  }
  const env = { ...process.env, GIT_AUTHOR_NAME: 'T', GIT_AUTHOR_EMAIL: 't@x', GIT_COMMITTER_NAME: 'T', GIT_COMMITTER_EMAIL: 't@x', GIT_COMMITTER_DATE: date, GIT_AUTHOR_DATE: date };
  execFileSync('git', ['add', '--all'], { cwd: repo.path, env });
  execFileSync('git', ['commit', '--quiet', '--allow-empty', '-m', message], { cwd: repo.path, env });
  return repo.headSha();
}

describe('repository reader', () => {
  let repo: FixtureRepo;
  let tmp: string;
  let ctx: AppContext;
  let first: string;
  let second: string;
  let third: string;
  const project = () => ({ projectId: 'prj_reader', repoUrl: repo.url });

  beforeAll(() => {
    repo = createFixtureRepo(undefined, { extraFiles: { 'README.md': 'readme' } });
    first = commitAt(repo, '2024-01-01T10:00:00Z', { 'docs/intro.md': '# Intro\n', 'docs/guide.md': '# Guide\n', 'docs/old.md': 'old', 'my file.md': 'spaces' });
    second = commitAt(repo, '2024-03-01T10:00:00Z', { 'docs/intro.md': '# Intro v2\n', 'docs/new.md': '# New\n', 'docs/old.md': null });
    execFileSync('git', ['branch', 'feature/x', second], { cwd: repo.path });
    third = commitAt(repo, '2024-06-01T10:00:00Z', { 'docs/guide.md': '# Guide v2\n' });
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-reader-'));
    ctx = contextFor(tmp);
  });
  afterAll(() => {
    repo.cleanup();
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  it('resolves a branch to its head commit, a slash branch, and a full commit id to itself', async () => {
    expect(await resolveRef(ctx, project(), 'main')).toBe(third);
    expect(await resolveRef(ctx, project(), 'feature/x')).toBe(second);
    expect(await resolveRef(ctx, project(), first)).toBe(first);
    expect(await resolveRef(ctx, project(), first.toUpperCase())).toBe(first);
  });

  it('sees new commits on the next resolve', async () => {
    const extra = createFixtureRepo(undefined, { extraFiles: { 'a.md': 'a' } });
    try {
      const p = { projectId: 'prj_moving', repoUrl: extra.url };
      expect(await resolveRef(ctx, p, 'main')).toBe(extra.headSha());
      const next = extra.commit({ 'a.md': 'b' });
      expect(await resolveRef(ctx, p, 'main')).toBe(next);
      expect(await readFileAt(ctx, p, next, 'a.md')).toBe('b');
    } finally {
      extra.cleanup();
    }
  });

  it('refuses an unknown branch, an unknown commit and a malformed ref with clear 400s', async () => {
    const unknown = await resolveRef(ctx, project(), 'nope').catch((e: unknown) => e);
    expect(unknown).toBeInstanceOf(ApiError);
    expect(unknown).toMatchObject({ code: 'invalid_request', message: 'Branch "nope" was not found in the repository.', details: { field: 'ref' } });
    await expect(resolveRef(ctx, project(), 'f'.repeat(40))).rejects.toMatchObject({
      code: 'invalid_request',
      message: `Commit ${'f'.repeat(40)} was not found in the repository.`,
    });
    await expect(resolveRef(ctx, project(), '--upload-pack=touch')).rejects.toMatchObject({ code: 'invalid_request', details: { field: 'ref' } });
  });

  it('refuses a local repository unless file repos are allowed, and answers 503 for one that is not there', async () => {
    await expect(resolveRef(contextFor(tmp, false), project(), 'main')).rejects.toMatchObject({
      code: 'invalid_request',
      details: { field: 'repoUrl' },
      message: expect.stringContaining('QUIRE_ALLOW_FILE_REPOS'),
    });
    const gone = await resolveRef(ctx, { projectId: 'prj_gone', repoUrl: 'file:///nonexistent/quire-repo' }, 'main').catch((e: unknown) => e);
    expect(gone).toMatchObject({ code: 'service_unavailable', message: expect.stringContaining("The project's repository could not be read") });
  });

  it('never shows credentials of an https URL in its errors', async () => {
    // An unresolvable public-looking host: the fetch fails, the message must not carry the token.
    const err = await resolveRef(contextFor(tmp, false), { projectId: 'prj_cred', repoUrl: 'https://user:s3cret-token@quire-test.invalid/a.git' }, 'main').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect(JSON.stringify((err as ApiError).toEnvelope())).not.toContain('s3cret-token');
  });

  it('lists the files of a commit with their sizes, sorted', async () => {
    expect(await listFiles(ctx, project(), first)).toEqual([
      { path: 'README.md', size: 6 },
      { path: 'docs/guide.md', size: 8 },
      { path: 'docs/intro.md', size: 8 },
      { path: 'docs/old.md', size: 3 },
      { path: 'my file.md', size: 6 },
    ]);
    const atThird = (await listFiles(ctx, project(), third)).map((f) => f.path);
    expect(atThird).toEqual(['README.md', 'docs/guide.md', 'docs/intro.md', 'docs/new.md', 'my file.md']);
  });

  it('reads a file at a commit, null for a missing path or a folder, and refuses paths leaving the repository', async () => {
    expect(await readFileAt(ctx, project(), first, 'docs/intro.md')).toBe('# Intro\n');
    expect(await readFileAt(ctx, project(), third, 'docs/intro.md')).toBe('# Intro v2\n');
    expect(await readFileAt(ctx, project(), first, 'my file.md')).toBe('spaces');
    expect(await readFileAt(ctx, project(), third, 'docs/old.md')).toBeNull();
    expect(await readFileAt(ctx, project(), third, 'docs')).toBeNull();
    expect(await readFileAt(ctx, project(), third, 'docs/*.md')).toBeNull();
    await expect(readFileAt(ctx, project(), third, '../etc/passwd')).rejects.toMatchObject({ code: 'invalid_request', details: { field: 'path' } });
    await expect(readFileAt(ctx, project(), third, '/etc/passwd')).rejects.toMatchObject({ code: 'invalid_request', details: { field: 'path' } });
  });

  it('refuses to read a file over 5 MiB', async () => {
    const big = createFixtureRepo(undefined, { extraFiles: { 'big.txt': 'x'.repeat(MAX_READ_BYTES + 1), 'small.txt': 'ok' } });
    try {
      const p = { projectId: 'prj_big', repoUrl: big.url };
      const sha = await resolveRef(ctx, p, 'main');
      expect(await readFileAt(ctx, p, sha, 'small.txt')).toBe('ok');
      await expect(readFileAt(ctx, p, sha, 'big.txt')).rejects.toMatchObject({ code: 'payload_too_large', message: expect.stringContaining('5 MiB') });
    } finally {
      big.cleanup();
    }
  });

  it('lists the paths changed between two commits', async () => {
    expect(await changedPaths(ctx, project(), first, third)).toEqual([
      { path: 'docs/guide.md', change: 'modified' },
      { path: 'docs/intro.md', change: 'modified' },
      { path: 'docs/new.md', change: 'added' },
      { path: 'docs/old.md', change: 'deleted' },
    ]);
    expect(await changedPaths(ctx, project(), third, third)).toEqual([]);
  });

  it('gives when each path last changed, absent for paths never changed', async () => {
    const dates = await lastChangedAt(ctx, project(), third, ['docs/intro.md', 'docs/guide.md', 'docs/new.md', 'my file.md', 'docs/old.md', 'never.md']);
    expect(dates.get('docs/intro.md')?.toISOString()).toBe('2024-03-01T10:00:00.000Z');
    expect(dates.get('docs/guide.md')?.toISOString()).toBe('2024-06-01T10:00:00.000Z');
    expect(dates.get('docs/new.md')?.toISOString()).toBe('2024-03-01T10:00:00.000Z');
    expect(dates.get('my file.md')?.toISOString()).toBe('2024-01-01T10:00:00.000Z');
    expect(dates.get('docs/old.md')?.toISOString()).toBe('2024-03-01T10:00:00.000Z');
    expect(dates.has('never.md')).toBe(false);
    const atFirst = await lastChangedAt(ctx, project(), first, ['docs/intro.md']);
    expect(atFirst.get('docs/intro.md')?.toISOString()).toBe('2024-01-01T10:00:00.000Z');
  });

  it('deepens a shallow cache to find changes older than the first fetch', async () => {
    const deep = createFixtureRepo(undefined, { extraFiles: { 'a.md': 'a', 'b.md': 'b' } });
    try {
      commitAt(deep, '2020-05-05T00:00:00Z', { 'old.md': 'old' });
      // INITIAL_DEPTH + 5 commits changing b.md, in one git fast-import
      const stamp = `${Date.parse('2024-01-01T00:00:00Z') / 1000} +0000`;
      let stream = '';
      for (let i = 0; i < INITIAL_DEPTH + 5; i++) {
        const content = `b${i}`;
        stream += `commit refs/heads/main\ncommitter T <t@x> ${stamp}\ndata 1\nx\n${i === 0 ? 'from refs/heads/main^0\n' : ''}M 100644 inline b.md\ndata ${content.length}\n${content}\n\n`;
      }
      execFileSync('git', ['fast-import', '--quiet'], { cwd: deep.path, input: stream });
      const p = { projectId: 'prj_deep', repoUrl: deep.url };
      const head = await resolveRef(ctx, p, 'main');
      const dates = await lastChangedAt(ctx, p, head, ['old.md', 'b.md', 'missing.md']);
      expect(dates.get('old.md')?.toISOString()).toBe('2020-05-05T00:00:00.000Z');
      expect(dates.get('b.md')?.toISOString()).toBe('2024-01-01T00:00:00.000Z');
      expect(dates.has('missing.md')).toBe(false);
    } finally {
      deep.cleanup();
    }
  });
});
