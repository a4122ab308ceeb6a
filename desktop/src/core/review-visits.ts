/**
 * When this person last opened each review (a reviewer's "last visit", kept on this computer only,
 * in the local store's `cache` table under `review-visit:<reviewId>`, so it works offline and
 * survives a restart). A visit records the revision shown and `seenUpTo`, the newest server time
 * among the comments and applied suggestions then known: what came later is news (review-news.ts),
 * and "Compare with" starts from the revision of the last visit (renderer compare.ts). A visit of a
 * review proposed offline is carried over to its server id once it syncs (review-local-keys.ts).
 */
import { readReviewKey, type ReviewIdMap } from './review-local-keys';
import type { LocalStore } from './store';

/** One visit: the revision shown and the newest comment or applied suggestion time then known (ISO 8601, server clock; '' when none). */
export interface ReviewVisit {
  revision: number;
  seenUpTo: string;
  /** the review's status then (absent in visits recorded before statuses were kept) */
  status?: string;
}

const visitKey = (reviewId: string) => `review-visit:${reviewId}`;

/** The last visits of reviews. Synchronous; each call is one or two statements. */
export class ReviewVisits {
  constructor(private readonly deps: ReviewIdMap & { store: LocalStore }) {}

  /** The last visit of a review (by its local or server id), or null when this person never opened it here. */
  last(reviewId: string): ReviewVisit | null {
    return readReviewKey<ReviewVisit>(this.deps.store, this.deps, reviewId, visitKey).value;
  }

  /**
   * Records a visit now, durably before it answers; `seenUpTo` never goes back (a later visit
   * knowing fewer comments keeps the newer time). @returns the visit before this one, or null
   */
  record(reviewId: string, visit: ReviewVisit): ReviewVisit | null {
    const { id, value: before } = readReviewKey<ReviewVisit>(this.deps.store, this.deps, reviewId, visitKey);
    const seenUpTo = before && before.seenUpTo > visit.seenUpTo ? before.seenUpTo : visit.seenUpTo;
    this.deps.store.cache(visitKey(id), { revision: visit.revision, seenUpTo, status: visit.status });
    return before;
  }
}
