import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, type TestApp } from '../helpers/app';
import type { FixtureRepo } from '../helpers/git-repo';
import { createProject, waitForStatus } from './builds/build-fixture';
import { gitIn, memberWithKey, reviewRepo, reviewsApi, SETUP } from './reviews-fixture';

let t: TestApp;
let repo: FixtureRepo;
let project: { id: string; slug: string };
let api: ReturnType<typeof reviewsApi>;
let reviewer: { userId: string; key: string };
let base: string;
let reviewId: string;
let owner: { id: string; name: string; email: string };

const site = (url: string, host: string) => t.app.inject({ url, headers: { host } });
const hostOf = (url: string) => new URL(url).host;

/** A page of a review's preview (private by default) as the reviewer opens it: a member pass for `url`, then the page it lands on with its cookie. */
async function asReviewer(url: string) {
  const pass = await t.app.inject({ method: 'POST', url: `/v1/projects/${project.id}/preview-passes`, headers: bearer(reviewer.key), payload: { url } });
  expect(pass.statusCode).toBe(201);
  const opened = await site(new URL(pass.json().data.url as string).pathname, hostOf(url));
  expect(opened.statusCode).toBe(302);
  const cookie = String(opened.headers['set-cookie']).split(';')[0]!;
  return t.app.inject({ url: String(opened.headers.location), headers: { host: hostOf(url), cookie } });
}
const withLine = (n: number, text: string) => SETUP.replace(`Line ${n} of the setup guide.`, text);

beforeAll(async () => {
  t = await createTestApp({ runJobs: true });
  repo = reviewRepo();
  base = repo.headSha();
  project = await createProject(t, repo, 'acme');
  api = reviewsApi(t, project.id);
  reviewer = await memberWithKey(t, 'rita@acme.test', 'reviewer', ['projects:read', 'projects:write']);
  const membership = await t.ctx.db.prisma.membership.findFirstOrThrow({ where: { orgId: t.app.bootstrap.orgId!, role: 'owner' }, include: { user: true } });
  owner = { id: membership.user.id, name: membership.user.name, email: membership.user.email };
});
afterAll(async () => {
  await t.close();
  repo.cleanup();
});

