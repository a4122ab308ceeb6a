/**
 * @mentions in review comments (tRPC and the desktop outbox, the same services as REST): a member
 * mentioned by e-mail or display name is stored with the comment, listed in the comment's `mentions`
 * and the review's `mentioned`, and finds the review with `requestedFrom` ("Requested from me") and
 * `mentioned`; unknown mentions are plain text. Runs on SQLite, and on PostgreSQL with QUIRE_TEST_DB=postgres.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SETUP } from '../routes/reviews-fixture';
import { syncFixture, type SyncFixture } from './sync-fixture';

describe('mentions in review comments', () => {
  let f: SyncFixture;
  let reviewId: string;
  const path = 'guides/setup.mdx';

  beforeAll(async () => {
    f = await syncFixture();
    await f.app.db.prisma.user.update({ where: { id: f.users.reviewer2.id }, data: { name: 'Rosa Reyes' } });
    const editor = await f.caller('editor');
    const review = await editor.reviews.create({
      projectId: f.projectId,
      review: { title: 'Mentions', reviewers: [f.users.reviewer.id], baseCommit: f.repo.headSha(), changes: [{ path, content: SETUP.replace('Line 3 of', 'Line 3, edited, of') }] },
    });
    reviewId = review.id;
  });
  afterAll(async () => {
    await f?.close();
  });

  it('stores members mentioned by e-mail or display name; unknown mentions stay text', async () => {
    const editor = await f.caller('editor');
    const ids = { projectId: f.projectId, reviewId };
    const first = await editor.reviews.comments.create({ ...ids, comment: { body: 'Could @rosa reyes look at this? Also @nobody@acme.test.' } });
    expect(first.mentions).toEqual([{ id: f.users.reviewer2.id, name: 'Rosa Reyes', email: 'reviewer2@acme.test' }]);
    const reply = await editor.reviews.comments.create({ ...ids, comment: { body: 'And @VIEWER@acme.test for the wording.', parentId: first.id } });
    expect(reply.mentions.map((p) => p.id)).toEqual([f.users.viewer.id]);
    const listed = await editor.reviews.comments.list(ids);
    expect(listed.map((c) => c.mentions.map((p) => p.id))).toEqual([[f.users.reviewer2.id], [f.users.viewer.id]]);
    const review = await editor.reviews.get(ids);
    expect(review.mentioned.map((p) => p.id).sort()).toEqual([f.users.reviewer2.id, f.users.viewer.id].sort());
    expect(await f.app.db.prisma.reviewMention.count({ where: { reviewId } })).toBe(2);
  });

  it('lists the review as requested from a mentioned member, beside requested reviewers, and not from others', async () => {
    const viewer = await f.caller('viewer');
    const titles = async (filters: Record<string, string>) => (await viewer.reviews.list({ projectId: f.projectId, ...filters })).items.map((r) => r.title);
    expect(await titles({ requestedFrom: f.users.reviewer2.id })).toEqual(['Mentions']);
    expect(await titles({ requestedFrom: f.users.reviewer.id })).toEqual(['Mentions']);
    expect(await titles({ mentioned: f.users.reviewer2.id })).toEqual(['Mentions']);
    expect(await titles({ mentioned: f.users.reviewer.id })).toEqual([]);
    expect(await titles({ requestedFrom: f.users.editor.id })).toEqual([]);
  });

  it('stores mentions of a comment written offline (the outbox) once, also when the push is sent again', async () => {
    const reviewer = await f.caller('reviewer');
    const clientId = randomUUID();
    const mutation = { type: 'review.comment' as const, projectId: f.projectId, reviewId, localId: randomUUID(), comment: { body: '@editor@acme.test done, see line 7.' }, revision: 1 };
    const push = () => reviewer.sync.push({ clientId, mutations: [{ seq: 1, mutation }] });
    expect((await push()).results.map((r) => r.ok)).toEqual([true]);
    expect((await push()).results.map((r) => r.ok)).toEqual([true]);
    const editor = await f.caller('editor');
    const mine = await editor.reviews.list({ projectId: f.projectId, requestedFrom: f.users.editor.id });
    expect(mine.items.map((r) => r.id)).toEqual([reviewId]);
    expect(await f.app.db.prisma.reviewMention.count({ where: { reviewId, userId: f.users.editor.id } })).toBe(1);
  });
});
