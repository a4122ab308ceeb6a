import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, type TestApp } from '../helpers/app';
import type { FixtureRepo } from '../helpers/git-repo';
import { createProject, waitForStatus } from '../routes/builds/build-fixture';
import { gitIn, memberWithKey, reviewRepo, reviewsApi, SETUP } from '../routes/reviews-fixture';
import { inMs, postSchedule, waitForSchedule } from './schedule-fixture';

let t: TestApp;
let repo: FixtureRepo;
let projectId: string;
let api: ReturnType<typeof reviewsApi>;
let reviewer: { userId: string; key: string };

const withLine = (n: number, text: string) => SETUP.replace(`Line ${n} of the setup guide.`, text);

beforeAll(async () => {
  t = await createTestApp({ runJobs: true });
  repo = reviewRepo();
  projectId = (await createProject(t, repo, 'merge-later')).id;
  api = reviewsApi(t, projectId);
  reviewer = await memberWithKey(t, 'rita@acme.test', 'reviewer', ['projects:read', 'projects:write']);
});
afterAll(async () => {
  await t?.close();
  repo?.cleanup();
});

/** Opens a review of `content` for guides/setup.mdx on `baseCommit` and has the reviewer approve it. */
async function approvedReview(title: string, content: string, baseCommit = repo.headSha()): Promise<string> {
  const res = await api.create({ title, baseCommit, reviewers: [reviewer.userId], changes: [{ path: 'guides/setup.mdx', content }] });
  expect(res.statusCode).toBe(201);
  const id = res.json().data.id as string;
  expect((await api.patch(id, { status: 'approved' }, reviewer.key)).statusCode).toBe(200);
  return id;
}

describe('a scheduled review merge, end to end', () => {
  it('merges the approved review at its time, pushes the commit and deploys it to production', async () => {
    const base = repo.headSha();
    const reviewId = await approvedReview('Publish on Monday', withLine(2, 'Line 2 PUBLISHED LATER.'));
    const at = inMs(1_500);
    const s = (await postSchedule(t.app, t.adminKey, projectId, { reviewId, at })).json().data;
    expect((await api.get(reviewId)).json().data.status).toBe('approved');
    expect(repo.headSha()).toBe(base);

    const done = await waitForSchedule(t.app, t.adminKey, projectId, s.id, ['done', 'failed'], 60_000);
    expect(done).toMatchObject({ status: 'done', error: null, late: false, buildId: expect.stringMatching(/^bld_/) });
    const review = (await api.get(reviewId)).json().data;
    expect(review.status).toBe('merged');
    expect(repo.headSha()).toBe(review.mergeCommit);
    expect(gitIn(repo, ['log', '-1', '--format=%s', review.mergeCommit])).toBe('Publish on Monday');
    const build = await waitForStatus(t, projectId, done.buildId as string, ['deployed', 'failed'], 60_000);
    expect(build).toMatchObject({ status: 'deployed', isPreview: false, commitSha: review.mergeCommit });
    const page = await t.app.inject({ url: '/guides/setup', headers: { host: 'merge-later-docs.localhost:4000' } });
    expect(page.body).toContain('PUBLISHED LATER');
  }, 120_000);

  it('fails the schedule with the conflicting paths when the merge conflicts, leaving the repository alone', async () => {
    const stale = repo.headSha();
    repo.commit({ 'guides/setup.mdx': withLine(5, 'Line 5 changed on main.') }, 'edit on main');
    const reviewId = await approvedReview('Stale edit', withLine(5, 'Line 5 changed in review.'), stale);
    const head = repo.headSha();
    const s = (await postSchedule(t.app, t.adminKey, projectId, { reviewId, at: inMs(500) })).json().data;
    const failed = await waitForSchedule(t.app, t.adminKey, projectId, s.id, ['done', 'failed'], 60_000);
    expect(failed).toMatchObject({ status: 'failed', buildId: null, error: expect.stringContaining('guides/setup.mdx') });
    expect(repo.headSha()).toBe(head);
    expect((await api.get(reviewId)).json().data.status).toBe('approved');
    const audit = (await t.app.inject({ url: `/v1/projects/${projectId}/audit-log?limit=100`, headers: bearer(t.adminKey) })).json().data;
    expect(audit.find((e: { action: string; resource: { id: string } }) => e.action === 'schedule.failed' && e.resource.id === s.id)).toBeTruthy();
  }, 120_000);
});
