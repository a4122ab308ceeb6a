/**
 * The job queue seam (decisions.md section 1; architecture.md): background work goes through a
 * {@link JobQueue}, in-process by default (in-process-queue.ts) or BullMQ on Redis when REDIS_URL
 * is set (bullmq-queue.ts). `createJobQueue` (create-job-queue.ts) picks one from the configuration.
 * The database stays the source of truth of what a job is about (a Build row's status); a job
 * carries ids only, so a job delivered twice or late is harmless to a handler that checks the row.
 */
import type { AnalyticsBatch } from './analytics-batch';

/**
 * Payload of each job kind (plain JSON: it crosses processes). A later kind adds one line here
 * (`reindex`, `webhook-delivery`, `schedule`, `analytics-flush`).
 */
export interface JobKinds {
  /** Run a queued build (jobs/build-runner.ts); the job id is the build id. */
  build: { buildId: string; projectId: string };
  /** Run a due schedule (jobs/schedule-runner.ts); the job id is the schedule id. */
  schedule: { scheduleId: string; projectId: string };
  /** Finish a build that waited for approval, once its approval is decided (jobs/build-runner.ts); the job id is the approval id. */
  approval: { approvalId: string; buildId: string; projectId: string };
  /**
   * Make the next delivery attempt of an outgoing webhook message (services/webhook-delivery.ts);
   * the job id is `<messageId>-<attempt>` (BullMQ refuses custom ids with one colon).
   */
  webhook: { messageId: string; projectId: string };
  /** Run a reindex of a project's search (jobs/reindex-runner.ts); the job id is the reindex job id. */
  reindex: { jobId: string; projectId: string };
  /** Do a run of the docs agent (jobs/agent-runner.ts); the job id is the run id. */
  agent: { runId: string; projectId: string };
  /** Write a batch of analytics counts (analytics-batch.ts; written by analytics/batch.ts); the job id is the batch id. */
  analytics: AnalyticsBatch;
}

/** Name of a job kind. */
export type JobKind = keyof JobKinds;

/** Options of {@link JobQueue.enqueue}. */
export interface EnqueueOptions {
  /** Deduplication key: while a job with this id exists (waiting, delayed or running) a second enqueue is a no-op. */
  jobId?: string;
  /** Run no earlier than this many ms from now (default 0). */
  delayMs?: number;
}

/** Told to a handler about the job it runs. */
export interface JobInfo {
  /** The job's id (the `jobId` given to enqueue, or one the queue made). */
  id: string;
  /** 1 on the first run; more when the job was taken again (a worker died or it was retried later). */
  attempt: number;
}

/**
 * What a handler returns: nothing when the job is done, or `{ retryInMs }` to have the same job
 * run again no earlier than that many ms from now (e.g. the build's project is busy, or this
 * worker is stopping). A handler that throws ends the job as failed (it is not retried).
 */
export type JobResult = void | { retryInMs: number };

/** Runs one job of kind `K`. */
export type JobHandler<K extends JobKind> = (payload: JobKinds[K], job: JobInfo) => Promise<JobResult>;

/** Jobs of one kind by state, for metrics (`counts()`). */
export interface JobCounts {
  /** Waiting to run now. */
  waiting: number;
  /** Waiting for their time (`delayMs`, `retryInMs`). */
  delayed: number;
  /** Running now. */
  active: number;
}

/**
 * Where a job is: `waiting` or `delayed` (to run), `active` (running), `failed` (given up, e.g.
 * BullMQ failed it after its workers died too often; `reason` says why), or `gone` (finished,
 * removed, or never stored: a Redis that lost its data).
 */
export type JobState = { state: 'waiting' | 'delayed' | 'active' | 'gone' } | { state: 'failed'; reason: string };

/**
 * A queue of background jobs by kind. Delivery is at least once: a handler must tolerate a job
 * run again after a crash (build-runner.ts checks the Build row).
 */
export interface JobQueue {
  /** `in-process` or `bullmq`, for logs and readiness output. */
  readonly backend: 'in-process' | 'bullmq';
  /**
   * Adds a job. Resolves once the job is stored (in memory, or in Redis).
   * @throws Error when the queue is closed or Redis cannot be reached.
   */
  enqueue<K extends JobKind>(kind: K, payload: JobKinds[K], options?: EnqueueOptions): Promise<void>;
  /**
   * Starts running jobs of `kind` in this process with `handler`, at most `concurrency` at once.
   * At most one handler per kind per queue.
   * @throws Error when a handler for `kind` is already registered.
   */
  process<K extends JobKind>(kind: K, handler: JobHandler<K>, options: { concurrency: number }): Promise<void>;
  /** Where the job `jobId` of `kind` is now (see {@link JobState}). */
  state(kind: JobKind, jobId: string): Promise<JobState>;
  /** Jobs by state for each kind, for queue-depth metrics. */
  counts(): Promise<Record<JobKind, JobCounts>>;
  /** Resolves when the queue's store answers (readiness); @throws when it does not. */
  ping(): Promise<void>;
  /**
   * Stops taking jobs, waits for running handlers to return (stop them first, e.g. by aborting
   * their work) and closes connections. Jobs not yet run stay stored (BullMQ) or are dropped
   * (in-process: their rows are re-enqueued on the next start, see build-runner.ts).
   */
  close(): Promise<void>;
}

/** Every job kind, for iteration. */
export const JOB_KINDS: readonly JobKind[] = ['build', 'schedule', 'approval', 'webhook', 'reindex', 'agent', 'analytics'];
