/**
 * A review and a review comment as the server's API returns them (`@quire/shared/api/reviews`),
 * for desktop tests that feed the review cache: an open, one-revision review of `index.mdx` by
 * Wendy with no comments, and a top-level comment by Wendy on no lines; each test overrides what
 * it is about.
 */
import type { Review, ReviewComment } from '@quire/shared/api/reviews';

/** The author of {@link reviewFixture} and {@link commentFixture} unless overridden. */
export const WENDY = { id: 'usr_wendy', name: 'Wendy Writer', email: 'wendy@acme.test' };

/** The base commit of {@link reviewFixture}. */
export const BASE_SHA = 'a'.repeat(40);

/** An open review `rev_1` of one modified page, `over` applied last. */
export function reviewFixture(over: Partial<Review> = {}): Review {
  return {
    id: 'rev_1',
    title: 'Edits',
    description: '',
    status: 'open',
    author: WENDY,
    reviewers: [],
    mentioned: [],
    baseCommit: BASE_SHA,
    branch: 'main',
    revision: 1,
    changes: [{ path: 'index.mdx', change: 'modified' }],
    previewUrl: '',
    previewBuildId: null,
    labels: [],
    commentCount: 0,
    unresolvedCount: 0,
    resolvedThreadsRequired: false,
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-01T00:00:00.000Z',
    ...over,
  };
}

/** A top-level comment on review `rev_1` (no lines, not a suggestion), `over` applied last. */
export function commentFixture(over: Partial<ReviewComment> = {}): ReviewComment {
  return {
    id: 'cmt_1',
    reviewId: 'rev_1',
    parentId: null,
    path: null,
    lineStart: null,
    lineEnd: null,
    revision: 1,
    body: 'A comment',
    author: WENDY,
    outdated: false,
    resolved: false,
    resolvedBy: null,
    suggestion: null,
    mentions: [],
    createdAt: '2026-01-01T00:00:00.000Z',
    ...over,
  };
}
