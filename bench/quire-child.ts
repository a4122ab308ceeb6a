/**
 * One Quire measurement, run as its own process by build.ts so that peak RSS is this build's alone.
 * Usage: tsx quire-child.ts <repoDir> <dataDir> [--rebuild <file path in repo>]
 * Builds <repoDir> (a git repository) cold into <dataDir>; with --rebuild, then appends a line to
 * that file, commits, and rebuilds in the same process (as the long-running server would).
 * Prints one JSON line: { coldMs, rebuildMs?, pages, fromCache?, warnings, maxRssMb }.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { runBuild } from '../server/src/builder/pipeline';
import { closeRenderPool } from '../server/src/builder/render-pool';

const [repoDir, dataDir, flag, rebuildFile] = process.argv.slice(2);
if (!repoDir || !dataDir) throw new Error('usage: quire-child.ts <repoDir> <dataDir> [--rebuild <file>]');

let lastLog = '';
const build = async (buildId: string) => {
  const started = performance.now();
  const result = await runBuild({
    projectId: 'prj_bench',
    buildId,
    repoUrl: repoDir,
    branch: 'main',
    allowFileRepos: true,
    dataDir,
    siteUrl: 'http://bench-docs.localhost:4000',
    signal: new AbortController().signal,
    log: (line) => {
      if (line.startsWith('✓ rendering')) lastLog = line;
      if (process.env.BENCH_VERBOSE && !line.startsWith('warning')) console.error(`  ${line}`);
    },
  });
  return { ms: Math.round(performance.now() - started), result, renderLine: lastLog };
};

const cold = await build('bld_cold');
const out: Record<string, unknown> = { coldMs: cold.ms, pages: cold.result.pages, warnings: cold.result.warnings.length };
if (flag === '--rebuild' && rebuildFile) {
  fs.appendFileSync(path.join(repoDir, rebuildFile), '\n\nOne more paragraph, changed for the rebuild benchmark.\n');
  const git = (args: string[]) => execFileSync('git', args, { cwd: repoDir, stdio: 'ignore', env: { ...process.env, GIT_AUTHOR_NAME: 'b', GIT_AUTHOR_EMAIL: 'b@b', GIT_COMMITTER_NAME: 'b', GIT_COMMITTER_EMAIL: 'b@b' } });
  git(['add', '--all']);
  git(['commit', '-q', '-m', 'one-page change']);
  const again = await build('bld_rebuild');
  out.rebuildMs = again.ms;
  out.rebuildRender = again.renderLine;
}
await closeRenderPool();
out.maxRssMb = Math.round(process.resourceUsage().maxRSS / 1024);
console.log(JSON.stringify(out));
