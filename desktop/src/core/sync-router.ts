import { procedure, t } from './trpc';
import { z } from 'zod';


/**
 * The core's `sync` procedures (sync-client.ts), registered in router.ts.
 * - `sync.status()` → `{state: 'synced' | 'syncing' | 'offline' | 'signed-out', pending, lastError,
 *   items: [{seq, type, summary, state: 'pending' | 'refused', reason, attempts}]}` (syncs first,
 *   waiting at most 1 s, when no sync was tried within the last period)
 * - `sync.now()` → the status after pushing and pulling at once (a backoff is skipped)
 * - `sync.dismiss({seq})` → the status, with the refused item `seq` put away; NOT_FOUND when there is no such refused item
 */
export const syncRouter = t.router({
  status: procedure.query(({ ctx }) => ctx.sync.freshStatus()),
  now: procedure.mutation(({ ctx }) => ctx.sync.now()),
  dismiss: procedure.input(z.object({ seq: z.number().int().min(1) })).mutation(({ ctx, input }) => ctx.sync.dismiss(input.seq)),
});
