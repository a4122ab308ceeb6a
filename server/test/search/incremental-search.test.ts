/**
 * An incremental production build deploys its predecessor's search index with a delta of the pages
 * it changed laid over it (builder search-index.ts `writeSearchIndexDelta`): search finds the new
 * text as soon as the build is deployed, with no reindex job afterwards.
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
  it('finds the new text as soon as the incremental build is deployed, without a reindex', async () => {
    repo.commit({ 'guides/intro.mdx': '---\ntitle: Intro\n---\n\nAn introduction to zanzibarite crystals.\n' }, 'edit intro');
    await buildAndDeploy(t, projectId);
    const build = await t.ctx.db.prisma.build.findFirst({ where: { projectId, version: null, isPreview: false }, orderBy: { createdAt: 'desc' } });
    expect(build?.status).toBe('deployed');
    expect(await hitsFor('zanzibarite')).toContain('guides/intro');
    expect(await t.ctx.db.prisma.reindexJob.count({ where: { projectId } })).toBe(0);
  });
});
