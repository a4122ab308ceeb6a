import { DelayedError, Queue, Worker, type Job } from 'bullmq';
import type { RedisLog } from '../redis';
import type { EnqueueOptions, JobCounts, JobHandler, JobKind, JobKinds, JobQueue, JobState } from './job-queue';
import { JOB_KINDS } from './job-queue';

/**
 * Lock of a running job, in ms: the worker renews it every half of this while the job runs; a
 * worker that dies (SIGKILL, lost machine) stops renewing, and after at most this plus
 * {@link STALLED_INTERVAL_MS} another worker's stalled check moves the job back to waiting and
 * it is taken again (BullMQ "stalled jobs"): about 15 s, well within 30 s.
 */
export const LOCK_DURATION_MS = 10_000;
/** How often each worker looks for jobs whose lock expired, in ms. */
export const STALLED_INTERVAL_MS = 5_000;
/** Times a job may be taken again after its worker died before it is failed (a build that kills every worker). */
export const MAX_STALLED_COUNT = 5;
/** Longest wait of {@link BullMqQueue.ping} for Redis, in ms. */
const PING_TIMEOUT_MS = 2_000;
/** Finished jobs kept for inspection per queue (the Build rows are the record). */
const KEEP_COMPLETED = { count: 1000, age: 24 * 3600 };
const KEEP_FAILED = { count: 5000, age: 7 * 24 * 3600 };

/** Options of {@link BullMqQueue}. */
export interface BullMqQueueOptions {
  /** `redis://[user:password@]host:port[/db]` or `rediss://` (REDIS_URL). */
  url: string;
  /** Key prefix of every queue (QUIRE_QUEUE_PREFIX); processes with the same prefix share jobs. */
  prefix: string;
  log: RedisLog & { error(obj: object, msg: string): void };
}

/**
 * The {@link JobQueue} on Redis with BullMQ (REDIS_URL): one BullMQ queue per kind named
 * `<kind>` under the key prefix `<prefix>` (keys `<prefix>:<kind>:*`). Jobs survive restarts and
 * are shared by every process with the same prefix; a job id dedupes while its job exists
 * (an enqueue of an id whose job already finished replaces the finished one). A running job whose
 * worker died is taken again by another worker ({@link LOCK_DURATION_MS}). `retryInMs` moves the
 * job to BullMQ's delayed set (`DelayedError`). Finished jobs are kept bounded (1,000 completed
 * for a day, 5,000 failed for a week).
 */
export class BullMqQueue implements JobQueue {
  readonly backend = 'bullmq' as const;
  private readonly queues = new Map<JobKind, Queue>();
  private readonly workers = new Map<JobKind, Worker>();
  private closed = false;

  constructor(private readonly options: BullMqQueueOptions) {}

  async enqueue<K extends JobKind>(kind: K, payload: JobKinds[K], options: EnqueueOptions = {}): Promise<void> {
    if (this.closed) throw new Error('BullMqQueue.enqueue: the queue is closed');
    const queue = this.queue(kind);
    if (options.jobId) {
      const existing = await queue.getJob(options.jobId);
      const state = existing ? await existing.getState() : undefined;
      if (existing && (state === 'completed' || state === 'failed')) await existing.remove().catch(() => {});
    }
    await queue.add(kind, payload, {
      ...(options.jobId ? { jobId: options.jobId } : {}),
      ...(options.delayMs ? { delay: options.delayMs } : {}),
      removeOnComplete: KEEP_COMPLETED,
      removeOnFail: KEEP_FAILED,
    });
  }

  async process<K extends JobKind>(kind: K, handler: JobHandler<K>, options: { concurrency: number }): Promise<void> {
    if (this.workers.has(kind)) throw new Error(`BullMqQueue.process: a handler for ${kind} is already registered`);
    const worker = new Worker(
      kind,
      async (job: Job, token?: string) => {
        const result = await handler(job.data as JobKinds[K], { id: job.id ?? '', attempt: job.attemptsStarted || 1 });
        if (result) {
          await job.moveToDelayed(Date.now() + Math.max(1, result.retryInMs), token);
          throw new DelayedError();
        }
      },
      {
        connection: this.connection(`quire-worker-${kind}`, null),
        prefix: this.options.prefix,
        concurrency: Math.max(1, options.concurrency),
        lockDuration: LOCK_DURATION_MS,
        stalledInterval: STALLED_INTERVAL_MS,
        maxStalledCount: MAX_STALLED_COUNT,
        removeOnComplete: KEEP_COMPLETED,
        removeOnFail: KEEP_FAILED,
      },
    );
    worker.on('error', (err) => this.options.log.warn({ err, kind }, 'job worker error (retrying)'));
    worker.on('failed', (job, err) => this.options.log.error({ err, kind, jobId: job?.id }, 'job failed'));
    this.workers.set(kind, worker);
    await worker.waitUntilReady();
  }

  async counts(): Promise<Record<JobKind, JobCounts>> {
    const out = {} as Record<JobKind, JobCounts>;
    for (const kind of JOB_KINDS) {
      const c = await this.queue(kind).getJobCounts('waiting', 'prioritized', 'delayed', 'active');
      out[kind] = { waiting: (c.waiting ?? 0) + (c.prioritized ?? 0), delayed: c.delayed ?? 0, active: c.active ?? 0 };
    }
    return out;
  }

  async state(kind: JobKind, jobId: string): Promise<JobState> {
    const job = await this.queue(kind).getJob(jobId);
    if (!job) return { state: 'gone' };
    const state = await job.getState();
    if (state === 'active') return { state: 'active' };
    if (state === 'delayed') return { state: 'delayed' };
    if (state === 'waiting' || state === 'prioritized' || state === 'waiting-children') return { state: 'waiting' };
    if (state === 'failed') return { state: 'failed', reason: job.failedReason || 'failed' };
    return { state: 'gone' };
  }

  async ping(): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`Redis did not answer within ${PING_TIMEOUT_MS} ms`)), PING_TIMEOUT_MS);
    });
    try {
      await Promise.race([this.queue(JOB_KINDS[0]!).getJobCounts('waiting'), timeout]);
    } finally {
      clearTimeout(timer);
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    await Promise.all([...this.workers.values()].map((w) => w.close()));
    await Promise.all([...this.queues.values()].map((q) => q.close()));
  }

  private queue(kind: JobKind): Queue {
    let queue = this.queues.get(kind);
    if (!queue) {
      queue = new Queue(kind, { connection: this.connection(`quire-queue-${kind}`, 3), prefix: this.options.prefix });
      queue.on('error', (err) => this.options.log.warn({ err, kind }, 'job queue connection error (retrying)'));
      this.queues.set(kind, queue);
    }
    return queue;
  }

  private connection(name: string, maxRetriesPerRequest: number | null) {
    return { url: this.options.url, connectionName: name, maxRetriesPerRequest };
  }
}
