/**
 * Worker processes sharing one database (SQLite file, or PostgreSQL under `pnpm test:pg`) and one Redis (BullMQ): a worker SIGKILLed
 * mid-build leaves the build to another worker, and two workers never run two builds of one
 * project at once. Needs Redis (skipped with a message off CI, failing on CI).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Redis } from 'ioredis';
import { Queue, Worker } from 'bullmq';
import type { FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { newId } from '@quire/shared/ids';
import { buildApp } from '../../src/app';
import { ORPHAN_AFTER_MS, WORKERS_DIED_ERROR } from '../../src/builds/build-sweep';
import { loadConfig } from '../../src/env';
import { bearer } from '../helpers/app';
import { testDatabaseFromEnv } from '../helpers/pg-database';
import { requireRedis } from '../helpers/services';

const redis = await requireRedis();
const here = path.dirname(fileURLToPath(import.meta.url));
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

interface Setup {
  app: FastifyInstance;
  key: string;
  env: NodeJS.ProcessEnv;
  trace: string;
  prefix: string;
  spawnWorker(): Promise<ChildProcess>;
}

async function setup(slowMs: number): Promise<Setup> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-workers-'));
  const prefix = `quire-test-${randomUUID()}`;
  const trace = path.join(dataDir, 'trace.txt');
  fs.writeFileSync(trace, '');
  const env: NodeJS.ProcessEnv = { ...process.env, QUIRE_DATA_DIR: dataDir, QUIRE_LOG_LEVEL: 'silent', QUIRE_ALLOW_FILE_REPOS: '1', REDIS_URL: redis!.url, QUIRE_QUEUE_PREFIX: prefix, SLOW_BUILD_MS: String(slowMs), BUILD_TRACE: trace };
  // SQLite in the data dir, or a temporary PostgreSQL database under `pnpm test:pg` (QUIRE_TEST_DB=postgres).
  const database = await testDatabaseFromEnv();
  if (database) env.DATABASE_URL = database.url;
  else delete env.DATABASE_URL;
  const app = await buildApp(loadConfig(env), { runJobs: false });
  await app.ready();
  const children: ChildProcess[] = [];
  cleanups.push(async () => {
    for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
    await app.close();
    const r = new Redis(redis!.url);
    const keys = await r.keys(`${prefix}:*`);
    if (keys.length) await r.del(...keys);
    await r.quit();
    await database?.drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });
  return {
    app,
    key: app.bootstrap.adminKey!,
    env,
    trace,
    prefix,
    async spawnWorker() {
      const child = spawn(process.execPath, ['--import', 'tsx', path.join(here, 'slow-worker.ts')], { cwd: path.resolve(here, '../..'), env, stdio: ['ignore', 'pipe', 'inherit'] });
      children.push(child);
      await new Promise<void>((resolve, reject) => {
        child.stdout!.on('data', (d: Buffer) => {
          if (d.toString().includes('worker ready')) resolve();
        });
        child.once('exit', (code) => reject(new Error(`worker exited with ${code}`)));
      });
      return child;
    },
  };
}

const traceLines = (file: string) =>
  fs.readFileSync(file, 'utf8').trim().split('\n').filter(Boolean).map((l) => {
    const [what, buildId, projectId, pid, at] = l.split(' ');
    return { what: what!, buildId: buildId!, projectId: projectId!, pid: Number(pid), at: Number(at) };
  });

async function waitUntil<T>(what: string, probe: () => Promise<T | undefined> | T | undefined, ms: number): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await probe();
    if (v !== undefined) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe.skipIf(!redis)('worker processes (BullMQ on Redis, one shared database)', () => {
  it('finishes in a second worker a build whose worker was SIGKILLed mid-build', async () => {
    const s = await setup(4_000);
    const p = (await s.app.inject({ method: 'POST', url: '/v1/projects', headers: bearer(s.key), payload: { name: 'acme', repoUrl: '/tmp/x' } })).json().data.id as string;
    const first = await s.spawnWorker();
    const id = (await s.app.inject({ method: 'POST', url: `/v1/projects/${p}/builds`, headers: bearer(s.key) })).json().data.id as string;
    await waitUntil('the first worker to start the build', () => traceLines(s.trace).find((l) => l.what === 'start' && l.buildId === id), 15_000);
    first.kill('SIGKILL');
    await new Promise((r) => first.once('exit', r));
    expect((await s.app.ctx.db.prisma.build.findUnique({ where: { id } }))!.status).toBe('building');
    const second = await s.spawnWorker();
    const killedAt = Date.now();
    const row = await waitUntil('the build to be deployed by the second worker', async () => {
      const b = await s.app.ctx.db.prisma.build.findUnique({ where: { id } });
      return b?.status === 'deployed' ? b : undefined;
    }, 45_000);
    expect(Date.now() - killedAt).toBeLessThan(40_000);
    expect(row.status).toBe('deployed');
    const starts = traceLines(s.trace).filter((l) => l.what === 'start' && l.buildId === id);
    expect(starts.map((l) => l.pid)).toEqual([first.pid, second.pid]);
    const site = await s.app.inject({ url: '/', headers: { host: 'acme-docs.localhost' } });
    expect(site.body).toContain(`built by ${id} in ${second.pid}`);
  }, 90_000);

  it('cancels a build running in a worker process, and a SIGTERMed worker hands its build to another', async () => {
    const s = await setup(5_000);
    const p = (await s.app.inject({ method: 'POST', url: '/v1/projects', headers: bearer(s.key), payload: { name: 'acme', repoUrl: '/tmp/x' } })).json().data.id as string;
    const first = await s.spawnWorker();
    const trigger = async () => (await s.app.inject({ method: 'POST', url: `/v1/projects/${p}/builds`, headers: bearer(s.key) })).json().data.id as string;
    const started = (id: string) => waitUntil(`build ${id} to start`, () => traceLines(s.trace).find((l) => l.what === 'start' && l.buildId === id), 15_000);

    const doomed = await trigger();
    await started(doomed);
    const del = await s.app.inject({ method: 'DELETE', url: `/v1/projects/${p}/builds/${doomed}`, headers: bearer(s.key) });
    expect(del.statusCode).toBe(204);
    expect((await s.app.ctx.db.prisma.build.findUnique({ where: { id: doomed } }))!.status).toBe('cancelled');

    const moved = await trigger();
    const firstRun = await started(moved);
    // Stopped mid-build (before any other worker exists, so the timing of a worker's start cannot
    // let the first finish the build): it puts the build back in the queue and exits 0.
    first.kill('SIGTERM');
    const code = await new Promise((r) => first.once('exit', r));
    expect(code).toBe(0);
    expect((await s.app.ctx.db.prisma.build.findUnique({ where: { id: moved } }))!.status).toBe('queued');
    const second = await s.spawnWorker();
    await waitUntil('the build to be deployed by the other worker', async () => {
      const b = await s.app.ctx.db.prisma.build.findUnique({ where: { id: moved } });
      return b?.status === 'deployed' ? true : undefined;
    }, 30_000);
    const runs = traceLines(s.trace).filter((l) => l.what === 'start' && l.buildId === moved).map((l) => l.pid);
    expect(runs).toEqual([firstRun.pid, second.pid]);
  }, 90_000);

  it('never runs two builds of one project at once across two workers', async () => {
    const s = await setup(700);
    const projects: string[] = [];
    for (const slug of ['alpha', 'beta']) {
      projects.push((await s.app.inject({ method: 'POST', url: '/v1/projects', headers: bearer(s.key), payload: { name: slug, slug, repoUrl: '/tmp/x' } })).json().data.id as string);
    }
    await s.spawnWorker();
    await s.spawnWorker();
    // Three queued builds per project at once (rows written directly: the API refuses a second
    // in-progress build, so this is what a race between triggers would leave behind).
    const ids: string[] = [];
    let stamp = Date.now();
    for (let i = 0; i < 3; i++) {
      for (const projectId of projects) {
        const id = newId('build');
        ids.push(id);
        await s.app.ctx.db.prisma.build.create({ data: { id, projectId, status: 'queued', trigger: 'api', branch: 'main', isPreview: false, createdAt: new Date(stamp++) } });
        await s.app.ctx.jobs.enqueue('build', { buildId: id, projectId }, { jobId: id });
      }
    }
    let most = 0;
    await waitUntil('every build to end', async () => {
      for (const projectId of projects) most = Math.max(most, await s.app.ctx.db.prisma.build.count({ where: { projectId, status: 'building' } }));
      const done = await s.app.ctx.db.prisma.build.count({ where: { id: { in: ids }, status: 'deployed' } });
      return done === ids.length ? true : undefined;
    }, 60_000);
    expect(most).toBe(1);
    const lines = traceLines(s.trace);
    for (const projectId of projects) {
      const mine = lines.filter((l) => l.projectId === projectId).sort((a, b) => a.at - b.at);
      // start/end alternate per project: no build of it started while another ran.
      expect(mine.map((l) => l.what)).toEqual(['start', 'end', 'start', 'end', 'start', 'end']);
    }
    expect(new Set(lines.map((l) => l.pid)).size).toBe(2);
  }, 90_000);
  it('settles builds left building without a live job: requeued when the job is gone, failed when the queue gave it up', async () => {
    const s = await setup(300);
    const p = (await s.app.inject({ method: 'POST', url: '/v1/projects', headers: bearer(s.key), payload: { name: 'acme', repoUrl: '/tmp/x' } })).json().data.id as string;
    const q = (await s.app.inject({ method: 'POST', url: '/v1/projects', headers: bearer(s.key), payload: { name: 'beta', repoUrl: '/tmp/x' } })).json().data.id as string;
    const longAgo = new Date(Date.now() - ORPHAN_AFTER_MS - 5_000);
    // A build whose job Redis lost (no job at all), and one whose job BullMQ failed after its workers kept dying.
    const lost = newId('build');
    const given = newId('build');
    for (const [id, projectId] of [[lost, p], [given, q]] as const) {
      await s.app.ctx.db.prisma.build.create({ data: { id, projectId, status: 'building', trigger: 'api', branch: 'main', isPreview: false, startedAt: longAgo } });
    }
    const connection = { url: redis!.url };
    const queue = new Queue('build', { connection, prefix: s.prefix });
    const failing = new Worker('build', async () => {
      throw new Error('job stalled more than allowable limit');
    }, { connection, prefix: s.prefix });
    const failed = new Promise((r) => failing.once('failed', r));
    await queue.add('build', { buildId: given, projectId: q }, { jobId: given });
    await failed;
    await failing.close();
    await queue.close();

    await s.spawnWorker();
    const status = async (id: string) => (await s.app.ctx.db.prisma.build.findUnique({ where: { id } }))!;
    await waitUntil('the lost build to be built again', async () => ((await status(lost)).status === 'deployed' ? true : undefined), 30_000);
    const gaveUp = await waitUntil('the given-up build to fail', async () => {
      const b = await status(given);
      return b.status === 'failed' ? b : undefined;
    }, 30_000);
    expect(gaveUp.error).toBe(WORKERS_DIED_ERROR);
    const site = await s.app.inject({ url: '/', headers: { host: 'acme-docs.localhost' } });
    expect(site.body).toContain(`built by ${lost}`);
  }, 90_000);
});
