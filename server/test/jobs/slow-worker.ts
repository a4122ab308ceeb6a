/**
 * A worker process for multi-process tests: `tsx test/jobs/slow-worker.ts` with the server's
 * environment (DATABASE_URL/QUIRE_DATA_DIR, REDIS_URL, QUIRE_QUEUE_PREFIX). It works build jobs
 * like `pnpm quire worker`, with a fake builder that takes `SLOW_BUILD_MS` (default 1500) and
 * appends `start|end <buildId> <projectId> <pid> <ms>` lines to `BUILD_TRACE` (one line per
 * event), then writes a one-page site. Stops on SIGTERM like the real worker.
 */
import fs from 'node:fs';
import path from 'node:path';
import { buildApp } from '../../src/app';
import { AbortError } from '../../src/builder/errors';
import type { RunBuildInput, RunBuildResult } from '../../src/builder/pipeline';
import { loadConfig } from '../../src/env';

const slowMs = Number(process.env.SLOW_BUILD_MS ?? 1500);
const trace = process.env.BUILD_TRACE!;
const note = (what: string, input: RunBuildInput) => fs.appendFileSync(trace, `${what} ${input.buildId} ${input.projectId} ${process.pid} ${Date.now()}\n`);

async function runBuild(input: RunBuildInput): Promise<RunBuildResult> {
  note('start', input);
  try {
    await new Promise<void>((resolve, reject) => {
      const t = setTimeout(resolve, slowMs);
      input.signal.addEventListener('abort', () => {
        clearTimeout(t);
        reject(new AbortError());
      }, { once: true });
    });
  } finally {
    note('end', input);
  }
  const outDir = path.join(input.dataDir, 'sites', input.projectId, input.buildId);
  fs.mkdirSync(outDir, { recursive: true });
  fs.writeFileSync(path.join(outDir, 'index.html'), `<h1>built by ${input.buildId} in ${process.pid}</h1>`);
  fs.writeFileSync(
    path.join(outDir, 'manifest.json'),
    JSON.stringify({ version: 1, buildId: input.buildId, projectId: input.projectId, createdAt: new Date().toISOString(), home: 'index', pages: [{ path: 'index', title: 'Home', file: 'index.html' }], redirects: [], notFound: '404.html', assets: [] }),
  );
  return { outDir, commitSha: 'b'.repeat(40), commitMessage: 'slow fake', pages: 1, warnings: [] };
}

const app = await buildApp(loadConfig(), { runJobs: false });
await app.ready();
app.buildRunner.configure({ runBuild, pollMs: 500 });
await app.buildRunner.start();
process.stdout.write('worker ready\n');
process.once('SIGTERM', () => {
  void app.close().then(() => process.exit(0));
});
