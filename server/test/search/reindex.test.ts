/**
 * Reindex jobs (interface-spec.md "Reindex job", "States and transitions > Reindex job"; decisions.md
 * section 7): 202 with a queued job, completion with the pages indexed, the new index written as a
 * generation of each live deployment and answering searches, 409 while one is queued or processing,
 * 404s, and jobs left queued or processing by a stopped server taken again when the runner starts.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createKey, createTestApp, type TestApp } from '../helpers/app';
import type { FixtureRepo } from '../helpers/git-repo';
import { apiSearch, deploySearchProject, searchDocsRepo, WORDS } from '../routes/search-fixture';

let t: TestApp;
let repo: FixtureRepo;
let projectId: string;

type Job = { jobId: string; status: string; full: boolean; pagesIndexed?: number; startedAt: string; finishedAt?: string };

const reindex = (body: object | undefined, key = t.adminKey) =>
  t.app.inject({ method: 'POST', url: `/v1/projects/${projectId}/search/reindex`, headers: bearer(key), ...(body ? { payload: body } : {}) });
const job = (jobId: string) => t.app.inject({ url: `/v1/projects/${projectId}/search/reindex/${jobId}`, headers: bearer(t.adminKey) });

async function waitDone(jobId: string): Promise<Job> {
  const until = Date.now() + 30_000;
  for (;;) {
    const current = job(jobId).then((r) => r.json().data as Job);
    const j = await current;
    if (j.status === 'completed' || j.status === 'failed') return j;
    if (Date.now() > until) throw new Error(`reindex ${jobId} still ${j.status}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

beforeAll(async () => {
  // the runner is started by the tests themselves, so jobs can be left queued on purpose
  t = await createTestApp({ runJobs: false });
  await t.app.buildRunner.start();
  repo = searchDocsRepo();
  ({ projectId } = await deploySearchProject(t, repo, 'search-reindex'));
}, 120_000);

afterAll(async () => {
  await t?.close();
  repo?.cleanup();
});

describe('reindex', () => {
  it('refuses a second reindex while one is queued, and takes a queued job when the runner starts (as after a restart)', async () => {
    const first = await reindex({ full: true });
    expect(first.statusCode).toBe(202);
    const queued = first.json().data as Job;
    expect(queued).toMatchObject({ status: 'queued', full: true });
    expect(queued.jobId).toMatch(/^idx_/);
    expect(queued.pagesIndexed).toBeUndefined();
    expect(Number.isNaN(Date.parse(queued.startedAt))).toBe(false);

    const second = await reindex({});
    expect(second.statusCode).toBe(409);
    expect(second.json().error.code).toBe('conflict');

    await t.app.reindexRunner.start();
    const done = await waitDone(queued.jobId);
    // production: index, setup, partners, internal, guides/intro (hidden left out); version `old`: the same five
    expect(done).toMatchObject({ status: 'completed', pagesIndexed: 10 });
    expect(done.finishedAt).toBeDefined();
  });

  it('writes the new index beside each live deployment and answers searches from it', async () => {
    const done = await waitDone((await reindex({ full: false })).json().data.jobId as string);
    expect(done.status).toBe('completed');
    for (const kind of ['production', 'version']) {
      const dep = await t.ctx.db.prisma.deployment.findFirst({ where: { projectId, kind }, orderBy: { createdAt: 'desc' } });
      const dir = path.join(t.dataDir, dep!.dir, '_quire', 'search', 'reindex', done.jobId);
      expect(fs.readdirSync(dir).length, kind).toBeGreaterThan(0);
    }
    const before = t.ctx.search.indexes.stats().entries;
    const hits = (await apiSearch(t, projectId, `q=${WORDS.install}`)).json().data as { path: string }[];
    expect(hits[0]).toMatchObject({ path: 'setup' });
    expect(t.ctx.search.indexes.stats().entries).toBe(before + 1); // the generation was loaded
  });

  it('takes again a job a stopped server left processing', async () => {
    const row = await t.ctx.db.prisma.reindexJob.create({ data: { id: 'idx_interrupted000000000', projectId, status: 'processing', full: true, startedAt: new Date() } });
    expect((await reindex({})).statusCode).toBe(409);
    await t.app.reindexRunner.stop();
    await t.app.reindexRunner.start();
    expect(await waitDone(row.id)).toMatchObject({ status: 'completed', pagesIndexed: 10 });
  });

  it('accepts exactly one of several reindex requests made at once', async () => {
    const answers = await Promise.all(Array.from({ length: 5 }, () => reindex({})));
    expect(answers.map((r) => r.statusCode).sort()).toEqual([202, 409, 409, 409, 409]);
    const accepted = answers.find((r) => r.statusCode === 202)!.json().data as Job;
    expect((await waitDone(accepted.jobId)).status).toBe('completed');
  });

  it('answers 404 for an unknown job or project, and needs projects:write to start one', async () => {
    expect((await job('idx_unknown00000000000000')).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'POST', url: '/v1/projects/prj_unknown0000000000000/search/reindex', headers: bearer(t.adminKey), payload: {} })).statusCode).toBe(404);
    const { key } = await createKey(t, ['projects:read', 'search:read']);
    expect((await reindex({}, key)).statusCode).toBe(403);
    expect((await reindex({ full: 'yes' })).statusCode).toBe(400);
  });
});
