import { AsyncResource } from 'node:async_hooks';
import type { EnqueueOptions, JobCounts, JobHandler, JobInfo, JobKind, JobKinds, JobQueue, JobResult, JobState } from './job-queue';
import { JOB_KINDS } from './job-queue';

interface Entry {
  kind: JobKind;
  id: string;
  payload: unknown;
  attempt: number;
  timer?: NodeJS.Timeout;
}

interface Worker {
  handler: (payload: unknown, job: JobInfo) => Promise<JobResult>;
  concurrency: number;
  running: number;
}

/**
 * The default {@link JobQueue}: jobs live in this process's memory and run here (no Redis).
 * A job enqueued while a handler has room starts in the same tick (no polling delay); FIFO per
 * kind; a `jobId` is deduplicated while its job is waiting, delayed or running. Jobs are not
 * durable: the database rows they are about are re-enqueued by their owner on start
 * (build-runner.ts re-enqueues queued builds). Handlers run in the async context the queue was
 * made in, not in the request that enqueued (their log lines are not a request's).
 */
export class InProcessQueue implements JobQueue {
  readonly backend = 'in-process' as const;
  private readonly waiting = new Map<JobKind, Entry[]>();
  private readonly delayed = new Map<string, Entry>();
  private readonly known = new Set<string>();
  /** `kind:id` of the jobs running now. */
  private readonly activeKeys = new Set<string>();
  private readonly workers = new Map<JobKind, Worker>();
  private readonly running = new Set<Promise<void>>();
  private closed = false;
  private seq = 0;
  private readonly home = new AsyncResource('quire-in-process-queue');

  /** @param log told about a handler that threw (the job is dropped as failed). */
  constructor(private readonly log: { error(obj: object, msg: string): void }) {}

  async enqueue<K extends JobKind>(kind: K, payload: JobKinds[K], options: EnqueueOptions = {}): Promise<void> {
    if (this.closed) throw new Error('InProcessQueue.enqueue: the queue is closed');
    const id = options.jobId ?? `job-${++this.seq}`;
    const key = `${kind}:${id}`;
    if (this.known.has(key)) return;
    this.known.add(key);
    this.schedule({ kind, id, payload, attempt: 1 }, options.delayMs ?? 0);
  }

  async process<K extends JobKind>(kind: K, handler: JobHandler<K>, options: { concurrency: number }): Promise<void> {
    if (this.workers.has(kind)) throw new Error(`InProcessQueue.process: a handler for ${kind} is already registered`);
    this.workers.set(kind, { handler: handler as Worker['handler'], concurrency: Math.max(1, options.concurrency), running: 0 });
    this.drain(kind);
  }

  async counts(): Promise<Record<JobKind, JobCounts>> {
    const out = {} as Record<JobKind, JobCounts>;
    for (const kind of JOB_KINDS) {
      out[kind] = {
        waiting: this.waiting.get(kind)?.length ?? 0,
        delayed: [...this.delayed.values()].filter((e) => e.kind === kind).length,
        active: this.workers.get(kind)?.running ?? 0,
      };
    }
    return out;
  }

  /** A job that failed is forgotten here (logged): it is `gone`, like a finished one. */
  async state(kind: JobKind, jobId: string): Promise<JobState> {
    const key = `${kind}:${jobId}`;
    if (this.activeKeys.has(key)) return { state: 'active' };
    if (this.delayed.has(key)) return { state: 'delayed' };
    if (this.waiting.get(kind)?.some((e) => e.id === jobId)) return { state: 'waiting' };
    return { state: 'gone' };
  }

  async ping(): Promise<void> {}

  async close(): Promise<void> {
    this.closed = true;
    for (const e of this.delayed.values()) clearTimeout(e.timer);
    this.delayed.clear();
    this.waiting.clear();
    await Promise.all([...this.running]);
  }

  private schedule(entry: Entry, delayMs: number): void {
    if (delayMs > 0) {
      const key = `${entry.kind}:${entry.id}`;
      entry.timer = setTimeout(() => {
        this.delayed.delete(key);
        this.push(entry);
      }, delayMs);
      entry.timer.unref();
      this.delayed.set(key, entry);
      return;
    }
    this.push(entry);
  }

  private push(entry: Entry): void {
    if (this.closed) return;
    const list = this.waiting.get(entry.kind) ?? [];
    list.push(entry);
    this.waiting.set(entry.kind, list);
    this.drain(entry.kind);
  }

  /** Starts waiting jobs of `kind` while its handler has room. */
  private drain(kind: JobKind): void {
    const worker = this.workers.get(kind);
    const list = this.waiting.get(kind);
    while (!this.closed && worker && list && list.length > 0 && worker.running < worker.concurrency) {
      const entry = list.shift()!;
      worker.running++;
      const run = this.home.runInAsyncScope(() => this.run(worker, entry)).finally(() => {
        worker.running--;
        this.running.delete(run);
        this.drain(kind);
      });
      this.running.add(run);
    }
  }

  private async run(worker: Worker, entry: Entry): Promise<void> {
    const key = `${entry.kind}:${entry.id}`;
    let result: JobResult;
    this.activeKeys.add(key);
    try {
      result = await worker.handler(entry.payload, { id: entry.id, attempt: entry.attempt });
    } catch (err) {
      this.log.error({ err, kind: entry.kind, jobId: entry.id }, 'job failed');
      this.known.delete(key);
      return;
    } finally {
      this.activeKeys.delete(key);
    }
    if (result && !this.closed) {
      this.schedule({ ...entry, attempt: entry.attempt + 1 }, result.retryInMs);
      return;
    }
    this.known.delete(key);
  }
}
