import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Review, ReviewComment } from '@quire/shared/api/reviews';
import { Outbox } from '../src/core/outbox';
import { ReviewCache } from '../src/core/review-cache';
import { openStore, type LocalStore } from '../src/core/store';
import { Reviews } from '../src/core/reviews';
import { compareChoices, defaultCompareBase, textAtBase } from '../src/renderer/components/reviews/compare';
import { commentFixture, reviewFixture } from './helpers/review-fixtures';

/** Review-level comments, resolving threads and suggestions in the desktop core, offline (no server is ever reached). */
let dataDir: string;
let store: LocalStore;
let reviews: Reviews;
let outbox: Outbox;
let cache: ReviewCache;
const projectId = 'prj_docs';
const sha = 'a'.repeat(40);
const me = { id: 'usr_me', name: 'me', email: 'me@acme.test' };
const rita = { id: 'usr_rita', name: 'Rita', email: 'rita@acme.test' };

const review = (over: Partial<Review> = {}): Review =>
  reviewFixture({ author: me, reviewers: [rita], revision: 2, commentCount: 1, unresolvedCount: 1, resolvedThreadsRequired: true, ...over });
const suggestion = (over: Partial<ReviewComment> = {}): ReviewComment =>
  commentFixture({
    id: 'cmt_s1',
    path: 'index.mdx',
    lineStart: 2,
    lineEnd: 2,
    revision: 2,
    body: 'Shorter?',
    author: rita,
    suggestion: { lines: { start: 2, end: 2 }, text: 'line 2', applied: false, original: 'line two' },
    createdAt: '2026-01-01T00:00:01.000Z',
    ...over,
  });

function pull(comments: ReviewComment[], after = 'line one\nline two\nline three\n', over: Partial<Review> = {}) {
  cache.applyPull(projectId, {
    reviews: [
      {
        review: review(over),
        comments,
        files: [{ path: 'index.mdx', change: 'modified', before: 'line one\nline 2 old\nline three\n', after }],
        revisions: [
          { revision: 1, baseCommit: sha, files: [{ path: 'index.mdx', change: 'modified', content: 'line one\nline two\nline 3\n' }], createdAt: '2026-01-01T00:00:00.000Z' },
          { revision: 2, baseCommit: sha, files: [{ path: 'index.mdx', change: 'modified', content: after }], createdAt: '2026-01-01T00:00:00.000Z' },
        ],
      },
    ],
    removedReviewIds: [],
  });
}

beforeEach(() => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-review-threads-'));
  store = openStore(dataDir);
  store.saveSession({ serverUrl: 'http://quire.test', userId: 'usr_me', email: me.email, name: me.name, orgId: 'org_acme', orgName: 'Acme', role: 'editor', expiresAt: '2099-01-01T00:00:00.000Z' });
  outbox = new Outbox(store, () => 'http://quire.test usr_me');
  cache = new ReviewCache(store);
  reviews = new Reviews({ store, outbox, cache, session: () => store.session(), client: () => null, queued: () => undefined, flush: async () => undefined });
});
afterEach(() => {
  store.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe('review threads offline', () => {
  it('writes a review-level comment (no lines) and a reply to it, queued without path', () => {
    pull([]);
    const general = reviews.comment({ projectId, reviewId: 'rev_1', body: 'Reads well overall.' });
    const reply = reviews.comment({ projectId, reviewId: 'rev_1', body: 'Thanks.', parentId: general.id });
    expect(general).toMatchObject({ path: null, lineStart: null, pending: true, resolved: false });
    expect(reply).toMatchObject({ parentId: general.id, path: null });
    expect(outbox.items().map((i) => i.mutation)).toMatchObject([
      { type: 'review.comment', comment: { body: 'Reads well overall.' } },
      { type: 'review.comment', comment: { body: 'Thanks.', parentId: general.id } },
    ]);
    expect('path' in (outbox.items()[0]!.mutation as { comment: object }).comment).toBe(false);
    expect(reviews.get(projectId, 'rev_1').unresolvedCount).toBe(1);
  });

  it('resolves a thread at once (pending) and the merge note follows the unresolved count', () => {
    pull([suggestion()]);
    expect(reviews.get(projectId, 'rev_1').mergeBlock).toBe('1 thread is unresolved; this project requires every thread resolved before merge.');
    const resolved = reviews.resolveThread(projectId, 'rev_1', 'cmt_s1', true);
    expect(resolved).toMatchObject({ resolved: true, resolvedBy: { id: 'usr_me' } });
    const detail = reviews.get(projectId, 'rev_1');
    expect(detail).toMatchObject({ unresolvedCount: 0, mergeBlock: null });
    expect(outbox.items()[0]!.mutation).toEqual({ type: 'review.resolveThread', projectId, reviewId: 'rev_1', commentId: 'cmt_s1', resolved: true });
  });

  it('refuses to merge an approved review with unresolved threads in a project that requires them resolved', async () => {
    pull([suggestion()], undefined, { status: 'approved' });
    await expect(reviews.merge(projectId, 'rev_1')).rejects.toMatchObject({
      code: 'CONFLICT',
      message: '1 thread is unresolved; this project requires every thread resolved before merge.',
    });
  });

  it('applies a suggestion at once as the next revision, and keeps the revisions for comparing', () => {
    pull([suggestion()]);
    const r = reviews.applySuggestions(projectId, 'rev_1', ['cmt_s1']);
    expect(r).toMatchObject({ revision: 3, pending: true });
    const detail = reviews.get(projectId, 'rev_1');
    expect(detail.files[0]!.after).toBe('line one\nline 2\nline three\n');
    expect(detail.comments[0]).toMatchObject({ resolved: true, suggestion: { applied: true } });
    expect(detail.revisions.map((x) => x.revision)).toEqual([1, 2]);
    expect(outbox.items()[0]!.mutation).toEqual({ type: 'review.applySuggestions', projectId, reviewId: 'rev_1', commentIds: ['cmt_s1'], revision: 2 });
  });

  it('refuses here a suggestion whose lines changed since, and writes a suggestion on chosen lines', () => {
    pull([suggestion()], 'line one\nline TWO, rewritten\nline three\n');
    expect(() => reviews.applySuggestions(projectId, 'rev_1', ['cmt_s1'])).toThrow(/outdated: lines 2-2 of index.mdx changed since/);
    expect(outbox.items()).toEqual([]);
    const s = reviews.comment({ projectId, reviewId: 'rev_1', path: 'index.mdx', lineStart: 3, lineEnd: 3, body: 'Suggested change', suggestion: { lines: { start: 3, end: 3 }, text: 'line 3' } });
    expect(s.suggestion).toEqual({ lines: { start: 3, end: 3 }, text: 'line 3', applied: false, original: 'line three' });
  });
});

describe('"Compare with" the kept revisions', () => {
  it('offers the older kept revisions and the branch, defaults to the previous revision once this one was seen, and reads each file there', () => {
    pull([]);
    const detail = reviews.get(projectId, 'rev_1');
    expect(compareChoices(detail)).toEqual([
      { value: 1, label: 'Revision 1 (previous)' },
      { value: 0, label: 'Base (the branch)' },
    ]);
    expect(defaultCompareBase(detail, 2)).toBe(1);
    const file = detail.files[0]!;
    expect(textAtBase(detail, file, 1)).toBe('line one\nline two\nline 3\n');
    expect(textAtBase(detail, file, 0)).toBe(file.before);
    expect(defaultCompareBase({ revision: 1, revisions: [] }, 1)).toBe(0);
  });
});
