/**
 * The reviews as last pulled from the server (decisions.md section 9): the `review_cache`,
 * `review_comment_cache` and `review_file_cache` tables of the local store, written by the sync
 * client's pulls and read by the review actions (reviews.ts), which lay the outbox over them.
 */
import type { Review, ReviewComment, ReviewRevision } from '@quire/shared/api/reviews';
import type { SyncPullResult } from '@quire/shared/sync/mutations';
import type { LocalStore } from './store';

/** One changed file of a review with both texts (null: the file does not exist on that side, or was past the size cap). */
export interface ReviewFileTexts {
  path: string;
  change: 'added' | 'modified' | 'deleted';
  before: string | null;
  after: string | null;
}

/** The local cache key of a review's kept revisions. */
const revisionsKey = (reviewId: string) => `review-revisions:${reviewId}`;

/**
 * The reviews as last pulled from the server, per project (the server state under the outbox).
 * Synchronous; each method is one transaction.
 */
export class ReviewCache {
  constructor(private readonly store: LocalStore) {}

  /**
   * Stores a `sync.pull` answer of `projectId` (shared/src/sync/mutations.ts SyncPullResult): each
   * snapshot replaces the review, its comments and its files; removed reviews are dropped.
   */
  applyPull(projectId: string, pull: Pick<SyncPullResult, 'reviews' | 'removedReviewIds'>): void {
    const db = this.store.db;
    const now = new Date().toISOString();
    db.transaction(() => {
      for (const id of pull.removedReviewIds) this.drop(id);
      for (const snap of pull.reviews) {
        const id = snap.review.id;
        this.drop(id);
        db.prepare('INSERT INTO review_cache (id, project_id, data, updated_at) VALUES (?, ?, ?, ?)').run(id, projectId, JSON.stringify(snap.review), now);
        const insertComment = db.prepare('INSERT OR REPLACE INTO review_comment_cache (id, review_id, position, data) VALUES (?, ?, ?, ?)');
        snap.comments.forEach((c, i) => insertComment.run(c.id, id, i, JSON.stringify(c)));
        const insertFile = db.prepare('INSERT OR REPLACE INTO review_file_cache (review_id, path, change, before_content, after_content, truncated) VALUES (?, ?, ?, ?, ?, ?)');
        for (const f of snap.files) insertFile.run(id, f.path, f.change, f.before, f.after, f.truncated ? 1 : 0);
        this.store.cache(revisionsKey(id), snap.revisions ?? []);
      }
    })();
  }

  /** The kept revisions of a review as last pulled (for "Compare with"), oldest first; empty when the server kept none. */
  revisions(reviewId: string): ReviewRevision[] {
    return this.store.cached<ReviewRevision[]>(revisionsKey(reviewId)) ?? [];
  }

  /**
   * Replaces the pulled copy of one review by the server's answer to an action (a merge), keeping
   * its comments and files; the next pull brings the whole snapshot.
   */
  putReview(projectId: string, review: Review): void {
    const db = this.store.db;
    db.prepare('INSERT OR REPLACE INTO review_cache (id, project_id, data, updated_at) VALUES (?, ?, ?, ?)').run(review.id, projectId, JSON.stringify(review), new Date().toISOString());
  }

  private drop(id: string): void {
    const db = this.store.db;
    db.prepare('DELETE FROM review_cache WHERE id = ?').run(id);
    db.prepare('DELETE FROM review_comment_cache WHERE review_id = ?').run(id);
    db.prepare('DELETE FROM review_file_cache WHERE review_id = ?').run(id);
  }

  /** The pulled reviews of a project. */
  reviews(projectId: string): Review[] {
    return (this.store.db.prepare('SELECT data FROM review_cache WHERE project_id = ?').all(projectId) as { data: string }[]).map((r) => JSON.parse(r.data) as Review);
  }

  /** The pulled comments of a review, oldest first. */
  comments(reviewId: string): ReviewComment[] {
    return (this.store.db.prepare('SELECT data FROM review_comment_cache WHERE review_id = ? ORDER BY position').all(reviewId) as { data: string }[]).map(
      (r) => JSON.parse(r.data) as ReviewComment,
    );
  }

  /** The pulled files of a review, by path. */
  files(reviewId: string): ReviewFileTexts[] {
    const rows = this.store.db.prepare('SELECT path, change, before_content, after_content FROM review_file_cache WHERE review_id = ? ORDER BY path').all(reviewId) as {
      path: string;
      change: ReviewFileTexts['change'];
      before_content: string | null;
      after_content: string | null;
    }[];
    return rows.map((r) => ({ path: r.path, change: r.change, before: r.before_content, after: r.after_content }));
  }
}
