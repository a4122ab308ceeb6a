/**
 * {@link writeAnalyticsBatch}: adds a batch of analytics counts, as an `analytics` job carries it
 * (queue/analytics-batch.ts), to the database.
 */
import type { AppContext } from '../context';
import type { AnalyticsBatch } from '../queue/analytics-batch';

/**
 * Adds a batch to the database in one transaction (db/repos/analytics-rows.ts: one SQL statement
 * per row kind, not an ORM call per row, so a large batch costs the serving process little): each
 * count is added to its row (or creates it), each visitor a row unless it exists. Batches of several
 * processes add up, never overwrite.
 *
 * Delivery is at least once (queue/job-queue.ts): a batch taken again after its worker died between the
 * commit and the job's completion is counted twice; the rows carry no batch ids (schema), and such a
 * loss of a worker is rare enough for view counts.
 * @throws Error when the database fails.
 */
export async function writeAnalyticsBatch(ctx: Pick<AppContext, 'db'>, batch: AnalyticsBatch): Promise<void> {
  if (batch.views.length + batch.searches.length + batch.visitors.length === 0) return;
  await ctx.db.rows.analytics.add({
    views: batch.views.map((v) => ({ ...v, hour: Date.parse(v.hour) })),
    visitors: batch.visitors,
    searches: batch.searches,
  });
}
