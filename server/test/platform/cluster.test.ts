/**
 * Quire past one machine, end to end: two server processes (`pnpm start`, QUIRE_WORKERS=0) and two
 * worker processes (`pnpm quire worker`) sharing one PostgreSQL database, one Redis (BullMQ and
 * events) and one S3-compatible bucket (s3rver), each with its own data directory. Nothing is
 * shared through the disk: deployments reach the servers through S3, switches through Redis.
 * Needs PostgreSQL and Redis (skipped with a message off CI, failing on CI).
 */
import { randomBytes, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFixtureRepo, type FixtureRepo } from '../helpers/git-repo';
import { createTempDatabase, type TempDatabase } from '../helpers/pg-database';
import { requirePostgres, requireRedis } from '../helpers/services';
import { startTestS3, type TestS3 } from '../storage/s3-server';
import { dataPaths } from '../../src/data-paths';
import { KEEP_PRODUCTION } from '../../src/deployments/publish';
import { api, siteGet, startQuire, waitUntil, type QuireProcess } from './processes';

const postgres = await requirePostgres();
const redis = await requireRedis();

const PROJECTS = 5;
const BUILDS_PER_PROJECT = 4;

interface Cluster {
  servers: QuireProcess[];
  workers: QuireProcess[];
  adminKey: string;
  database: TempDatabase;
}

let cluster: Cluster;
let s3: TestS3;
const dirs: string[] = [];
const repos: FixtureRepo[] = [];
const prefix = `quire-test-${randomUUID().slice(0, 8)}`;

/** Every `.html` file under `dir` (none when it does not exist). */
function htmlFilesUnder(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return (fs.readdirSync(dir, { recursive: true }) as string[]).filter((f) => f.endsWith('.html'));
}

const page = (marker: string) => `---\ntitle: Welcome\n---\n\n# Welcome\n\nContent ${marker}.\n`;

beforeAll(async () => {
  if (!postgres || !redis) return;
  s3 = await startTestS3();
  const database = await createTempDatabase(postgres.url);
  const adminKey = `sk_live_${randomBytes(24).toString('hex')}`;
  const envFor = (): NodeJS.ProcessEnv => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-cluster-'));
    dirs.push(dataDir);
    return {
      ...process.env,
      ...s3.env,
      DATABASE_URL: database.url,
      REDIS_URL: redis.url,
      QUIRE_QUEUE_PREFIX: prefix,
      QUIRE_DATA_DIR: dataDir,
      QUIRE_ADMIN_KEY: adminKey,
      QUIRE_ALLOW_FILE_REPOS: '1',
      QUIRE_LOG_LEVEL: 'warn',
    };
  };
  // The first server applies the migrations and makes the organization; the rest find them done.
  const first = await startQuire('server', { ...envFor(), QUIRE_WORKERS: '0' });
  const [second, ...workers] = await Promise.all([
    startQuire('server', { ...envFor(), QUIRE_WORKERS: '0' }),
    startQuire('worker', envFor()),
    startQuire('worker', envFor()),
  ]);
  cluster = { servers: [first, second!], workers, adminKey, database };
}, 120_000);

afterAll(async () => {
  if (!cluster) return;
  await Promise.all([...cluster.servers, ...cluster.workers].map((p) => p.stop('SIGKILL')));
  await cluster.database.drop();
  await s3.stop();
  const r = new Redis(redis!.url);
  const keys = await r.keys(`${prefix}:*`);
  if (keys.length) await r.del(...keys);
  await r.quit();
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
  for (const repo of repos) repo.cleanup();
}, 60_000);

