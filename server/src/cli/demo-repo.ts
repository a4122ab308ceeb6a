/**
 * The demo's git repository (`pnpm demo`, cli/demo.ts): seeded once from the example docs this
 * repository ships, then left to the merges that land in it.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { dataPaths } from '../data-paths';

/** The example docs this repository ships; the demo site is built from them. */
export const DEMO_DOCS_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../examples/demo-docs');
const GIT_ENV = {
  GIT_AUTHOR_NAME: 'Quire demo',
  GIT_AUTHOR_EMAIL: 'demo@quire.local',
  GIT_COMMITTER_NAME: 'Quire demo',
  GIT_COMMITTER_EMAIL: 'demo@quire.local',
};

/**
 * The demo's git repository at `<dataDir>/demo-repo`: on the first start, a new repository holding
 * `examples/demo-docs` in one commit on `main`; on every later start it is left exactly as it is
 * (what was merged into it, from the API or Quire Desktop, stays: history is never rewritten), so
 * deleting that folder is the way to start the demo afresh. The repository accepts pushes to its
 * checked-out branch (`receive.denyCurrentBranch=updateInstead`: git updates its files with the
 * push), which is how a merged review reaches it.
 * @returns the repository path and whether this call created it.
 * @throws Error when git fails (not installed, or the folder is not a repository git can read).
 */
export function syncDemoRepo(dataDir: string, sourceDir = DEMO_DOCS_DIR): { repo: string; changed: boolean } {
  const repo = dataPaths(dataDir).demoRepo;
  const git = (...args: string[]) => execFileSync('git', args, { cwd: repo, env: { ...process.env, ...GIT_ENV }, stdio: 'pipe' }).toString();
  const seeded = fs.existsSync(path.join(repo, '.git'));
  if (!seeded) {
    fs.mkdirSync(repo, { recursive: true });
    git('init', '-q', '-b', 'main');
    fs.cpSync(sourceDir, repo, { recursive: true });
    git('add', '-A');
    git('commit', '-q', '-m', 'The Quire demo docs');
  }
  // Set on every start: repositories seeded by earlier versions refused pushes to `main`.
  git('config', 'receive.denyCurrentBranch', 'updateInstead');
  return { repo, changed: !seeded };
}
