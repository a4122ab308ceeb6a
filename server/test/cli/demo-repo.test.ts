/**
 * The demo's repository (`pnpm demo`): seeded once from the example docs, it takes pushes to its
 * checked-out branch (how a merged review lands) and later starts leave what was merged in place.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { syncDemoRepo } from '../../src/cli/demo-repo';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

function tempDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-demo-repo-'));
  dirs.push(dir);
  return dir;
}

const env = { ...process.env, GIT_AUTHOR_NAME: 'Writer', GIT_AUTHOR_EMAIL: 'w@example.com', GIT_COMMITTER_NAME: 'Writer', GIT_COMMITTER_EMAIL: 'w@example.com' };
const git = (cwd: string, ...args: string[]) => execFileSync('git', args, { cwd, env, stdio: 'pipe' }).toString().trim();

/** A small stand-in for examples/demo-docs. */
function exampleDocs(): string {
  const dir = tempDir();
  fs.writeFileSync(path.join(dir, 'docs.json'), '{"name":"Demo","navigation":{"pages":["index"]}}\n');
  fs.writeFileSync(path.join(dir, 'index.mdx'), '# Welcome\n');
  return dir;
}

/** Clones the demo repository, commits `index.mdx` with `text` and pushes it to `main`. */
function pushEdit(repo: string, text: string): string {
  const clone = path.join(tempDir(), 'clone');
  git(path.dirname(clone), 'clone', '-q', repo, clone);
  fs.writeFileSync(path.join(clone, 'index.mdx'), text);
  git(clone, 'commit', '-qam', 'Merged review');
  git(clone, 'push', '-q', 'origin', 'HEAD:main');
  return git(clone, 'rev-parse', 'HEAD');
}

describe('the demo repository', () => {
  it('is seeded once from the example docs in one commit on main', () => {
    const { repo, changed } = syncDemoRepo(tempDir(), exampleDocs());
    expect(changed).toBe(true);
    expect(git(repo, 'rev-parse', '--abbrev-ref', 'HEAD')).toBe('main');
    expect(git(repo, 'rev-list', '--count', 'HEAD')).toBe('1');
    expect(fs.readFileSync(path.join(repo, 'index.mdx'), 'utf8')).toBe('# Welcome\n');
  });

  it('accepts a push to its checked-out branch and updates its files', () => {
    const { repo } = syncDemoRepo(tempDir(), exampleDocs());
    const pushed = pushEdit(repo, '# Welcome, merged\n');
    expect(git(repo, 'rev-parse', 'HEAD')).toBe(pushed);
    expect(fs.readFileSync(path.join(repo, 'index.mdx'), 'utf8')).toBe('# Welcome, merged\n');
  });

  it('keeps merged work and its history on the next start', () => {
    const dataDir = tempDir();
    const docs = exampleDocs();
    const { repo } = syncDemoRepo(dataDir, docs);
    const pushed = pushEdit(repo, '# Welcome, merged\n');
    const again = syncDemoRepo(dataDir, docs);
    expect(again.changed).toBe(false);
    expect(git(repo, 'rev-parse', 'HEAD')).toBe(pushed);
    expect(git(repo, 'rev-list', '--count', 'HEAD')).toBe('2');
    expect(fs.readFileSync(path.join(repo, 'index.mdx'), 'utf8')).toBe('# Welcome, merged\n');
  });

  it('opens a repository seeded by an earlier version to pushes', () => {
    const dataDir = tempDir();
    const { repo } = syncDemoRepo(dataDir, exampleDocs());
    git(repo, 'config', '--unset', 'receive.denyCurrentBranch');
    syncDemoRepo(dataDir, exampleDocs());
    expect(git(repo, 'config', 'receive.denyCurrentBranch')).toBe('updateInstead');
  });
});
