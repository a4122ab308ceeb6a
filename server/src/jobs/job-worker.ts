/**
 * The start/stop skeleton shared by the job kinds a process works beside builds (schedules,
 * outgoing webhook deliveries, search reindexes): register the kind's handler with the app's job
 * queue once (`ctx.jobs.process`), sweep the database for work the queue may have lost (a restart,
 * a process that died) on start and then every interval, and on stop wait for the work under way
 * here. Subclasses say what a sweep and a job do.
 */
import type { AppContext } from '../context';
import type { JobInfo, JobKind, JobKinds, JobResult } from '../queue/job-queue';

/** Base class of a job kind's worker (see the module comment). */
export abstract class SweepingJobWorker<K extends JobKind> {
  /** true between {@link start} and {@link stop}: a handler called while false should offer its job again later */
  protected running = false;
  private registered = false;
  private timer: NodeJS.Timeout | undefined;
  private readonly inFlight = new Set<Promise<unknown>>();

  protected constructor(
    protected readonly ctx: AppContext,
    private readonly kind: K,
  ) {}

  /** Runs one job of the kind (called through {@link track}, so {@link stop} waits for it). */
  protected abstract handle(payload: JobKinds[K], job: JobInfo): Promise<JobResult>;
  /** The sweep made by {@link start} before it resolves. Must not throw (log instead). */
  protected abstract firstSweep(): Promise<void>;
  /** The sweep made every {@link sweepIntervalMs} while started. Must not throw (log instead). */
  protected abstract periodicSweep(): Promise<void>;
  /** Interval of {@link periodicSweep}, in ms, read at each {@link start}. */
  protected abstract sweepIntervalMs(): number;
  /** Jobs of the kind run at once in this process (read at the first {@link start}; default 1). */
  protected concurrency(): number {
    return 1;
  }
  /** Work to wait for on {@link stop} besides tracked jobs (e.g. a sweep under way). */
  protected async settle(): Promise<void> {}

  /** Whether {@link start} was called and {@link stop} not yet. */
  get started(): boolean {
    return this.running;
  }

  /** Starts working the kind's jobs here; resolves after the first sweep, then sweeps every interval. */
  async start(): Promise<void> {
    if (this.running) return;
    this.running = true;
    if (!this.registered) {
      this.registered = true;
      await this.ctx.jobs.process(this.kind, (payload, job) => this.track(this.handle(payload, job)), { concurrency: this.concurrency() });
    }
    await this.firstSweep();
    if (!this.running) return;
    this.timer = setInterval(() => void this.periodicSweep(), this.sweepIntervalMs());
    this.timer.unref();
  }

  /** Stops sweeping and taking jobs; resolves once the work under way here has settled. */
  async stop(): Promise<void> {
    this.running = false;
    clearInterval(this.timer);
    this.timer = undefined;
    await this.settle();
    await Promise.allSettled([...this.inFlight]);
  }

  /**
   * A sweep: enqueues again every row `find` lists (its job queue deduplicates by id); a failure is
   * logged as "`what` failed", never thrown. Does nothing once stopped.
   */
  protected async requeue<R>(what: string, find: () => Promise<R[]>, enqueue: (row: R) => Promise<void>): Promise<void> {
    if (!this.running) return;
    try {
      for (const row of await find()) await enqueue(row);
    } catch (err) {
      this.ctx.log.error({ err }, `${what} failed`);
    }
  }

  /** Tracks work so {@link stop} waits for it; returns it unchanged. */
  protected track<T>(work: Promise<T>): Promise<T> {
    this.inFlight.add(work);
    void work.finally(() => this.inFlight.delete(work)).catch(() => {});
    return work;
  }
}
