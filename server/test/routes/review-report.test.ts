/**
 * The pre-merge report over REST and tRPC (shared/src/collab/merge-report.ts): a change set that adds
 * a broken link, a repeated word and a redirect is reported so, the same over tRPC; the OpenAPI document lists the route.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, type TestApp } from '../helpers/app';
import type { FixtureRepo } from '../helpers/git-repo';
import { createProject } from './builds/build-fixture';
import { memberWithKey, reviewRepo, reviewsApi, SETUP } from './reviews-fixture';
import { seedMember, TEST_PASSWORD } from '../services/identity-fixtures';
import { callerFor } from '../trpc/trpc-fixtures';

let t: TestApp;
let repo: FixtureRepo;
let project: { id: string };
let api: ReturnType<typeof reviewsApi>;

beforeAll(async () => {
  t = await createTestApp();
  repo = reviewRepo();
  project = await createProject(t, repo, 'report');
  api = reviewsApi(t, project.id);
});
afterAll(async () => {
  await t.close();
  repo.cleanup();
});

const report = (id: string, key = t.adminKey) => t.app.inject({ url: `/v1/projects/${project.id}/reviews/${id}/report`, headers: bearer(key) });

describe('GET /reviews/{reviewId}/report', () => {
  it('lists the broken link and the lint finding a change set introduces, the pages, navigation and redirects it changes', async () => {
    const setup = SETUP.replace('Line 3 of the setup guide.', 'Line 3 links to [the API](/api/nowhere) and and more.');
    const docsJson = JSON.stringify({
      name: 'Acme Docs',
      navigation: { groups: [{ group: 'Start', pages: ['index'] }, { group: 'Guides', pages: ['guides/setup', 'guides/new'] }] },
      redirects: [{ source: '/setup', destination: '/guides/setup' }],
    });
    const created = await api.create({
      title: 'Guides',
      changes: [
        { path: 'guides/setup.mdx', content: setup },
        { path: 'guides/new.mdx', content: '---\ntitle: A new guide\n---\n\nSee [setup](/guides/setup).\n' },
        { path: 'docs.json', content: docsJson },
      ],
    });
    expect(created.statusCode).toBe(201);
    const review = created.json().data;

    const res = await report(review.id);
    expect(res.statusCode).toBe(200);
    const data = res.json().data;
    expect(data).toMatchObject({ reviewId: review.id, revision: 1, baseCommit: review.baseCommit, previewUrl: review.previewUrl });
    expect(data.pages).toEqual([
      { path: 'guides/new.mdx', page: 'guides/new', change: 'added', title: 'A new guide' },
      { path: 'guides/setup.mdx', page: 'guides/setup', change: 'modified', title: 'Setup' },
    ]);
    expect(data.brokenLinks).toHaveLength(1);
    expect(data.brokenLinks[0]).toMatchObject({ path: 'guides/setup.mdx', line: 7, ruleId: 'links/broken' });
    expect(data.brokenLinks[0].message).toContain('/api/nowhere');
    expect(data.lint.added).toEqual([expect.objectContaining({ path: 'guides/setup.mdx', line: 7, ruleId: 'prose/repeated-words' })]);
    expect(data.lint.fixed).toEqual([]);
    expect(data.navigation).toEqual([
      { page: 'guides/new', change: 'added', from: null, to: ['Guides'] },
      { page: 'guides/setup', change: 'moved', from: ['Start'], to: ['Guides'] },
    ]);
    expect(data.redirects).toEqual({ added: [{ source: '/setup', destination: '/guides/setup', permanent: true }], removed: [] });

    // the same report on a second read (kept per revision), and through tRPC (`reviews.report`) for a signed-in member
    expect((await report(review.id)).json().data).toEqual(data);
    await seedMember(t.ctx.db, t.app.bootstrap.orgId!, 'reader@report.test', 'viewer');
    const { token } = await (await callerFor(t.ctx)).auth.signIn({ email: 'reader@report.test', password: TEST_PASSWORD });
    expect(await (await callerFor(t.ctx, token)).reviews.report({ projectId: project.id, reviewId: review.id })).toEqual(data);
  });

  it('answers 404 for an unknown review and 401 without a key', async () => {
    expect((await report('rev_nope')).statusCode).toBe(404);
    expect((await t.app.inject({ url: `/v1/projects/${project.id}/reviews/rev_nope/report` })).statusCode).toBe(401);
  });

  it('is readable with projects:read and documented in the OpenAPI document', async () => {
    const reader = await memberWithKey(t, 'viewer@report.test', 'viewer', ['projects:read']);
    const review = (await api.create({ title: 'Small', changes: [{ path: 'index.mdx', content: '---\ntitle: Welcome\n---\n\n# Welcome\n\nHome.\n' }] })).json().data;
    expect((await report(review.id, reader.key)).statusCode).toBe(200);
    const doc = (await t.app.inject({ url: '/v1/openapi.json' })).json();
    expect(doc.paths['/v1/projects/{projectId}/reviews/{reviewId}/report'].get.summary).toBe('Get the pre-merge report of a review');
  });
});
