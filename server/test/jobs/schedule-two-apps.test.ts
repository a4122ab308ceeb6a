import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { Redis } from 'ioredis';
import type { FastifyInstance } from 'fastify';
import { newId } from '@quire/shared/ids';
import type { MergeReviewFn } from '../../src/jobs/schedule-runner';
import { bearer } from '../helpers/app';
import { requirePostgres, requireRedis } from '../helpers/services';
import { createTempDatabase } from '../helpers/pg-database';
import { deletePrefix } from '../events/two-apps';
import type { FixtureRepo } from '../helpers/git-repo';
import { docsRepo } from '../routes/builds/build-fixture';
import { createRepoProject, inMs, postSchedule, sharedStore, startRunners, waitForSchedule, type SharedStore } from './schedule-fixture';

const redis = await requireRedis();
const postgres = await requirePostgres();

let store: SharedStore | undefined;
const repos: FixtureRepo[] = [];

afterEach(async () => {
  await store?.cleanup();
  store = undefined;
  for (const r of repos.splice(0)) r.cleanup();
});

/**
 * Two apps on one database, both working schedule jobs, and three projects each with a ref and
 * four review schedules due at the same moment: each runs exactly once (one build per project, one merge
 * per review, one `schedule.ran` per schedule).
 */
async function runsEachOnce(s: SharedStore): Promise<void> {
  const a = await s.open();
  const b = await s.open();
  const key = s.adminKey();
  const projects: string[] = [];
  for (let i = 0; i < 3; i++) {
    const repo = docsRepo();
    repos.push(repo);
    projects.push(await createRepoProject(a, key, repo, `twice-${i}`));
  }
  // Merges are counted across both apps, and take a moment (a real one pushes to git).
  const merges: string[] = [];
  const mergeReview: MergeReviewFn = async (_ctx, _auth, _projectId, reviewId) => {
    merges.push(reviewId);
    await new Promise((r) => setTimeout(r, 200));
    return { buildId: null };
  };
  for (const app of [a, b]) {
    app.scheduleRunner.configure({ mergeReview });
    await startRunners(app);
  }
  const at = inMs(1_500);
  const schedules: Array<{ projectId: string; id: string }> = [];
  const reviews: string[] = [];
  for (const [i, projectId] of projects.entries()) {
    const review = await a.ctx.db.prisma.review.create({
      data: { id: newId('review'), projectId, title: 'Change', status: 'approved', source: 'changes', branch: 'main', baseCommit: repos[i]!.headSha() },
    });
    reviews.push(review.id);
    const more = [];
    for (let j = 0; j < 3; j++) {
      const extra = await a.ctx.db.prisma.review.create({
        data: { id: newId('review'), projectId, title: `Change ${j}`, status: 'approved', source: 'changes', branch: 'main', baseCommit: repos[i]!.headSha() },
      });
      reviews.push(extra.id);
      more.push({ reviewId: extra.id, at });
    }
    for (const body of [{ ref: 'main', at }, { reviewId: review.id, at }, ...more]) {
      schedules.push({ projectId, id: ((await postSchedule(i % 2 ? b : a, key, projectId, body)).json().data as { id: string }).id });
    }
  }
  for (const [i, s] of schedules.entries()) {
    expect(await waitForSchedule(i % 2 ? a : b, key, s.projectId, s.id, ['done', 'failed'])).toMatchObject({ status: 'done', error: null });
  }
  await new Promise((r) => setTimeout(r, 600));
  const list = async (app: FastifyInstance, url: string) => (await app.inject({ url, headers: bearer(key) })).json().data as Array<{ action?: string }>;
  for (const projectId of projects) {
    expect(await list(a, `/v1/projects/${projectId}/builds`)).toHaveLength(1);
    const audit = await list(b, `/v1/projects/${projectId}/audit-log?limit=100`);
    expect(audit.filter((e) => e.action === 'schedule.ran')).toHaveLength(5);
    expect(audit.filter((e) => e.action === 'build.triggered')).toHaveLength(1);
  }
  expect(merges.sort()).toEqual([...reviews].sort());
}

describe('schedules with two server processes on one database', () => {
  it('run exactly once with in-process queues (the database claim decides)', async () => {
    store = await sharedStore();
    await runsEachOnce(store);
  });

  // Several processes share one database on PostgreSQL (SQLite is the one-process default: two
  // clients of one file in one test process would wait on each other's write lock).
  it.skipIf(!postgres)('run once when both processes fire the same schedule at the same instant (the conditional claim decides)', async () => {
    const database = await createTempDatabase(postgres!.url);
    const pgStore = await sharedStore({ DATABASE_URL: database.url });
    store = { ...pgStore, cleanup: async () => { await pgStore.cleanup(); await database.drop(); } };
    const a = await store.open();
    const b = await store.open();
    const key = store.adminKey();
    const repo = docsRepo();
    repos.push(repo);
    const projectId = await createRepoProject(a, key, repo, 'same-instant');
    const merges: string[] = [];
    const mergeReview: MergeReviewFn = async (_ctx, _auth, _projectId, reviewId) => {
      merges.push(reviewId);
      await new Promise((r) => setTimeout(r, 100));
      return { buildId: null };
    };
    for (const app of [a, b]) {
      app.scheduleRunner.configure({ mergeReview });
      await startRunners(app);
    }
    const ids: string[] = [];
    for (let i = 0; i < 10; i++) {
      const review = await a.ctx.db.prisma.review.create({ data: { id: newId('review'), projectId, title: `Change ${i}`, status: 'approved', source: 'changes', branch: 'main', baseCommit: repo.headSha() } });
      const s = (await postSchedule(a, key, projectId, { reviewId: review.id, at: inMs(60_000) })).json().data as { id: string };
      ids.push(s.id);
    }
    // Due now: both processes' job handlers are handed every schedule at once.
    await a.ctx.db.prisma.schedule.updateMany({ where: { id: { in: ids } }, data: { runAt: new Date(Date.now() - 1_000) } });
    const job = { id: 'test', attempt: 1 };
    await Promise.all(ids.flatMap((scheduleId) => [a, b].map((app) => app.scheduleRunner['handle']({ scheduleId, projectId }, job))));
    for (const id of ids) expect(await waitForSchedule(a, key, projectId, id, ['done', 'failed'])).toMatchObject({ status: 'done' });
    expect(merges).toHaveLength(ids.length);
    expect(new Set(merges).size).toBe(ids.length);
  });

  describe.skipIf(!redis)('with a shared BullMQ queue', () => {
    it('run exactly once', async () => {
      const prefix = `quire-test-${randomUUID().slice(0, 8)}`;
      store = await sharedStore({ REDIS_URL: redis!.url, QUIRE_QUEUE_PREFIX: prefix });
      const conn = new Redis(redis!.url);
      try {
        await runsEachOnce(store);
      } finally {
        await store.cleanup();
        store = undefined;
        await deletePrefix(conn, prefix);
        await conn.quit();
      }
    });
  });
});
