/**
 * Review threads as reviewers use them (tRPC and the desktop outbox, the same services as REST):
 * review-level comments beside line comments and replies to both; resolving threads, the review's
 * unresolved count and the project rule that a merge waits for resolved threads; suggested changes
 * applied as a new revision (one, or several at once), and an outdated suggestion refused with the
 * reason; every revision kept for comparing. Runs on SQLite, and on PostgreSQL with QUIRE_TEST_DB=postgres.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SyncMutation } from '@quire/shared/sync/mutations';
import { SETUP } from '../routes/reviews-fixture';
import { trpcErrorOf } from './trpc-fixtures';
import { syncFixture, type SyncFixture } from './sync-fixture';

describe('review threads, resolution and suggestions', () => {
  let f: SyncFixture;
  let base: string;
  const edited = (line: number, text: string) => SETUP.replace(`Line ${line} of the setup guide.`, text);
  const path = 'guides/setup.mdx';
  // SETUP has four front matter lines, so "Line n of the setup guide." is file line n + 4.

  beforeAll(async () => {
    f = await syncFixture();
    base = f.repo.headSha();
  });
  afterAll(async () => {
    await f?.close();
  });

  async function openReview(title: string, content = edited(3, 'Line 3, edited.')): Promise<string> {
    const editor = await f.caller('editor');
    const review = await editor.reviews.create({
      projectId: f.projectId,
      review: { title, reviewers: [f.users.reviewer.id], baseCommit: base, changes: [{ path, content }] },
    });
    return review.id;
  }

  it('takes a review-level comment beside line comments, and replies to both', async () => {
    const reviewId = await openReview('Review-level comments');
    const reviewer = await f.caller('reviewer');
    const editor = await f.caller('editor');
    const ids = { projectId: f.projectId, reviewId };
    const general = await reviewer.reviews.comments.create({ ...ids, comment: { body: 'Overall this reads well.' } });
    expect(general).toMatchObject({ path: null, lineStart: null, lineEnd: null, parentId: null, revision: 1, outdated: false, resolved: false });
    expect(general.suggestion).toBeNull();
    const onLine = await reviewer.reviews.comments.create({ ...ids, comment: { path, lineStart: 7, lineEnd: 7, body: 'Is this line right?' } });
    const replyGeneral = await editor.reviews.comments.create({ ...ids, comment: { body: 'Thanks!', parentId: general.id } });
    const replyLine = await editor.reviews.comments.create({ ...ids, comment: { body: 'Yes, checked.', parentId: onLine.id } });
    expect(replyGeneral).toMatchObject({ parentId: general.id, path: null, lineStart: null });
    // An answer without a path joins its thread where it is.
    expect(replyLine).toMatchObject({ parentId: onLine.id, path, lineStart: 7, lineEnd: 7 });
    const listed = await reviewer.reviews.comments.list(ids);
    expect(listed.map((c) => c.body)).toEqual(['Overall this reads well.', 'Is this line right?', 'Thanks!', 'Yes, checked.']);
    expect((await reviewer.reviews.get(ids)).unresolvedCount).toBe(2);

    // A path without lines is neither a line comment nor a review-level one.
    const half = await trpcErrorOf(reviewer.reviews.comments.create({ ...ids, comment: { path, body: 'Where?' } }));
    expect(half.code).toBe('BAD_REQUEST');
    expect(half.message).toMatch(/lineStart/);
    expect(await f.app.db.prisma.reviewComment.count({ where: { reviewId } })).toBe(4);
  });

  it('resolves and unresolves threads (also from the outbox), and a project requiring resolved threads refuses the merge until they are', async () => {
    const reviewId = await openReview('Resolve before merge');
    const ids = { projectId: f.projectId, reviewId };
    const reviewer = await f.caller('reviewer');
    const editor = await f.caller('editor');
    const first = await reviewer.reviews.comments.create({ ...ids, comment: { body: 'Please add a summary.' } });
    const second = await reviewer.reviews.comments.create({ ...ids, comment: { path, lineStart: 6, lineEnd: 6, body: 'Typo here.' } });
    const reply = await editor.reviews.comments.create({ ...ids, comment: { body: 'Done.', parentId: first.id } });

    // Resolving through an answer resolves its thread; twice changes nothing.
    const resolved = await editor.reviews.comments.resolve({ ...ids, commentId: reply.id, patch: { resolved: true } });
    expect(resolved).toMatchObject({ id: first.id, resolved: true, resolvedBy: { id: f.users.editor.id } });
    await editor.reviews.comments.resolve({ ...ids, commentId: first.id, patch: { resolved: true } });
    expect((await editor.reviews.get(ids)).unresolvedCount).toBe(1);
    const again = await editor.reviews.comments.resolve({ ...ids, commentId: first.id, patch: { resolved: false } });
    expect(again).toMatchObject({ resolved: false, resolvedBy: null });
    expect((await editor.reviews.get(ids)).unresolvedCount).toBe(2);

    // The project requires resolved threads: an approved review with open threads is not merged.
    const project = await f.app.db.prisma.project.findUniqueOrThrow({ where: { id: f.projectId } });
    const requiring = JSON.stringify({ ...JSON.parse(project.settings), requireResolvedThreads: true });
    await f.app.db.prisma.project.update({ where: { id: f.projectId }, data: { settings: requiring } });
    f.app.events.emit('project.changed', { projectId: f.projectId, slug: project.slug });
    expect((await editor.reviews.get(ids)).resolvedThreadsRequired).toBe(true);
    await reviewer.reviews.update({ ...ids, patch: { status: 'approved' } });
    const refused = await trpcErrorOf(editor.reviews.merge(ids));
    expect(refused.code).toBe('CONFLICT');
    expect(refused.message).toBe('2 threads are unresolved; this project requires every thread resolved before merge.');
    expect((await editor.reviews.get(ids)).status).toBe('approved');

    // Resolving from the desktop outbox (a comment named by its server id) counts the same.
    const push = await reviewer.sync.push({
      clientId: randomUUID(),
      mutations: [
        { seq: 1, mutation: { type: 'review.resolveThread', projectId: f.projectId, reviewId, commentId: first.id, resolved: true } },
        { seq: 2, mutation: { type: 'review.resolveThread', projectId: f.projectId, reviewId, commentId: second.id, resolved: true } },
      ],
    });
    expect(push.results.map((r) => r.ok)).toEqual([true, true]);
    expect((await editor.reviews.get(ids)).unresolvedCount).toBe(0);
    const actions = (await f.app.db.prisma.auditEntry.findMany({ where: { projectId: f.projectId, resourceId: first.id } })).map((e) => e.action);
    expect(actions).toEqual(expect.arrayContaining(['review_comment.resolved', 'review_comment.unresolved']));
    await f.app.db.prisma.project.update({ where: { id: f.projectId }, data: { settings: project.settings } });
    f.app.events.emit('project.changed', { projectId: f.projectId, slug: project.slug });
  });

  it('applies a suggestion as a new revision and resolves its thread; the kept revisions differ only there', async () => {
    const reviewId = await openReview('Suggestions');
    const ids = { projectId: f.projectId, reviewId };
    const reviewer = await f.caller('reviewer');
    const editor = await f.caller('editor');
    const suggestion = await reviewer.reviews.comments.create({
      ...ids,
      comment: { path, lineStart: 9, lineEnd: 9, body: 'Shorter?', suggestion: { lines: { start: 9, end: 9 }, text: 'Line 5, shorter.' } },
    });
    expect(suggestion.suggestion).toEqual({ lines: { start: 9, end: 9 }, text: 'Line 5, shorter.', applied: false, appliedAt: null, original: 'Line 5 of the setup guide.' });

    const review = await editor.reviews.applySuggestions({ ...ids, body: { commentIds: [suggestion.id] } });
    expect(review).toMatchObject({ revision: 2, status: 'open', unresolvedCount: 0 });
    const comments = await editor.reviews.comments.list(ids);
    expect(comments.find((c) => c.id === suggestion.id)).toMatchObject({ resolved: true, outdated: false, suggestion: { applied: true } });
    expect(Date.parse(comments.find((c) => c.id === suggestion.id)!.suggestion!.appliedAt!)).toBeGreaterThan(Date.parse(suggestion.createdAt) - 1);
    const revisions = await editor.reviews.revisions(ids);
    expect(revisions.map((r) => r.revision)).toEqual([1, 2]);
    const [one, two] = revisions.map((r) => r.files.find((x) => x.path === path)!.content!.split('\n'));
    const differing = one!.map((line, i) => (line === two![i] ? null : i + 1)).filter((n) => n !== null);
    expect(differing).toEqual([9]);
    expect(two![8]).toBe('Line 5, shorter.');
    expect(two![6]).toBe('Line 3, edited.');

    // Applying it again changes nothing (the outbox may send it twice).
    expect((await editor.reviews.applySuggestions({ ...ids, body: { commentIds: [suggestion.id] } })).revision).toBe(2);
  });

  it('applies several suggestions at once', async () => {
    const reviewId = await openReview('Several suggestions');
    const ids = { projectId: f.projectId, reviewId };
    const reviewer = await f.caller('reviewer');
    const editor = await f.caller('editor');
    const a = await reviewer.reviews.comments.create({ ...ids, comment: { path, lineStart: 5, lineEnd: 5, body: 'a', suggestion: { lines: { start: 5, end: 5 }, text: 'First.' } } });
    const b = await reviewer.reviews.comments.create({ ...ids, comment: { path, lineStart: 12, lineEnd: 13, body: 'b', suggestion: { lines: { start: 12, end: 13 }, text: 'Eight and nine, together.' } } });
    const review = await editor.reviews.applySuggestions({ ...ids, body: { commentIds: [a.id, b.id] } });
    expect(review.revision).toBe(2);
    const text = (await editor.reviews.revisions(ids))[1]!.files[0]!.content!;
    expect(text.split('\n').slice(4, 13)).toEqual([
      'First.',
      'Line 2 of the setup guide.',
      'Line 3, edited.',
      'Line 4 of the setup guide.',
      'Line 5 of the setup guide.',
      'Line 6 of the setup guide.',
      'Line 7 of the setup guide.',
      'Eight and nine, together.',
      'Line 10 of the setup guide.',
    ]);
  });

  it('refuses an outdated suggestion (its lines changed since) with the reason, over tRPC and from the outbox, changing nothing', async () => {
    const reviewId = await openReview('Outdated suggestion');
    const ids = { projectId: f.projectId, reviewId };
    const reviewer = await f.caller('reviewer');
    const editor = await f.caller('editor');
    const suggestion = await reviewer.reviews.comments.create({
      ...ids,
      comment: { path, lineStart: 8, lineEnd: 8, body: 'Say it so.', suggestion: { lines: { start: 8, end: 8 }, text: 'Line 4, suggested.' } },
    });
    // The author rewrote line 8 meanwhile (revision 2).
    await editor.reviews.update({ ...ids, patch: { changes: [{ path, content: edited(3, 'Line 3, edited.').replace('Line 4 of the setup guide.', 'Line 4, rewritten by the author.') }] } });
    const refused = await trpcErrorOf(editor.reviews.applySuggestions({ ...ids, body: { commentIds: [suggestion.id] } }));
    expect(refused.code).toBe('CONFLICT');
    expect(refused.message).toBe(`The suggestion ${suggestion.id} is outdated: lines 8-8 of ${path} changed since it was written, so it is not applied.`);
    const after = await editor.reviews.get(ids);
    expect(after).toMatchObject({ revision: 2, unresolvedCount: 1 });
    expect((await editor.reviews.comments.list(ids))[0]).toMatchObject({ outdated: true, resolved: false, suggestion: { applied: false } });

    const push = await editor.sync.push({
      clientId: randomUUID(),
      mutations: [{ seq: 1, mutation: { type: 'review.applySuggestions', projectId: f.projectId, reviewId, commentIds: [suggestion.id], revision: 1 } satisfies SyncMutation }],
    });
    expect(push.results[0]).toMatchObject({ ok: false, code: 'conflict', message: expect.stringMatching(/is outdated: lines 8-8/) });
    expect((await editor.reviews.get(ids)).revision).toBe(2);
  });

  it('takes a suggestion written offline through the outbox, and a review-level comment', async () => {
    const reviewId = await openReview('Offline suggestion');
    const reviewer = await f.caller('reviewer');
    const local = randomUUID();
    const push = await reviewer.sync.push({
      clientId: randomUUID(),
      mutations: [
        {
          seq: 1,
          mutation: {
            type: 'review.comment',
            projectId: f.projectId,
            reviewId,
            localId: local,
            comment: { path, lineStart: 10, lineEnd: 10, body: 'Offline.', suggestion: { lines: { start: 10, end: 10 }, text: 'Line 6, offline.' } },
            revision: 1,
            anchorText: 'Line 6 of the setup guide.',
          },
        },
        { seq: 2, mutation: { type: 'review.comment', projectId: f.projectId, reviewId, localId: randomUUID(), comment: { body: 'Looks good overall.' }, revision: 1 } },
      ],
    });
    expect(push.results.map((r) => r.ok)).toEqual([true, true]);
    const comments = await reviewer.reviews.comments.list({ projectId: f.projectId, reviewId });
    expect(comments.map((c) => [c.path, c.suggestion?.text ?? null])).toEqual([
      [path, 'Line 6, offline.'],
      [null, null],
    ]);
  });
});
