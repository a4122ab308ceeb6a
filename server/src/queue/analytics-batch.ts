/**
 * The payload of an `analytics` job (queue/job-queue.ts `JobKinds`): a batch of analytics counts as
 * plain JSON, since it crosses processes through the job queue. analytics/batch.ts writes it to the
 * database. Visitors arrive already hashed (analytics/recorder.ts hashes them with the day's salt);
 * no address or user agent is ever in a batch.
 */

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
