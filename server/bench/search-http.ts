/**
 * bench:search, part 3: the site's search endpoint `GET /_quire/search` through HTTP. Starts Quire
 * (temporary data directory), builds the trigger-dev corpus as a project, then runs
 * `wrk -t1 -c50 --latency` (Debian package `wrk`) for BENCH_SECONDS (default 10) with a Lua script
 * cycling through the same kind of 2,000 queries, and prints requests/second and the latency
 * percentiles wrk measured (goal: p99 <= 25 ms).
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { SearchRecord } from '@quire/shared/search/types';
import { buildApp } from '../src/app';
import { loadConfig } from '../src/env';
import { createFixtureRepo } from '../test/helpers/git-repo';
import { CORPUS_DIR } from './search-corpus';
import { latencyQueries } from './search-queries';

const PORT = 47760;
const WRK = '/usr/bin/wrk';
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const run = promisify(execFile);

/** Waits until build `buildId` is deployed (checked every 250 ms, at most 10 minutes). @throws Error when it fails, is cancelled or takes longer. */
export async function waitForDeployed(
  app: Awaited<ReturnType<typeof buildApp>>,
  auth: Record<string, string>,
  projectId: string,
  buildId: string,
): Promise<void> {
  const until = Date.now() + 600_000;
  for (;;) {
    const build = (await app.inject({ url: `/v1/projects/${projectId}/builds/${buildId}`, headers: auth })).json().data as { status: string; error: string | null };
    if (build.status === 'deployed') return;
    if (build.status === 'failed' || build.status === 'cancelled') throw new Error(`build ${build.status}: ${build.error ?? ''}`);
    if (Date.now() > until) throw new Error('the build did not finish within 10 minutes');
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** Runs the measurement (see the module comment) with queries derived from `records` (the trigger-dev corpus). */
export async function httpLatency(records: readonly SearchRecord[]): Promise<void> {
  console.log(`\n== GET /_quire/search through HTTP (trigger-dev site, wrk -t1 -c50 -d${SECONDS}s) ==`);
  if (!fs.existsSync(WRK)) {
    console.log(`TODO: ${WRK} is missing (apt-get install wrk); HTTP latency not measured`);
    return;
  }
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-bench-http-'));
  const repo = createFixtureRepo(path.join(CORPUS_DIR, 'trigger-dev'));
  const config = loadConfig({ QUIRE_DATA_DIR: path.join(work, 'data'), QUIRE_LOG_LEVEL: 'warn', QUIRE_ALLOW_FILE_REPOS: '1', PORT: String(PORT), HOST: '127.0.0.1' });
  const app = await buildApp(config);
  try {
    await app.listen({ port: PORT, host: '127.0.0.1' });
    const auth = { authorization: `Bearer ${app.bootstrap.adminKey!}` };
    const project = (await app.inject({ method: 'POST', url: '/v1/projects', headers: auth, payload: { name: 'Bench', slug: 'bench', repoUrl: repo.path, repoBranch: repo.branch } })).json().data as { id: string };
    const build = (await app.inject({ method: 'POST', url: `/v1/projects/${project.id}/builds`, headers: auth })).json().data as { id: string };
    await waitForDeployed(app, auth, project.id, build.id);
    const host = `bench-docs.${config.sitesDomain}:${PORT}`;
    const paths = latencyQueries(records, 2000, 7).map((q) => `/_quire/search?q=${encodeURIComponent(q)}&limit=10`);
    const probe = await app.inject({ url: paths[0]!, headers: { host } });
    if (probe.statusCode !== 200) throw new Error(`GET ${paths[0]} answered ${probe.statusCode}: ${probe.body.slice(0, 200)}`);
    console.log(`probe: ${paths[0]} -> ${(probe.json() as { data: unknown[] }).data.length} hits`);
    const script = path.join(work, 'queries.lua');
    fs.writeFileSync(
      script,
      `local paths = {\n${paths.map((p) => `  ${JSON.stringify(p)},`).join('\n')}\n}\nlocal i = 0\nrequest = function()\n  i = i % #paths + 1\n  return wrk.format("GET", paths[i], { Host = ${JSON.stringify(host)} })\nend\n`,
    );
    const wrk = async (seconds: number) => (await run(WRK, ['-t1', '-c50', `-d${seconds}s`, '--latency', '-s', script, `http://127.0.0.1:${PORT}/`], { encoding: 'utf8' })).stdout;
    await wrk(2); // warm-up (the index is loaded by the first query)
    const out = await wrk(SECONDS);
    const errors = /Non-2xx or 3xx responses:\s+(\d+)/.exec(out);
    const pct = (p: string) => new RegExp(`^\\s+${p}%\\s+(\\S+)`, 'm').exec(out)?.[1] ?? '?';
    console.log(`requests/second ${/Requests\/sec:\s+([\d.]+)/.exec(out)?.[1] ?? '?'}; latency p50 ${pct('50')}  p90 ${pct('90')}  p99 ${pct('99')}${errors ? `; ${errors[1]} non-2xx answers` : ''} (goal p99 <= 25 ms)`);
  } finally {
    await app.close();
    repo.cleanup();
    fs.rmSync(work, { recursive: true, force: true });
  }
}
