/**
 * A batch of analytics counts as an `analytics` job carries it (plain JSON: it crosses processes
 * through the job queue seam), and {@link writeAnalyticsBatch}, which adds it to the database.
 * Visitors arrive already hashed (the recorder hashes them with the day's salt); no address or user
 * agent is ever in a batch.
 */
import type { AppContext } from '../context';
import { isUniqueViolation } from '../db/errors';

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

/** Times a batch is tried again after a concurrent writer created one of its rows first. */
const RETRIES = 3;

/**
 * Adds a batch to the database in one transaction: each count is an upsert that increments the
 * row (or creates it), each visitor a row created unless it exists. Several processes may write
 * batches at once: a transaction that lost a race on a new row's key (unique violation) is rolled
 * back whole and run again, so no count is lost or doubled by the retry.
 *
 * Delivery is at least once (jobs/queue.ts): a batch taken again after its worker died between the
 * commit and the job's completion is counted twice; the rows carry no batch ids (schema), and such a
 * loss of a worker is rare enough for view counts.
 * @throws Error when the database fails (after {@link RETRIES} lost races).
 */
export async function writeAnalyticsBatch(ctx: Pick<AppContext, 'db'>, batch: AnalyticsBatch): Promise<void> {
  const prisma = ctx.db.prisma;
  const ops = () => [
    ...batch.views.map((v) => {
      const key = { projectId: v.projectId, hour: new Date(v.hour), path: v.path, reader: v.reader, agent: v.agent };
      return prisma.pageViewCount.upsert({ where: { projectId_hour_path_reader_agent: key }, create: { ...key, count: v.count }, update: { count: { increment: v.count } } });
    }),
    ...batch.searches.map((s) => {
      const key = { projectId: s.projectId, day: s.day, query: s.query, source: s.source };
      return prisma.searchQueryCount.upsert({
        where: { projectId_day_query_source: key },
        create: { ...key, count: s.count, noResults: s.noResults },
        update: { count: { increment: s.count }, noResults: { increment: s.noResults } },
      });
    }),
    ...batch.visitors.map((v) => {
      const key = { projectId: v.projectId, day: v.day, visitor: v.visitor };
      return prisma.dailyVisitor.upsert({ where: { projectId_day_visitor: key }, create: { ...key, reader: v.reader }, update: {} });
    }),
  ];
  if (batch.views.length + batch.searches.length + batch.visitors.length === 0) return;
  for (let attempt = 1; ; attempt++) {
    try {
      await prisma.$transaction(ops());
      return;
    } catch (err) {
      if (!isUniqueViolation(err) || attempt > RETRIES) throw err;
    }
  }
}
