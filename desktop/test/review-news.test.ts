import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Review, ReviewComment } from '@quire/shared/api/reviews';
import { Outbox } from '../src/core/outbox';
import { ReviewCache } from '../src/core/review-cache';
import { ReviewViewed } from '../src/core/review-viewed';
import { openStore, type LocalStore } from '../src/core/store';
import { Reviews } from '../src/core/reviews';
import { defaultCompareBase } from '../src/renderer/components/reviews/compare';
import { commentFixture, reviewFixture, WENDY } from './helpers/review-fixtures';

/**
 * In-app notifications of reviews in the desktop core, offline (no server is ever reached): what is new for me since I last
 * opened a review (waiting on my review, mentions, new replies, my suggestions applied), cleared by opening it; mentions of a
 * comment written offline; what is kept per review (viewed files, the last visit) carried to the server id of a review
 * proposed offline; "Compare with" starting from the last visit.
 */
let dataDir: string;
let store: LocalStore;
let reviews: Reviews;
let outbox: Outbox;
let cache: ReviewCache;
const projectId = 'prj_docs';
const sha = 'a'.repeat(40);
const me = { id: 'usr_me', name: 'Mia Me', email: 'me@acme.test' };
const wendy = WENDY;
const rita = { id: 'usr_rita', name: 'Rita', email: 'rita@acme.test' };

const review = (over: Partial<Review> = {}): Review => reviewFixture({ reviewers: [me], ...over });
const comment = (id: string, createdAt: string, over: Partial<ReviewComment> = {}): ReviewComment => commentFixture({ id, body: id, createdAt, ...over });

function pull(r: Review, comments: ReviewComment[] = []) {
  cache.applyPull(projectId, {
    reviews: [
      {
        review: r,
        comments,
        files: [{ path: 'index.mdx', change: 'modified', before: 'one\n', after: 'two\n' }],
        revisions: [1, 2, 3].filter((n) => n <= r.revision).map((revision) => ({ revision, baseCommit: sha, files: [], createdAt: '2026-01-01T00:00:00.000Z' })),
      },
    ],
    removedReviewIds: [],
  });
}

