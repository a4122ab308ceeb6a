import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ApiError } from '@quire/shared/errors';
import { newId } from '@quire/shared/ids';
import type { FastifyInstance } from 'fastify';
import { bearer } from '../helpers/app';
import type { FixtureRepo } from '../helpers/git-repo';
import { docsRepo } from '../routes/builds/build-fixture';
import { fakeBuilder } from './fake-builder';
import { createRepoProject, inMs, postSchedule, sharedStore, startRunners, waitForBuild, waitForSchedule, type SharedStore } from './schedule-fixture';

let store: SharedStore;
let repo: FixtureRepo;

beforeEach(async () => {
  store = await sharedStore();
  repo = docsRepo();
});
afterEach(async () => {
  await store.cleanup();
  repo.cleanup();
});

type AuditEntry = { action: string; resource: { id: string }; metadata: Record<string, unknown> };
/** The project's audit entries of one action, newest first. */
const auditOf = async (app: FastifyInstance, projectId: string, action: string) =>
  ((await app.inject({ url: `/v1/projects/${projectId}/audit-log?limit=100`, headers: bearer(store.adminKey()) })).json().data as AuditEntry[]).filter((e) => e.action === action);
const buildsOf = async (app: FastifyInstance, projectId: string) =>
  (await app.inject({ url: `/v1/projects/${projectId}/builds`, headers: bearer(store.adminKey()) })).json().data as Array<{ id: string; status: string }>;

describe('schedule runner', () => {
  it('publishes a ref at its time: a production build of that commit, deployed and served', async () => {
    const app = await store.open();
    const key = store.adminKey();
    const projectId = await createRepoProject(app, key, repo, 'sched-real');
    const first = repo.headSha();
    app.scheduleRunner.configure({ sweepMs: 100 });
    await app.buildRunner.start();
    await app.scheduleRunner.start();
    const at = inMs(1_500);
    const s = (await postSchedule(app, key, projectId, { ref: first, at })).json().data;
    repo.commit({ 'index.mdx': '---\ntitle: Welcome\n---\n\n# Welcome\n\nSECOND home page.\n' }, 'not yet');
    expect(await buildsOf(app, projectId)).toEqual([]);

    const done = await waitForSchedule(app, key, projectId, s.id, ['done', 'failed']);
    expect(done).toMatchObject({ status: 'done', late: false, error: null, buildId: expect.stringMatching(/^bld_/) });
    expect(new Date(done.ranAt as string).getTime()).toBeGreaterThanOrEqual(new Date(at).getTime());
    const build = await waitForBuild(app, key, projectId, done.buildId as string, ['deployed', 'failed']);
    expect(build).toMatchObject({ status: 'deployed', trigger: 'schedule', isPreview: false, branch: 'main', commitSha: first });
    const home = await app.inject({ url: '/', headers: { host: 'sched-real-docs.localhost:4000' } });
    expect(home.body).toContain('FIRST home page');
    const ran = await auditOf(app, projectId, 'schedule.ran');
    expect(ran).toHaveLength(1);
    expect(ran[0]).toMatchObject({ resource: { id: s.id }, metadata: { buildId: done.buildId, late: false } });
  }, 40_000);

  it('never runs a cancelled schedule', async () => {
    const app = await store.open();
    const key = store.adminKey();
    const projectId = await createRepoProject(app, key, repo, 'sched-cancel');
    await startRunners(app, fakeBuilder());
    const s = (await postSchedule(app, key, projectId, { ref: 'main', at: inMs(600) })).json().data;
    expect((await app.inject({ method: 'DELETE', url: `/v1/projects/${projectId}/schedules/${s.id}`, headers: bearer(key) })).statusCode).toBe(204);
    await new Promise((r) => setTimeout(r, 1_200));
    expect((await waitForSchedule(app, key, projectId, s.id, ['cancelled', 'done', 'failed'])).status).toBe('cancelled');
    expect(await buildsOf(app, projectId)).toEqual([]);
  });

  it('waits behind a build already running in the project, then publishes', async () => {
    const app = await store.open();
    const key = store.adminKey();
    const projectId = await createRepoProject(app, key, repo, 'sched-busy');
    const builder = fakeBuilder();
    builder.state.hold = true;
    await startRunners(app, builder);
    const running = (await app.inject({ method: 'POST', url: `/v1/projects/${projectId}/builds`, headers: bearer(key) })).json().data;
    await builder.reached(running.id);
    const s = (await postSchedule(app, key, projectId, { ref: 'main', at: inMs(200) })).json().data;
    await new Promise((r) => setTimeout(r, 800));
    expect((await waitForSchedule(app, key, projectId, s.id, ['scheduled', 'running', 'done', 'failed'])).status).toMatch(/scheduled|running/);
    builder.state.hold = false;
    builder.release(running.id);
    const done = await waitForSchedule(app, key, projectId, s.id, ['done', 'failed']);
    expect(done).toMatchObject({ status: 'done', error: null });
    expect(done.buildId).not.toBe(running.id);
    expect((await waitForBuild(app, key, projectId, done.buildId as string, ['deployed', 'failed'])).status).toBe('deployed');
  });

  it('runs a schedule missed while no server ran at the next start, and records it ran late', async () => {
    const first = await store.open();
    const key = store.adminKey();
    const projectId = await createRepoProject(first, key, repo, 'sched-late');
    const s = (await postSchedule(first, key, projectId, { ref: 'main', at: inMs(60_000) })).json().data;
    // The server stops, and comes back five minutes after the schedule's time.
    await first.ctx.db.prisma.schedule.update({ where: { id: s.id }, data: { runAt: new Date(Date.now() - 5 * 60_000) } });
    await first.close();

    const next = await store.open();
    await startRunners(next, fakeBuilder());
    const done = await waitForSchedule(next, key, projectId, s.id, ['done', 'failed']);
    expect(done).toMatchObject({ status: 'done', late: true, error: null });
    expect((await waitForBuild(next, key, projectId, done.buildId as string, ['deployed', 'failed'])).status).toBe('deployed');
    expect((await auditOf(next, projectId, 'schedule.ran'))[0]).toMatchObject({ metadata: { late: true } });
  });

  it('takes over a schedule left running by a process that died, without starting a second build', async () => {
    const dead = await store.open();
    const key = store.adminKey();
    const projectId = await createRepoProject(dead, key, repo, 'sched-takeover');
    const prisma = dead.ctx.db.prisma;
    const a = (await postSchedule(dead, key, projectId, { ref: 'main', at: inMs(60_000) })).json().data;
    const b = (await postSchedule(dead, key, projectId, { ref: 'main', at: inMs(120_000) })).json().data;
    // `a` died ten minutes ago before starting its build; `b` died just now after starting it, before recording it.
    const longAgo = new Date(Date.now() - 10 * 60_000);
    await prisma.schedule.update({ where: { id: a.id }, data: { status: 'running', ranAt: longAgo, runAt: longAgo } });
    const justNow = new Date(Date.now() - 1_000);
    await prisma.schedule.update({ where: { id: b.id }, data: { status: 'running', ranAt: justNow, runAt: justNow } });
    const startedByB = (await dead.inject({ method: 'POST', url: `/v1/projects/${projectId}/builds`, headers: bearer(key) })).json().data;
    // The build may have run before the takeover looks for it: a branch build then names its commit.
    await prisma.build.update({ where: { id: startedByB.id }, data: { commitSha: 'b'.repeat(40) } });
    await dead.close();

    const app = await store.open();
    app.scheduleRunner.configure({ takeoverMs: 500 });
    await startRunners(app, fakeBuilder());
    const doneB = await waitForSchedule(app, key, projectId, b.id, ['done', 'failed']);
    expect(doneB).toMatchObject({ status: 'done', buildId: startedByB.id });
    const doneA = await waitForSchedule(app, key, projectId, a.id, ['done', 'failed']);
    expect(doneA).toMatchObject({ status: 'done', error: null });
    expect(doneA.buildId).not.toBe(startedByB.id);
    expect(await buildsOf(app, projectId)).toHaveLength(2);
  });

  it('fails a schedule whose creator can no longer publish, with the reason', async () => {
    const app = await store.open();
    const key = store.adminKey();
    const projectId = await createRepoProject(app, key, repo, 'sched-left');
    const s = (await postSchedule(app, key, projectId, { ref: 'main', at: inMs(300) })).json().data;
    await app.ctx.db.prisma.membership.updateMany({ where: { userId: s.createdBy.id }, data: { role: 'viewer' } });
    await startRunners(app);
    const failed = await waitForSchedule(app, key, projectId, s.id, ['done', 'failed']);
    expect(failed).toMatchObject({ status: 'failed', buildId: null, error: expect.stringContaining('(viewer) no longer grants "builds:write"') });
    expect(await buildsOf(app, projectId)).toEqual([]);
    expect((await auditOf(app, projectId, 'schedule.failed'))[0]).toMatchObject({ resource: { id: s.id } });
  });
});

