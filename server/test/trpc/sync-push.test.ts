import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROLE_PERMISSIONS } from '@quire/shared/api/members';
import type { SyncMutation } from '@quire/shared/sync/mutations';
import type { RequestAuth } from '../../src/access/request-auth';
import { createReview } from '../../src/services/reviews';
import { createReviewComment } from '../../src/services/review-comments';
import { syncDerivedId } from '../../src/services/sync-ids';
import { SETUP } from '../routes/reviews-fixture';
import { callerFor, trpcErrorOf } from './trpc-fixtures';
import { seedMember, TEST_PASSWORD } from '../services/identity-fixtures';
import { syncFixture, type SyncFixture } from './sync-fixture';

describe('sync.push (desktop outbox)', () => {
  let f: SyncFixture;
  let base: string;

  beforeAll(async () => {
    f = await syncFixture();
    base = f.repo.headSha();
  });
  afterAll(async () => {
    await f?.close();
  });

  const edited = (line: number, text: string) => SETUP.replace(`Line ${line} of the setup guide.`, text);
  const createMutation = (localId: string, title = 'Offline edit', reviewers: string[] = []): SyncMutation => ({
    type: 'review.create',
    projectId: f.projectId,
    localId,
    review: { title, reviewers, baseCommit: base, changes: [{ path: 'guides/setup.mdx', content: edited(3, 'Line 3, written offline.') }] },
  });
  const commentMutation = (reviewId: string, localId: string, body = 'Is this right?', revision = 1): SyncMutation => ({
    type: 'review.comment',
    projectId: f.projectId,
    reviewId,
    localId,
    comment: { path: 'guides/setup.mdx', lineStart: 7, lineEnd: 7, body },
    revision,
  });
  const counts = async () => ({
    reviews: await f.app.db.prisma.review.count(),
    comments: await f.app.db.prisma.reviewComment.count(),
    audit: await f.app.db.prisma.auditEntry.count(),
  });

  it('creates a review, comments on it and retitles it by its localId, and answers a batch sent again with the same results, changing nothing', async () => {
    const editor = await f.caller('editor');
    const clientId = randomUUID();
    const reviewLocal = randomUUID();
    const batch = {
      clientId,
      mutations: [
        { seq: 1, mutation: createMutation(reviewLocal, 'Offline edit', [f.users.reviewer.id]) },
        { seq: 2, mutation: commentMutation(reviewLocal, randomUUID()) },
        { seq: 3, mutation: { type: 'review.update', projectId: f.projectId, reviewId: reviewLocal, patch: { title: 'Offline edit, retitled' } } as SyncMutation },
      ],
    };
    const first = await editor.sync.push(batch);
    expect(first.lastSeq).toBe(3);
    expect(first.results).toEqual([
      { seq: 1, ok: true, result: { reviewId: expect.stringMatching(/^rev_/), status: 'open' } },
      { seq: 2, ok: true, result: { reviewId: expect.stringMatching(/^rev_/), commentId: expect.stringMatching(/^cmt_/) } },
      { seq: 3, ok: true, result: { reviewId: expect.stringMatching(/^rev_/), status: 'open' } },
    ]);
    const reviewId = (first.results[0] as { result: { reviewId: string } }).result.reviewId;
    expect(first.results.map((r) => (r.ok ? r.result.reviewId : null))).toEqual([reviewId, reviewId, reviewId]);

    const review = await editor.reviews.get({ projectId: f.projectId, reviewId });
    expect(review).toMatchObject({ title: 'Offline edit, retitled', author: { id: f.users.editor.id }, baseCommit: base, commentCount: 1, changes: [{ path: 'guides/setup.mdx', change: 'modified' }] });
    const comments = await editor.reviews.comments.list({ projectId: f.projectId, reviewId });
    expect(comments).toMatchObject([{ body: 'Is this right?', author: { id: f.users.editor.id }, lineStart: 7, outdated: false }]);
    // The same audit entries as the REST routes write.
    const actions = (await f.app.db.prisma.auditEntry.findMany({ where: { projectId: f.projectId, actorId: f.users.editor.id }, orderBy: { createdAt: 'asc' } })).map((e) => e.action).filter((a) => a.startsWith('review'));
    expect(actions).toEqual(['review.created', 'review_comment.created', 'review.updated']);

    const before = await counts();
    const again = await editor.sync.push(batch);
    expect(again).toEqual(first);
    expect(await counts()).toEqual(before);
    expect((await editor.reviews.get({ projectId: f.projectId, reviewId })).commentCount).toBe(1);
  });

  it('creates nothing twice when the server crashed after applying mutations and before recording them', async () => {
    const editor = await f.caller('editor');
    const clientId = randomUUID();
    const reviewLocal = randomUUID();
    const commentLocal = randomUUID();
    const auth: RequestAuth = { orgId: (await f.app.db.prisma.project.findUniqueOrThrow({ where: { id: f.projectId } })).orgId, userId: f.users.editor.id, keyId: null, permissions: [...ROLE_PERMISSIONS.editor], projectId: null, mode: 'live', role: 'editor' };
    // What the first push applied before the crash: the review and the comment, with the ids the sync derives.
    const create = createMutation(reviewLocal, 'Crash test') as Extract<SyncMutation, { type: 'review.create' }>;
    const reviewId = syncDerivedId('review', clientId, reviewLocal);
    await createReview(f.app, auth, f.projectId, create.review, { id: reviewId });
    await createReviewComment(f.app, auth, f.projectId, reviewId, { path: 'guides/setup.mdx', lineStart: 7, lineEnd: 7, body: 'Is this right?' }, { id: syncDerivedId('reviewComment', clientId, commentLocal) });
    const before = await counts();

    const answer = await editor.sync.push({
      clientId,
      mutations: [
        { seq: 1, mutation: create },
        { seq: 2, mutation: commentMutation(reviewLocal, commentLocal) },
      ],
    });
    expect(answer).toEqual({
      lastSeq: 2,
      results: [
        { seq: 1, ok: true, result: { reviewId, status: 'open' } },
        { seq: 2, ok: true, result: { reviewId, commentId: syncDerivedId('reviewComment', clientId, commentLocal) } },
      ],
    });
    expect(await counts()).toEqual(before);
    expect(await f.app.db.prisma.review.count({ where: { title: 'Crash test' } })).toBe(1);
  });

  it('stops at a gap in the sequence and applies nothing after it', async () => {
    const editor = await f.caller('editor');
    const clientId = randomUUID();
    const reviewLocal = randomUUID();
    const answer = await editor.sync.push({ clientId, mutations: [{ seq: 1, mutation: createMutation(reviewLocal, 'Gap test') }, { seq: 3, mutation: commentMutation(reviewLocal, randomUUID(), 'After the gap') }] });
    expect(answer.lastSeq).toBe(1);
    expect(answer.results.map((r) => r.seq)).toEqual([1]);
    expect(await f.app.db.prisma.reviewComment.count({ where: { body: 'After the gap' } })).toBe(0);
    // The client sends the missing one first; then the rest applies.
    const resumed = await editor.sync.push({ clientId, mutations: [{ seq: 2, mutation: commentMutation(reviewLocal, randomUUID(), 'Before the gap') }, { seq: 3, mutation: commentMutation(reviewLocal, randomUUID(), 'After the gap') }] });
    expect(resumed.lastSeq).toBe(3);
    expect(resumed.results.every((r) => r.ok)).toBe(true);
  });

  it('refuses an approval of a review merged meanwhile with a reason naming the merge, records it, and goes on with the batch', async () => {
    const editor = await f.caller('editor');
    const reviewer = await f.caller('reviewer');
    const reviewer2 = await f.caller('reviewer2');
    const review = await editor.reviews.create({ projectId: f.projectId, review: { title: 'To be merged', reviewers: [f.users.reviewer.id, f.users.reviewer2.id], changes: [{ path: 'guides/setup.mdx', content: edited(9, 'Line 9, merged.') }] } });
    // The reviewer approves and comments offline while the other reviewer approves and the editor merges.
    await reviewer2.reviews.update({ projectId: f.projectId, reviewId: review.id, patch: { status: 'approved' } });
    await editor.reviews.merge({ projectId: f.projectId, reviewId: review.id });
    const other = await editor.reviews.create({ projectId: f.projectId, review: { title: 'Still open', reviewers: [f.users.reviewer.id], changes: [{ path: 'index.mdx', content: 'Home.\n' }] } });

    const clientId = randomUUID();
    const approve = (reviewId: string): SyncMutation => ({ type: 'review.setStatus', projectId: f.projectId, reviewId, status: 'approved', revision: 1 });
    const batch = {
      clientId,
      mutations: [
        { seq: 1, mutation: approve(review.id) },
        { seq: 2, mutation: commentMutation(review.id, randomUUID(), 'Late comment') },
        { seq: 3, mutation: approve(other.id) },
      ],
    };
    const answer = await reviewer.sync.push(batch);
    expect(answer.lastSeq).toBe(3);
    expect(answer.results[0]).toEqual({ seq: 1, ok: false, code: 'conflict', message: expect.stringMatching(/^The review was merged by editor at \d{4}-\d\d-\d\d \d\d:\d\d UTC; your approval was kept on this device and not applied\.$/) });
    expect(answer.results[1]).toEqual({ seq: 2, ok: false, code: 'conflict', message: expect.stringMatching(/^The review was merged by editor at .*; your comment was kept on this device and not posted\.$/) });
    expect(answer.results[2]).toEqual({ seq: 3, ok: true, result: { reviewId: other.id, status: 'approved' } });
    expect(await f.app.db.prisma.reviewComment.count({ where: { body: 'Late comment' } })).toBe(0);
    // The refusal is the recorded answer: sent again, the same.
    expect(await reviewer.sync.push(batch)).toEqual(answer);
  });

  it('refuses an approval of an older revision than the current one, and takes one of the current revision', async () => {
    const editor = await f.caller('editor');
    const reviewer = await f.caller('reviewer');
    const review = await editor.reviews.create({ projectId: f.projectId, review: { title: 'Moving target', reviewers: [f.users.reviewer.id], changes: [{ path: 'guides/setup.mdx', content: edited(2, 'First try.') }] } });
    await editor.reviews.update({ projectId: f.projectId, reviewId: review.id, patch: { changes: [{ path: 'guides/setup.mdx', content: edited(2, 'Second try.') }] } });
    const clientId = randomUUID();
    const stale = await reviewer.sync.push({ clientId, mutations: [{ seq: 1, mutation: { type: 'review.setStatus', projectId: f.projectId, reviewId: review.id, status: 'approved', revision: 1 } }] });
    expect(stale.results).toEqual([{ seq: 1, ok: false, code: 'conflict', message: expect.stringMatching(/changed since you reviewed it \(you saw revision 1, it is now at revision 2\)/) }]);
    expect((await editor.reviews.get({ projectId: f.projectId, reviewId: review.id })).status).toBe('open');

    const current = await reviewer.sync.push({ clientId, mutations: [{ seq: 2, mutation: { type: 'review.setStatus', projectId: f.projectId, reviewId: review.id, status: 'approved', revision: 2 } }] });
    expect(current.results).toEqual([{ seq: 2, ok: true, result: { reviewId: review.id, status: 'approved' } }]);
  });

  it('keeps a comment written offline on an older revision anchored to what the person saw: outdated when those lines changed', async () => {
    const editor = await f.caller('editor');
    const reviewer = await f.caller('reviewer');
    const review = await editor.reviews.create({ projectId: f.projectId, review: { title: 'Anchors', reviewers: [f.users.reviewer.id], changes: [{ path: 'guides/setup.mdx', content: edited(6, 'Six, first draft.') }] } });
    await editor.reviews.update({ projectId: f.projectId, reviewId: review.id, patch: { changes: [{ path: 'guides/setup.mdx', content: edited(6, 'Six, second draft.') }] } });
    // Lines 10 and 11 of the file: line 6 of the guide is file line 10 (after the front matter and a blank line).
    const onChanged = { ...commentMutation(review.id, randomUUID(), 'About the first draft'), comment: { path: 'guides/setup.mdx', lineStart: 10, lineEnd: 10, body: 'About the first draft' }, anchorText: 'Six, first draft.' } as SyncMutation;
    const onSame = { ...commentMutation(review.id, randomUUID(), 'About line 7'), comment: { path: 'guides/setup.mdx', lineStart: 11, lineEnd: 11, body: 'About line 7' }, anchorText: 'Line 7 of the setup guide.' } as SyncMutation;
    const answer = await reviewer.sync.push({ clientId: randomUUID(), mutations: [{ seq: 1, mutation: onChanged }, { seq: 2, mutation: onSame }] });
    expect(answer.results.map((r) => r.ok)).toEqual([true, true]);
    const comments = await editor.reviews.comments.list({ projectId: f.projectId, reviewId: review.id });
    expect(comments.map((c) => [c.body, c.revision, c.outdated])).toEqual([
      ['About the first draft', 1, true],
      ['About line 7', 1, false],
    ]);
  });

  it('records refusals of the usual rules (an author approving, an unknown review) and counts a status already reached as applied', async () => {
    const editor = await f.caller('editor');
    const reviewer = await f.caller('reviewer');
    const review = await editor.reviews.create({ projectId: f.projectId, review: { title: 'Rules', reviewers: [f.users.reviewer.id], changes: [{ path: 'index.mdx', content: 'Rules.\n' }] } });
    const own = await editor.sync.push({ clientId: randomUUID(), mutations: [{ seq: 1, mutation: { type: 'review.setStatus', projectId: f.projectId, reviewId: review.id, status: 'approved', revision: 1 } }, { seq: 2, mutation: commentMutation('rev_unknown', randomUUID()) }] });
    expect(own.results).toEqual([
      { seq: 1, ok: false, code: 'forbidden', message: expect.stringMatching(/author/) },
      { seq: 2, ok: false, code: 'not_found', message: expect.stringMatching(/rev_unknown/) },
    ]);
    await reviewer.reviews.update({ projectId: f.projectId, reviewId: review.id, patch: { status: 'changes_requested' } });
    const same = await reviewer.sync.push({ clientId: randomUUID(), mutations: [{ seq: 1, mutation: { type: 'review.setStatus', projectId: f.projectId, reviewId: review.id, status: 'changes_requested', revision: 1 } }] });
    expect(same.results).toEqual([{ seq: 1, ok: true, result: { reviewId: review.id, status: 'changes_requested' } }]);
  });

  it('records a decision pushed by a viewer as refused (a requested reviewer demoted since), whatever the review\'s status', async () => {
    const editor = await f.caller('editor');
    const orgId = (await f.app.db.prisma.project.findUniqueOrThrow({ where: { id: f.projectId } })).orgId;
    const demoted = await seedMember(f.app.db, orgId, 'demoted@acme.test', 'reviewer');
    const session = await callerFor(f.app, (await (await callerFor(f.app)).auth.signIn({ email: 'demoted@acme.test', password: TEST_PASSWORD })).token);
    const open = await editor.reviews.create({ projectId: f.projectId, review: { title: 'Asked before', reviewers: [demoted.id], changes: [{ path: 'index.mdx', content: 'Asked.\n' }] } });
    const approved = await editor.reviews.create({ projectId: f.projectId, review: { title: 'Approved by another', reviewers: [f.users.reviewer.id, demoted.id], changes: [{ path: 'index.mdx', content: 'Approved.\n' }] } });
    await (await f.caller('reviewer')).reviews.update({ projectId: f.projectId, reviewId: approved.id, patch: { status: 'approved' } });
    await f.app.db.prisma.membership.update({ where: { orgId_userId: { orgId, userId: demoted.id } }, data: { role: 'viewer' } });
    const setStatus = (reviewId: string, status: 'approved' | 'changes_requested'): SyncMutation => ({ type: 'review.setStatus', projectId: f.projectId, reviewId, status, revision: 1 });
    const answer = await session.sync.push({
      clientId: randomUUID(),
      mutations: [
        { seq: 1, mutation: setStatus(open.id, 'approved') },
        { seq: 2, mutation: setStatus(open.id, 'changes_requested') },
        { seq: 3, mutation: setStatus(approved.id, 'approved') },
      ],
    });
    const refusal = { ok: false, code: 'forbidden', message: 'Reviewing needs the reviewer role or above; your role (viewer) only reads.' };
    expect(answer).toEqual({ lastSeq: 3, results: [{ seq: 1, ...refusal }, { seq: 2, ...refusal }, { seq: 3, ...refusal }] });
    expect((await editor.reviews.get({ projectId: f.projectId, reviewId: open.id })).status).toBe('open');
  });

  it('reads a client id in any case as one client: its owner goes on in another case, another user cannot take it over', async () => {
    const editor = await f.caller('editor');
    const reviewer = await f.caller('reviewer');
    const lower = randomUUID();
    const mixed = `${lower.slice(0, 18).toUpperCase()}${lower.slice(18)}`;
    const reviewLocal = randomUUID();
    const first = await editor.sync.push({ clientId: mixed, mutations: [{ seq: 1, mutation: createMutation(reviewLocal, 'Mixed case') }] });
    const reviewId = (first.results[0] as { result: { reviewId: string } }).result.reviewId;
    const retitle: SyncMutation = { type: 'review.update', projectId: f.projectId, reviewId: reviewLocal, patch: { title: 'Mixed case, continued' } };
    const next = await editor.sync.push({ clientId: lower, mutations: [{ seq: 2, mutation: retitle }] });
    expect(next).toEqual({ lastSeq: 2, results: [{ seq: 2, ok: true, result: { reviewId, status: 'open' } }] });
    expect((await editor.reviews.get({ projectId: f.projectId, reviewId })).title).toBe('Mixed case, continued');
    const resent = await editor.sync.push({ clientId: lower.toUpperCase(), mutations: [{ seq: 1, mutation: createMutation(reviewLocal, 'Mixed case') }] });
    expect(resent).toEqual({ lastSeq: 2, results: first.results });
    for (const clientId of [lower, lower.toUpperCase()]) {
      const stolen = await trpcErrorOf(reviewer.sync.push({ clientId, mutations: [{ seq: 1, mutation: commentMutation(reviewLocal, randomUUID(), 'Taken over') }] }));
      expect(stolen.code).toBe('FORBIDDEN');
    }
    expect(await f.app.db.prisma.reviewComment.count({ where: { body: 'Taken over' } })).toBe(0);
    const clients = await f.app.db.prisma.syncClient.findMany({
      where: { clientId: { in: [lower, mixed, lower.toUpperCase()] } },
      select: { clientId: true, userId: true, lastSeq: true },
    });
    expect(clients).toEqual([{ clientId: lower, userId: f.users.editor.id, lastSeq: 2 }]);
  });

  it("refuses another user's client id, and bad mutations before applying anything", async () => {
    const editor = await f.caller('editor');
    const reviewer = await f.caller('reviewer');
    const clientId = randomUUID();
    await editor.sync.push({ clientId, mutations: [{ seq: 1, mutation: createMutation(randomUUID(), 'Mine') }] });
    const before = await counts();
    const stolen = await trpcErrorOf(reviewer.sync.push({ clientId, mutations: [{ seq: 2, mutation: createMutation(randomUUID(), 'Not mine') }] }));
    expect(stolen.code).toBe('FORBIDDEN');
    const bad = await trpcErrorOf(
      editor.sync.push({
        clientId,
        mutations: [{ seq: 2, mutation: { ...commentMutation(randomUUID(), randomUUID()), revision: 0 } as unknown as SyncMutation }],
      }),
    );
    expect(bad.code).toBe('BAD_REQUEST');
    expect(await counts()).toEqual(before);
    // A viewer syncs, but opening a review is refused as over REST: a recorded answer.
    const viewer = await (await f.caller('viewer')).sync.push({ clientId: randomUUID(), mutations: [{ seq: 1, mutation: createMutation(randomUUID(), 'Viewer') }] });
    expect(viewer.results).toEqual([{ seq: 1, ok: false, code: 'forbidden', message: expect.stringMatching(/projects:write/) }]);
  });
});
