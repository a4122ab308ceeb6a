/**
 * What this computer keeps about a review for its own person only (viewed files, the last visit)
 * is keyed by the review's id. A review proposed offline has its client's local id until the sync
 * gives it a server id (outbox.ts `mapId`): both ids name the same review, so what was kept under the
 * local id is carried over to the server id.
 */
import type { LocalStore } from './store';

/** The id mapping of reviews created offline (outbox.ts). */
export interface ReviewIdMap {
  /** the server id of a local id once synced, else null */
  serverId(localId: string): string | null;
  /** the local id a server id had, else null */
  localId(serverId: string): string | null;
}

/**
 * The value kept under `keyOf(<id>)` for a review, read by either of its ids: under the server id
 * once synced; a value still kept under the local id is moved there (carried over) on first read.
 * @returns the id to keep new values under (the server id once synced) and the value (null when none)
 */
export function readReviewKey<T>(store: LocalStore, ids: ReviewIdMap, reviewId: string, keyOf: (id: string) => string): { id: string; value: T | null } {
  const id = ids.serverId(reviewId) ?? reviewId;
  const kept = store.cached<T>(keyOf(id));
  if (kept !== undefined) return { id, value: kept };
  const local = ids.localId(id);
  if (!local) return { id, value: null };
  const carried = store.cached<T>(keyOf(local));
  if (carried === undefined) return { id, value: null };
  store.cache(keyOf(id), carried);
  store.uncache(keyOf(local));
  return { id, value: carried };
}
