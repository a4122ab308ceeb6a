/**
 * An incremental production build deploys with its predecessor's search index (so the new text is
 * served at once) and queues an incremental reindex, after which search finds the new text
 * (builder search-index.ts `carryPreviousSearchIndex`, search/reindex-jobs.ts `requestFollowUpReindex`).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app';
import type { FixtureRepo } from '../helpers/git-repo';
import { apiSearch, deploySearchProject, searchDocsRepo } from '../routes/search-fixture';
import { buildAndDeploy } from '../sites/gate-fixture';

let t: TestApp;
let repo: FixtureRepo;
let projectId: string;

beforeAll(async () => {
  t = await createTestApp({ runJobs: true });
  repo = searchDocsRepo();
  ({ projectId } = await deploySearchProject(t, repo, 'search-follow-up'));
}, 120_000);

afterAll(async () => {
  await t?.close();
  repo?.cleanup();
});

const hitsFor = async (word: string) => ((await apiSearch(t, projectId, `q=${word}`)).json().data as Array<{ path: string }>).map((h) => h.path);

describe('search after an incremental build', () => {
  it('serves the carried index at once, then the reindex it queued finds the new text', async () => {
    repo.commit({ 'guides/intro.mdx': '---\ntitle: Intro\n---\n\nAn introduction to zanzibarite crystals.\n' }, 'edit intro');
    await buildAndDeploy(t, projectId);
    const build = await t.ctx.db.prisma.build.findFirst({ where: { projectId, version: null, isPreview: false }, orderBy: { createdAt: 'desc' } });
    expect(build?.status).toBe('deployed');
    const job = await t.ctx.db.prisma.reindexJob.findFirst({ where: { projectId }, orderBy: { createdAt: 'desc' } });
    expect(job).toMatchObject({ full: false });

    const until = Date.now() + 30_000;
    let paths: string[] = [];
    while (Date.now() < until) {
      paths = await hitsFor('zanzibarite');
      if (paths.length > 0) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(paths).toContain('guides/intro');
    const done = await t.ctx.db.prisma.reindexJob.findUnique({ where: { id: job!.id } });
    expect(done?.status).toBe('completed');
  });
});
