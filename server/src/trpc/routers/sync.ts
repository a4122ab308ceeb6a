import { SyncPullInputSchema, SyncPushInputSchema, type SyncPullResult, type SyncPushResult } from '@quire/shared/sync/mutations';
import { pushSyncMutations } from '../../services/sync';
import { pullSyncChanges } from '../../services/sync-pull';
import { permittedProcedure, router } from '../trpc';

/**
 * `sync`: the desktop app's outbox and offline copy (decisions.md section 9; shapes and conflict
 * rules in `@quire/shared/sync`). Signed-in sessions with `projects:read` (reviewers and viewers
 * sync too); each mutation then meets the same permission checks as its REST twin.
 * - `push({clientId, mutations: [{seq, mutation}]})` → `{lastSeq, results}`: applied exactly once,
 *   in seq order; refusals by a rule are answers (`ok: false`), not errors. FORBIDDEN for a client
 *   id of another user.
 * - `pull({cursor, projectIds?})` → `{cursor, reviews, removedReviewIds}`: reviews changed since
 *   the cursor (null: everything, bounded), with comments and file contents.
 */
export const syncRouter = router({
  push: permittedProcedure('projects:read')
    .input(SyncPushInputSchema)
    .mutation(({ ctx, input }): Promise<SyncPushResult> => pushSyncMutations(ctx.app, ctx.auth, input)),
  pull: permittedProcedure('projects:read')
    .input(SyncPullInputSchema)
    .query(({ ctx, input }): Promise<SyncPullResult> => pullSyncChanges(ctx.app, ctx.auth, input)),
});