beforeEach(() => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-review-news-'));
  store = openStore(dataDir);
  store.saveSession({ serverUrl: 'http://quire.test', userId: me.id, email: me.email, name: me.name, orgId: 'org_acme', orgName: 'Acme', role: 'reviewer', expiresAt: '2099-01-01T00:00:00.000Z' });
  store.cache('members:http://quire.test:org_acme', [me, wendy, rita].map((user) => ({ user, role: 'reviewer', joinedAt: '2026-01-01T00:00:00.000Z' })));
  outbox = new Outbox(store, () => `http://quire.test ${me.id}`);
  cache = new ReviewCache(store);
  reviews = new Reviews({ store, outbox, cache, session: () => store.session(), client: () => null, queued: () => undefined, flush: async () => undefined });
});
afterEach(() => {
  store.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe('what is new for me in reviews', () => {
  it('counts a review waiting on my review until I open it, then new replies and a new revision since that visit', () => {
    pull(review());
    expect(reviews.news(projectId)).toEqual({ count: 1, items: [{ reviewId: 'rev_1', title: 'Edits', reasons: ['Waiting on your review'] }] });
    expect(reviews.visit(projectId, 'rev_1')).toEqual({ previous: null });
    expect(reviews.news(projectId)).toEqual({ count: 0, items: [] });

    pull(review(), [comment('cmt_1', '2026-01-02T00:00:00.000Z'), comment('cmt_2', '2026-01-02T00:00:01.000Z', { parentId: 'cmt_1' })]);
    expect(reviews.news(projectId).items[0]?.reasons).toEqual(['2 new replies']);
    expect(reviews.visit(projectId, 'rev_1').previous).toEqual({ revision: 1, seenUpTo: '', status: 'open' });
    expect(reviews.news(projectId).count).toBe(0);

    // a new revision waits on my review again; a merged review has no news
    pull(review({ revision: 2 }), [comment('cmt_1', '2026-01-02T00:00:00.000Z')]);
    expect(reviews.news(projectId).items[0]?.reasons).toEqual(['Waiting on your review']);
    pull(review({ revision: 2, status: 'merged' }));
    expect(reviews.news(projectId).count).toBe(0);
  });

  it('tells me when someone mentions me on a review I was not asked to review, and when my suggestion was applied', () => {
    pull(review({ reviewers: [rita], mentioned: [me] }), [comment('cmt_1', '2026-01-02T00:00:00.000Z', { body: '@Mia Me can you check?', mentions: [me] })]);
    expect(reviews.news(projectId).items[0]?.reasons).toEqual(['Waiting on your review', 'Mentioned you', '1 new reply']);
    reviews.visit(projectId, 'rev_1');
    const mine = comment('cmt_s', '2026-01-02T00:00:05.000Z', {
      author: me,
      path: 'index.mdx',
      lineStart: 1,
      lineEnd: 1,
      suggestion: { lines: { start: 1, end: 1 }, text: 'three', applied: false, appliedAt: null, original: 'two' },
    });
    pull(review({ reviewers: [rita], mentioned: [me] }), [mine]);
    expect(reviews.news(projectId).count).toBe(0); // my own comment is no news
    reviews.visit(projectId, 'rev_1');
    const applied = { ...mine, resolved: true, suggestion: { ...mine.suggestion!, applied: true, appliedAt: '2026-01-03T00:00:00.000Z' } };
    pull(review({ reviewers: [rita], mentioned: [me], revision: 2 }), [applied]);
    expect(reviews.news(projectId).items[0]?.reasons).toEqual(['Waiting on your review', 'Suggestion applied']);
    reviews.visit(projectId, 'rev_1');
    expect(reviews.news(projectId).count).toBe(0);
  });

  it('tells the author when a reviewer requests changes or approves, until the author opens the review', () => {
    const mine = (status: Review['status']) => review({ author: me, reviewers: [rita], status });
    pull(mine('open'));
    reviews.visit(projectId, 'rev_1');
    expect(reviews.news(projectId).count).toBe(0);
    pull(mine('changes_requested'));
    expect(reviews.news(projectId).items[0]?.reasons).toEqual(['Changes requested']);
    reviews.visit(projectId, 'rev_1');
    expect(reviews.news(projectId).count).toBe(0);
    pull(mine('approved'));
    expect(reviews.news(projectId).items[0]?.reasons).toEqual(['Approved']);
    // a reviewer is not told of their own verdict as news
    pull(review({ author: wendy, reviewers: [me], status: 'approved' }));
    reviews.visit(projectId, 'rev_1');
    expect(reviews.news(projectId).count).toBe(0);
  });

  it('shows a comment written offline with the members it mentions, and the review as mentioning them', () => {
    pull(review({ author: me, reviewers: [] }));
    const written = reviews.comment({ projectId, reviewId: 'rev_1', body: 'Over to you @wendy@acme.test and @Rita; @nobody stays text.' });
    expect(written.mentions).toEqual([wendy, rita]);
    expect(reviews.get(projectId, 'rev_1').mentioned).toEqual([wendy, rita]);
    expect(outbox.items()[0]!.mutation).toMatchObject({ type: 'review.comment', comment: { body: 'Over to you @wendy@acme.test and @Rita; @nobody stays text.' } });
  });
});

describe('what is kept per review follows a review proposed offline to its server id', () => {
  it('carries viewed files and the last visit from the local id to the server id', () => {
    const viewed = new ReviewViewed({ store, serverId: (id) => outbox.serverId(id), localId: (id) => outbox.localId(id) });
    const localId = '6b1f4a52-7d1c-4f0e-9a57-3c1d2e4f5a60';
    expect(viewed.set(localId, 1, 'index.mdx', true)).toEqual(['index.mdx']);
    reviews.visits.record(localId, { revision: 1, seenUpTo: '' });
    outbox.mapId(localId, 'review', 'rev_server');
    expect(viewed.paths('rev_server', 1)).toEqual(['index.mdx']);
    expect(viewed.paths(localId, 1)).toEqual(['index.mdx']);
    expect(viewed.set('rev_server', 1, 'guides/a.mdx', true)).toEqual(['guides/a.mdx', 'index.mdx']);
    expect(reviews.visits.last('rev_server')).toEqual({ revision: 1, seenUpTo: '' });
  });
});

describe('"Compare with" starts from my last visit', () => {
  const detail = { revision: 3, revisions: [1, 2, 3].map((revision) => ({ revision, baseCommit: sha, files: [], createdAt: '2026-01-01T00:00:00.000Z' })) };
  it('compares with the revision I last saw, the previous one when I saw this one, and the branch on a first visit', () => {
    expect(defaultCompareBase(detail, 1)).toBe(1);
    expect(defaultCompareBase(detail, 3)).toBe(2);
    expect(defaultCompareBase(detail, null)).toBe(0);
  });
});
