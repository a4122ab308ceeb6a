/**
 * The shapes the renderer's review screens read from the core's `reviews` and `sync` procedures,
 * imported type-only from the core (desktop/src/core/reviews.ts, sync-client.ts). A review is the
 * server's Review (shared/src/api/reviews.ts) plus what the local store knows: whether a change of
 * it waits in the outbox (`pending`), whether the server has not seen it yet (`localOnly`), and why
 * the server refused the last queued change (`problem`, null when nothing was refused).
 */
import type { MergeOutcome } from '../../../core/reviews';

export type { LocalReview, LocalComment, ReviewFileTexts, ReviewDetail, Person, MergeOutcome } from '../../../core/reviews';

/** A merge refused because the change set conflicts with the branch head: the conflicting paths, the branch and the server's message. */
export type MergeConflict = Extract<MergeOutcome, { merged: false }>['conflict'];
export type { ReviewNews } from '../../../core/review-news';
export type { SyncStatusItem as OutboxItem, SyncStatusView as SyncInfo } from '../../../core/sync-client';
