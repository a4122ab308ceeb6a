import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SETUP } from '../routes/reviews-fixture';
import { trpcErrorOf } from './trpc-fixtures';
import { syncFixture, type SyncFixture } from './sync-fixture';

describe('sync.pull (desktop offline copy)', () => {
  let f: SyncFixture;
  const anHourAgo = () => new Date(Date.now() - 3_600_000);

  beforeAll(async () => {
    f = await syncFixture();
  });
  afterAll(async () => {
    await f?.close();
  });

  it('returns every review with its comments and the content of each changed file before and after', async () => {
    const editor = await f.caller('editor');
    const reviewer = await f.caller('reviewer');
    const edited = SETUP.replace('Line 4 of the setup guide.', 'Line 4, edited.');
    const review = await editor.reviews.create({
      projectId: f.projectId,
      review: { title: 'Snapshot', reviewers: [f.users.reviewer.id], changes: [{ path: 'guides/setup.mdx', content: edited }, { path: 'guides/new.md', content: '# New\n' }, { path: 'index.mdx', deleted: true }] },
    });
    await reviewer.reviews.comments.create({ projectId: f.projectId, reviewId: review.id, comment: { path: 'guides/setup.mdx', lineStart: 8, lineEnd: 8, body: 'Good.' } });

    const pulled = await reviewer.sync.pull({ cursor: null });
    expect(typeof pulled.cursor).toBe('string');
    expect(pulled.removedReviewIds).toEqual([]);
    const snapshot = pulled.reviews.find((r) => r.review.id === review.id);
    expect(snapshot?.review).toMatchObject({ title: 'Snapshot', status: 'open', commentCount: 1, revision: 1 });
    expect(snapshot?.comments).toMatchObject([{ body: 'Good.', author: { id: f.users.reviewer.id }, lineStart: 8, outdated: false }]);
    expect(snapshot?.files).toEqual([
      { path: 'guides/new.md', change: 'added', before: null, after: '# New\n' },
      { path: 'guides/setup.mdx', change: 'modified', before: SETUP, after: edited },
      { path: 'index.mdx', change: 'deleted', before: '---\ntitle: Welcome\n---\n\n# Welcome\n\nHome page.\n', after: null },
    ]);
  });

  it('honours the cursor: an unchanged review is not sent again, one whose only change is a new comment is', async () => {
    const editor = await f.caller('editor');
    const reviewer = await f.caller('reviewer');
    const quiet = await editor.reviews.create({ projectId: f.projectId, review: { title: 'Quiet', changes: [{ path: 'a.md', content: 'a\n' }] } });
    const talked = await editor.reviews.create({ projectId: f.projectId, review: { title: 'Talked about', reviewers: [f.users.reviewer.id], changes: [{ path: 'b.md', content: 'b\n' }] } });
    // Both last changed an hour ago (beyond the cursor's overlap window).
    await f.app.db.prisma.review.updateMany({ where: {}, data: { updatedAt: anHourAgo() } });

    const first = await reviewer.sync.pull({ cursor: null });
    expect(first.reviews.map((r) => r.review.id)).toEqual(expect.arrayContaining([quiet.id, talked.id]));
    const nothing = await reviewer.sync.pull({ cursor: first.cursor });
    expect(nothing.reviews).toEqual([]);

    await reviewer.reviews.comments.create({ projectId: f.projectId, reviewId: talked.id, comment: { path: 'b.md', lineStart: 1, lineEnd: 1, body: 'Why b?' } });
    const next = await reviewer.sync.pull({ cursor: nothing.cursor });
    expect(next.reviews.map((r) => r.review.id)).toEqual([talked.id]);
    expect(next.reviews[0]?.comments.map((c) => c.body)).toEqual(['Why b?']);

    // A status move counts as a change too.
    await f.app.db.prisma.review.updateMany({ where: {}, data: { updatedAt: anHourAgo() } });
    const settled = await reviewer.sync.pull({ cursor: null });
    await editor.reviews.update({ projectId: f.projectId, reviewId: quiet.id, patch: { status: 'closed' } });
    const closed = await reviewer.sync.pull({ cursor: settled.cursor });
    expect(closed.reviews.map((r) => [r.review.id, r.review.status])).toEqual([[quiet.id, 'closed']]);
  });

  it('pulls only the projects asked for, refuses another organization\'s project and a made-up cursor', async () => {
    const reviewer = await f.caller('reviewer');
    const only = await reviewer.sync.pull({ cursor: null, projectIds: [f.projectId] });
    expect(only.reviews.length).toBeGreaterThan(0);
    expect(only.reviews.every((r) => r.review.previewUrl.includes('docs'))).toBe(true);
    expect((await trpcErrorOf(reviewer.sync.pull({ cursor: null, projectIds: [f.foreignProjectId] }))).code).toBe('NOT_FOUND');
    const bad = await trpcErrorOf(reviewer.sync.pull({ cursor: 'not-a-cursor' }));
    expect(bad.code).toBe('BAD_REQUEST');
    expect(bad.message).toMatch(/cursor/);
  });
});
