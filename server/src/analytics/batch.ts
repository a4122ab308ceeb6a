/**
 * A batch of analytics counts as an `analytics` job carries it (plain JSON: it crosses processes
 * through the job queue seam), and {@link writeAnalyticsBatch}, which adds it to the database.
 * Visitors arrive already hashed (the recorder hashes them with the day's salt); no address or user
 * agent is ever in a batch.
 */
import type { AppContext } from '../context';

/** Page views of one hour, page and reader (schema `PageViewCount`). */
export interface BatchViews {
  projectId: string;
  /** ISO start of the UTC hour */
  hour: string;
  path: string;
  reader: 'person' | 'agent';
  agent: string;
  count: number;
}

/** One visitor seen on one day (schema `DailyVisitor`). */
export interface BatchVisitor {
  projectId: string;
  /** UTC day `YYYY-MM-DD` */
  day: string;
  /** the salted hash (recorder.ts) */
  visitor: string;
  reader: 'person' | 'agent';
}

/** Searches of one day, normalised query and source (schema `SearchQueryCount`). */
export interface BatchSearches {
  projectId: string;
  day: string;
  query: string;
  source: 'site' | 'api' | 'mcp';
  count: number;
  noResults: number;
}

/** A batch of analytics counts (the `analytics` job's payload). */
export interface AnalyticsBatch {
  /** unique per batch (the job id) */
  batchId: string;
  views: BatchViews[];
  visitors: BatchVisitor[];
  searches: BatchSearches[];
}

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
