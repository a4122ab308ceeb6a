import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

/** A throwaway git repository made from a fixture directory (tests and e2e). */
export interface FixtureRepo {
  /** absolute path of the working tree (also usable as a repoUrl when file repos are allowed) */
  path: string;
  /** `file://` URL of the repository */
  url: string;
  /** the branch holding the commits (`main` unless told otherwise) */
  branch: string;
  /** SHA of the current HEAD commit */
  headSha(): string;
  /**
   * Writes the given files (path relative to the repo root → new text, or null to delete),
   * commits them on the branch and returns the new commit's SHA.
   */
  commit(changes: Record<string, string | Buffer | null>, message?: string): string;
  /** Deletes the repository directory. */
  cleanup(): void;
}

const GIT_ENV = {
  ...process.env,
  GIT_AUTHOR_NAME: 'Quire Tests',
  GIT_AUTHOR_EMAIL: 'tests@quire.local',
  GIT_COMMITTER_NAME: 'Quire Tests',
  GIT_COMMITTER_EMAIL: 'tests@quire.local',
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_TERMINAL_PROMPT: '0',
};

function git(cwd: string, args: string[]): string {
  return execFileSync('git', args, { cwd, env: GIT_ENV, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();
}

/**
 * Copies `sourceDir` (recursively, symlinks kept as links; may be omitted for an empty repo)
 * plus `extraFiles` into a new temporary git repository, commits everything once on `branch`
 * with `message`, and returns handles to it. Synchronous: fine for test setup.
 *
 * @example
 *   const repo = createFixtureRepo(path.join(CORPUS_DIR, 'pezzo'));
 *   runBuild({ repoUrl: repo.url, branch: repo.branch, allowFileRepos: true, ... });
 *   repo.commit({ 'docs/intro.mdx': '# Changed' }, 'edit intro');
 */
export function createFixtureRepo(
  sourceDir?: string,
  options: { branch?: string; message?: string; extraFiles?: Record<string, string | Buffer> } = {},
): FixtureRepo {
  const branch = options.branch ?? 'main';
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-repo-'));
  if (sourceDir) fs.cpSync(sourceDir, dir, { recursive: true, verbatimSymlinks: true });
  // Fixture sources may be read-only (the shared corpora): make the copy writable.
  makeWritable(dir);
  git(dir, ['init', '--quiet', `--initial-branch=${branch}`]);
  const writeAll = (changes: Record<string, string | Buffer | null>) => {
    for (const [rel, content] of Object.entries(changes)) {
      const abs = path.join(dir, rel);
      if (content === null) fs.rmSync(abs, { force: true, recursive: true });
      else {
        fs.mkdirSync(path.dirname(abs), { recursive: true });
        fs.writeFileSync(abs, content);
      }
    }
  };
  writeAll(options.extraFiles ?? {});
  git(dir, ['add', '--all']);
  git(dir, ['commit', '--quiet', '--allow-empty', '-m', options.message ?? 'Initial docs']);
  return {
    path: dir,
    url: pathToFileURL(dir).href,
    branch,
    headSha: () => git(dir, ['rev-parse', 'HEAD']),
    commit(changes, message = 'Update docs') {
      writeAll(changes);
      git(dir, ['add', '--all']);
      git(dir, ['commit', '--quiet', '--allow-empty', '-m', message]);
      return git(dir, ['rev-parse', 'HEAD']);
    },
    cleanup: () => fs.rmSync(dir, { recursive: true, force: true }),
  };
}

function makeWritable(dir: string): void {
  fs.chmodSync(dir, 0o755);
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const abs = path.join(dir, entry.name);
    if (entry.isSymbolicLink()) continue;
    if (entry.isDirectory()) makeWritable(abs);
    else fs.chmodSync(abs, 0o644);
  }
}