describe.skipIf(!postgres || !redis)('two servers and two workers on PostgreSQL, Redis and S3', () => {
  it(`builds ${PROJECTS * BUILDS_PER_PROJECT} builds across ${PROJECTS} projects, one at a time per project, served by both servers`, async () => {
    const [a, b] = cluster.servers as [QuireProcess, QuireProcess];
    const key = cluster.adminKey;
    const projects: { id: string; slug: string; repo: FixtureRepo }[] = [];
    for (let i = 0; i < PROJECTS; i++) {
      const repo = createFixtureRepo(undefined, {
        extraFiles: { 'docs.json': JSON.stringify({ name: `Docs ${i}`, navigation: { groups: [{ group: 'Start', pages: ['index'] }] } }), 'index.mdx': page(`p${i}-r0`) },
      });
      repos.push(repo);
      const slug = `cluster-${i}`;
      const res = await api(i % 2 ? b.base : a.base, key, 'POST', '/v1/projects', { name: slug, slug, repoUrl: repo.path, repoBranch: repo.branch });
      expect(res.status, JSON.stringify(res.json)).toBe(201);
      projects.push({ id: res.json.data.id, slug, repo });
    }

    // Watch the database the whole time: no project may ever have two builds `building`.
    const watcher = new pg.Client({ connectionString: cluster.database.url });
    await watcher.connect();
    let most = 0;
    let watching = true;
    const watch = (async () => {
      while (watching) {
        const r = await watcher.query<{ n: string }>(`SELECT COUNT(*) AS n FROM "Build" WHERE status = 'building' GROUP BY "projectId" ORDER BY n DESC LIMIT 1`);
        most = Math.max(most, Number(r.rows[0]?.n ?? 0));
        await new Promise((res) => setTimeout(res, 50));
      }
    })();

    const servedWithin: number[] = [];
    const finished: { projectId: string; buildId: string }[] = [];
    // Each project runs its rounds in sequence (a project takes one build at a time: 409 otherwise);
    // the projects run side by side, so the two workers always have more than one build to take.
    // The watcher stops however the rounds end, so a failed round does not leave it querying a dropped database.
    const rounds = Promise.all(
      projects.map(async (p, i) => {
        for (let round = 0; round < BUILDS_PER_PROJECT; round++) {
          const marker = `p${i}-r${round}`;
          if (round > 0) p.repo.commit({ 'index.mdx': page(marker) }, `round ${round}`);
          const via = (i + round) % 2 ? b : a;
          const other = via === a ? b : a;
          const trig = await api(via.base, key, 'POST', `/v1/projects/${p.id}/builds`);
          expect(trig.status, JSON.stringify(trig.json)).toBe(202);
          const buildId = trig.json.data.id as string;
          const build = await waitUntil(`build ${buildId} of ${p.slug} to end`, async () => {
            const r = await api(other.base, key, 'GET', `/v1/projects/${p.id}/builds/${buildId}`);
            return ['deployed', 'failed', 'cancelled'].includes(r.json?.data?.status) ? r.json.data : undefined;
            // Five projects poll side by side with one key: every 500 ms keeps them under its 1000 a minute.
          }, 90_000, 500);
          expect(build.status, JSON.stringify(build)).toBe('deployed');
          finished.push({ projectId: p.id, buildId });
          const deployedAt = Date.now();
          // Both servers serve the new content: each reads the deployment from S3 and hears the switch.
          for (const server of [a, b]) {
            await waitUntil(`${p.slug} on port ${server.port} to serve ${marker}`, async () => {
              const site = await siteGet(server.port, `${p.slug}-docs.localhost`);
              return site.status === 200 && site.body.includes(`Content ${marker}.`) ? true : undefined;
            }, 5_000);
          }
          servedWithin.push(Date.now() - deployedAt);
        }
      }),
    );
    try {
      await rounds;
    } finally {
      watching = false;
      await watch;
      await watcher.end();
    }

    expect(most).toBe(1);
    const deployed = await api(a.base, key, 'GET', `/v1/projects/${projects[0]!.id}/builds?status=deployed`);
    expect(deployed.json.data).toHaveLength(BUILDS_PER_PROJECT);
    expect(servedWithin).toHaveLength(PROJECTS * BUILDS_PER_PROJECT);
    // Deployments went to the bucket (the newest KEEP_PRODUCTION of each project are kept), not to
    // any process's disk.
    const kept = new Set(s3.keys().filter((k) => k.endsWith('/index.html')).map((k) => k.split('/').slice(0, -1).join('/')));
    expect(kept.size).toBe(PROJECTS * Math.min(KEEP_PRODUCTION, BUILDS_PER_PROJECT));
    for (const dir of dirs) expect(htmlFilesUnder(dataPaths(dir).sitesRoot)).toEqual([]);
    // A build's log, written by a worker on its own disk, reads the same through either server.
    const { projectId, buildId } = finished[0]!;
    for (const server of [a, b]) {
      const log = await waitUntil(`the log of ${buildId} through port ${server.port}`, async () => {
        const res = await fetch(`${server.base}/v1/projects/${projectId}/builds/${buildId}/logs`, { headers: { authorization: `Bearer ${key}` } });
        const text = await res.text();
        return text.includes('✓ deployed') ? text : undefined;
      }, 5_000);
      expect(log).toContain('✓ rendering pages');
    }
  }, 300_000);

  it('a key revoked through one server is refused by the other within a second', async () => {
    const [a, b] = cluster.servers as [QuireProcess, QuireProcess];
    const made = await api(a.base, cluster.adminKey, 'POST', '/v1/api-keys', { name: 'ci', permissions: ['projects:read'] });
    expect(made.status, JSON.stringify(made.json)).toBe(201);
    const { id, key } = made.json.data as { id: string; key: string };
    // B has the key in its cache before the revocation (trusted for 60 s without the event).
    expect((await api(b.base, key, 'GET', '/v1/projects')).status).toBe(200);
    const revoked = await api(a.base, cluster.adminKey, 'DELETE', `/v1/api-keys/${id}`);
    expect(revoked.status).toBeLessThan(300);
    const at = Date.now();
    await waitUntil('server B to refuse the revoked key', async () => ((await api(b.base, key, 'GET', '/v1/projects')).status === 401 ? true : undefined), 1_000);
    expect(Date.now() - at).toBeLessThanOrEqual(1_100);
  }, 30_000);
});
