/**
 * Which files of a review this person marked "Viewed" (desktop-look.md "Reviews"; a reviewer's
 * own reading progress, like a pull request's viewed checkboxes). Kept per review and revision in the
 * local store (`cache` table, key `review-viewed:<reviewId>:<revision>`), so it works offline and
 * survives a restart; it is never sent to the server. A new revision starts with nothing viewed: its
 * files may have changed since they were read. Marks set on a review proposed offline are carried
 * over to its server id once it syncs (review-local-keys.ts).
 */
import { readReviewKey, type ReviewIdMap } from './review-local-keys';
import type { LocalStore } from './store';

/** What {@link ReviewViewed} needs: the local store, and the ids of reviews created offline (outbox.ts `serverId`, `localId`). */
export interface ReviewViewedDeps extends ReviewIdMap {
  store: LocalStore;
}

/** The local cache key of the viewed files of one revision of a review. */
const viewedKey = (reviewId: string, revision: number) => `review-viewed:${reviewId}:${revision}`;

/** The viewed files of reviews, per revision. Synchronous; each call is one statement. */
export class ReviewViewed {
  constructor(private readonly deps: ReviewViewedDeps) {}

  /** The paths marked viewed in revision `revision` of review `reviewId` (a local id is read as its server id once synced), sorted. */
  paths(reviewId: string, revision: number): string[] {
    return this.read(reviewId, revision).value ?? [];
  }

  /**
   * Marks `path` viewed (or not) in revision `revision` of review `reviewId`, durably before it
   * answers. @returns the viewed paths of that revision afterwards, sorted
   */
  set(reviewId: string, revision: number, path: string, viewed: boolean): string[] {
    const { id, value } = this.read(reviewId, revision);
    const paths = new Set(value ?? []);
    if (viewed) paths.add(path);
    else paths.delete(path);
    const sorted = [...paths].sort();
    this.deps.store.cache(viewedKey(id, revision), sorted);
    return sorted;
  }

  private read(reviewId: string, revision: number): { id: string; value: string[] | null } {
    return readReviewKey<string[]>(this.deps.store, this.deps, reviewId, (id) => viewedKey(id, revision));
  }
}
