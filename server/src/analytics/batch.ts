/**
 * PLACEHOLDER: a batch of analytics counts as an `analytics` job carries it (plain JSON: it crosses
 * processes through the job queue seam). The analytics work defines its fields.
 */
export interface AnalyticsBatch {
  /** unique per batch (the job id) */
  batchId: string;
}
