/**
 * The core procedures the review screens call: `reviews.*` (desktop/src/core/reviews-router.ts) and
 * `sync.status` / `sync.now` / `sync.dismiss` (sync-router.ts), through the renderer's one tRPC
 * client (`core`, ../../trpc.ts), typed by the core router.
 */
import { core } from '../../trpc';

/** `reviews.*` of the core. */
export const reviewsApi = core.reviews;
/** `sync.*` of the core. */
export const syncApi = core.sync;
