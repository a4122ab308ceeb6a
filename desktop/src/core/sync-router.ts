import { t } from './trpc';
import { TRPCError } from '@trpc/server';
import { z } from 'zod';
import { offlineOf } from './sync-client';


/**
 * The core's `sync` procedures (sync-client.ts), registered in router.ts.
 * - `sync.status()` → `{state: 'synced' | 'syncing' | 'offline' | 'signed-out', pending, lastError,
 *   items: [{seq, type, summary, state: 'pending' | 'refused', reason, attempts}]}` (syncs first,
 *   waiting at most 1 s, when no sync was tried within the last period)
 * - `sync.now()` → the status after pushing and pulling at once (a backoff is skipped)
 * - `sync.dismiss({seq})` → the status, with the refused item `seq` put away; NOT_FOUND when there is no such refused item
 */
export const syncRouter = t.router({
  status: t.procedure.query(({ ctx }) => offlineOf(ctx.core).sync.freshStatus()),
  now: t.procedure.mutation(({ ctx }) => offlineOf(ctx.core).sync.now()),
  dismiss: t.procedure.input(z.object({ seq: z.number().int().min(1) })).mutation(({ ctx, input }) => {
    const offline = offlineOf(ctx.core);
    if (!offline.reviews.outbox.dismiss(input.seq)) throw new TRPCError({ code: 'NOT_FOUND', message: `There is no refused change number ${input.seq}.` });
    return offline.sync.status();
  }),
});