describe('schedule runner: review merges', () => {
  async function approvedReview(app: FastifyInstance, projectId: string): Promise<string> {
    const row = await app.ctx.db.prisma.review.create({
      data: { id: newId('review'), projectId, title: 'Fix typo', status: 'approved', source: 'changes', branch: 'main', baseCommit: repo.headSha() },
    });
    return row.id;
  }

  it('merges the review at its time as the schedule creator (again after an unreachable repository) and records the production build; a merge conflict fails it', async () => {
    const app = await store.open();
    const key = store.adminKey();
    const projectId = await createRepoProject(app, key, repo, 'sched-review');
    const calls: Array<{ userId: string | null; permissions: string[]; reviewId: string }> = [];
    let conflict = false;
    let unreachable = 1;
    app.scheduleRunner.configure({
      unavailableRetryMs: 100,
      mergeReview: async (_ctx, auth, _projectId, reviewId) => {
        calls.push({ userId: auth.userId, permissions: auth.permissions, reviewId });
        if (unreachable-- > 0) throw new ApiError('service_unavailable', 'The repository could not be reached; try again later.');
        if (conflict) throw new ApiError('conflict', "The review's changes conflict with main in index.mdx; nothing was merged.", { paths: ['index.mdx'] });
        return { buildId: 'bld_merged' };
      },
    });
    await startRunners(app);
    const reviewId = await approvedReview(app, projectId);
    const s = (await postSchedule(app, key, projectId, { reviewId, at: inMs(300) })).json().data;
    const done = await waitForSchedule(app, key, projectId, s.id, ['done', 'failed']);
    expect(done).toMatchObject({ status: 'done', kind: 'review', reviewId, buildId: 'bld_merged' });
    // The first try found the repository unreachable; the second merged.
    expect(calls).toEqual([1, 2].map(() => ({ userId: s.createdBy.id, permissions: ['admin'], reviewId })));

    conflict = true;
    const other = (await postSchedule(app, key, projectId, { reviewId: await approvedReview(app, projectId), at: inMs(300) })).json().data;
    const failed = await waitForSchedule(app, key, projectId, other.id, ['done', 'failed']);
    expect(failed).toMatchObject({ status: 'failed', buildId: null, error: expect.stringContaining('conflict with main in index.mdx') });
  });
});