describe('a review of a change set, end to end', () => {
  it('opens the review, builds its preview and serves the changed pages there', async () => {
    const res = await api.create({
      title: 'Better setup',
      description: 'Clearer first steps',
      reviewers: [reviewer.userId],
      changes: [
        { path: 'guides/setup.mdx', content: withLine(3, 'Line 3 REVISED in review.') },
        { path: 'guides\\new.mdx', content: '---\ntitle: New\n---\n\nA NEW page from the review.\n' },
      ],
    });
    expect(res.statusCode).toBe(201);
    const review = res.json().data;
    reviewId = review.id;
    const previewUrl = `http://review-${review.id.slice(4).toLowerCase()}--acme-docs.localhost:4000/`;
    expect(review).toMatchObject({
      id: expect.stringMatching(/^rev_/),
      title: 'Better setup',
      description: 'Clearer first steps',
      status: 'open',
      author: owner,
      reviewers: [{ id: reviewer.userId, name: 'Member rita@acme.test', email: 'rita@acme.test' }],
      baseCommit: base,
      branch: 'main',
      revision: 1,
      previewUrl,
      previewBuildId: expect.stringMatching(/^bld_/),
      commentCount: 0,
      changes: [
        { path: 'guides/new.mdx', change: 'added', previewUrl: `${previewUrl}guides/new` },
        { path: 'guides/setup.mdx', change: 'modified', previewUrl: `${previewUrl}guides/setup` },
      ],
    });

    const build = await waitForStatus(t, project.id, review.previewBuildId, ['deployed', 'failed'], 60_000);
    expect(build).toMatchObject({ status: 'deployed', isPreview: true, trigger: 'review', commitSha: base, url: previewUrl });
    expect((await site('/guides/setup', hostOf(previewUrl))).statusCode).toBe(401);
    expect((await asReviewer(review.changes[1].previewUrl)).body).toContain('Line 3 REVISED in review.');
    expect((await asReviewer(review.changes[0].previewUrl)).body).toContain('A NEW page from the review.');
    // The repository itself is untouched by a preview.
    expect(repo.headSha()).toBe(base);

    const audit = await t.app.inject({ url: `/v1/projects/${project.id}/audit-log`, headers: bearer(t.adminKey) });
    expect(audit.json().data.map((e: { action: string }) => e.action)).toContain('review.created');
  }, 90_000);

  it('takes a requested reviewer\'s comment anchored to lines of the current revision', async () => {
    // File line 11 reads "Line 7 of the setup guide."; line 7 is the revised "Line 3".
    const res = await api.comment(reviewId, { path: 'guides/setup.mdx', lineStart: 10, lineEnd: 11, body: 'Are lines 6 and 7 right?' }, reviewer.key);
    expect(res.statusCode).toBe(201);
    const comment = res.json().data;
    expect(comment).toMatchObject({ reviewId, parentId: null, path: 'guides/setup.mdx', lineStart: 10, lineEnd: 11, revision: 1, outdated: false, author: { id: reviewer.userId } });
    const answer = await api.comment(reviewId, { path: 'guides/setup.mdx', lineStart: 10, lineEnd: 11, body: 'Yes.', parentId: comment.id });
    expect(answer.json().data).toMatchObject({ parentId: comment.id, author: { id: owner.id } });
    const other = await api.comment(reviewId, { path: 'guides/setup.mdx', lineStart: 7, lineEnd: 7, body: 'Good wording.' }, reviewer.key);
    expect(other.statusCode).toBe(201);
    expect((await api.get(reviewId)).json().data.commentCount).toBe(3);
    const listed = (await api.comments(reviewId, reviewer.key)).json().data;
    expect(listed.map((c: { body: string }) => c.body)).toEqual(['Are lines 6 and 7 right?', 'Yes.', 'Good wording.']);
  });

  it('refuses the author approving their own review (403) and moves the state machine does not have (409)', async () => {
    const own = await api.patch(reviewId, { status: 'approved' });
    expect(own.statusCode).toBe(403);
    const merge = await api.patch(reviewId, { status: 'merged' });
    expect(merge.statusCode).toBe(409);
    expect(merge.json().error.message).toMatch(/"open".*"merged"/);
    expect(merge.json().error.details).toMatchObject({ from: 'open', to: 'merged' });
    expect((await api.get(reviewId)).json().data.status).toBe('open');
  });

  it('a new change set raises the revision, reopens, rebuilds the preview and outdates comments on changed lines', async () => {
    const requested = await api.patch(reviewId, { status: 'changes_requested' }, reviewer.key);
    expect(requested.json().data.status).toBe('changes_requested');
    const before = (await api.get(reviewId)).json().data;
    const res = await api.patch(reviewId, {
      changes: [
        { path: 'guides/setup.mdx', content: withLine(3, 'Line 3 REVISED in review.').replace('Line 7 of the setup guide.', 'Line 7 CHANGED too.') },
        { path: 'guides/new.mdx', content: '---\ntitle: New\n---\n\nA NEW page, second revision.\n' },
      ],
    });
    expect(res.statusCode).toBe(200);
    const review = res.json().data;
    expect(review).toMatchObject({ status: 'open', revision: 2 });
    expect(review.previewBuildId).not.toBe(before.previewBuildId);
    const comments = (await api.comments(reviewId)).json().data;
    // Lines 10-11 now read otherwise; line 7 reads as it did.
    expect(comments.map((c: { outdated: boolean }) => c.outdated)).toEqual([true, true, false]);
    const build = await waitForStatus(t, project.id, review.previewBuildId, ['deployed', 'failed'], 60_000);
    expect(build.status).toBe('deployed');
    expect((await asReviewer(`${review.previewUrl}guides/new`)).body).toContain('second revision');
  }, 90_000);

  it('lets the requested reviewer approve, then merges: commit by the author pushed, production deployed with the change', async () => {
    const approved = await api.patch(reviewId, { status: 'approved' }, reviewer.key);
    expect(approved.statusCode).toBe(200);
    expect(approved.json().data.status).toBe('approved');

    const res = await api.patch(reviewId, { status: 'merged' });
    expect(res.statusCode).toBe(200);
    const review = res.json().data;
    expect(review).toMatchObject({ status: 'merged', mergeCommit: expect.stringMatching(/^[0-9a-f]{40}$/) });
    expect(repo.headSha()).toBe(review.mergeCommit);
    expect(gitIn(repo, ['log', '-1', '--format=%an <%ae>|%s', review.mergeCommit])).toBe(`${owner.name} <${owner.email}>|Better setup`);
    expect(gitIn(repo, ['show', `${review.mergeCommit}:guides/new.mdx`])).toContain('second revision');

    const builds = (await t.app.inject({ url: `/v1/projects/${project.id}/builds`, headers: bearer(t.adminKey) })).json().data;
    const production = builds.find((b: { isPreview: boolean; trigger: string }) => !b.isPreview && b.trigger === 'review');
    expect(production).toMatchObject({ commitSha: review.mergeCommit, branch: 'main' });
    const done = await waitForStatus(t, project.id, production.id, ['deployed', 'failed'], 60_000);
    expect(done.status).toBe('deployed');
    expect((await site('/guides/setup', 'acme-docs.localhost:4000')).body).toContain('Line 7 CHANGED too.');

    const again = await api.patch(reviewId, { status: 'open' });
    expect(again.statusCode).toBe(409);
    const audit = (await t.app.inject({ url: `/v1/projects/${project.id}/audit-log`, headers: bearer(t.adminKey) })).json().data;
    expect(audit.map((e: { action: string }) => e.action)).toEqual(expect.arrayContaining(['review.merged', 'review.updated', 'review_comment.created']));
  }, 120_000);

  it('answers a merge conflict with 409 and the paths, leaving the repository and the review as they were', async () => {
    const res = await api.create({ title: 'Conflicting', baseCommit: base, reviewers: [reviewer.userId], changes: [{ path: 'guides/setup.mdx', content: withLine(7, 'Line 7 OTHERWISE.') }] });
    expect(res.statusCode).toBe(201);
    const id = res.json().data.id;
    await waitForStatus(t, project.id, res.json().data.previewBuildId, ['deployed', 'failed'], 60_000);
    expect((await api.patch(id, { status: 'approved' }, reviewer.key)).statusCode).toBe(200);
    const head = repo.headSha();
    const merge = await api.patch(id, { status: 'merged' });
    expect(merge.statusCode).toBe(409);
    expect(merge.json().error).toMatchObject({ code: 'conflict', details: { paths: ['guides/setup.mdx'] } });
    expect(repo.headSha()).toBe(head);
    expect(gitIn(repo, ['status', '--porcelain'])).toBe('');
    expect((await api.get(id)).json().data).toMatchObject({ status: 'approved' });
    expect((await api.get(id)).json().data.mergeCommit).toBeUndefined();
  }, 90_000);
});
