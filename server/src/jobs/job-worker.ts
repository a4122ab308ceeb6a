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

/** A row of a job table that a {@link RowSweepingJobWorker} enqueues again. */
export interface SweptRow {
  id: string;
  projectId: string;
}

/**
 * A job kind whose jobs are rows with a status (`queued`, then a claimed status such as `running`):
 * on start, rows `queued` or left claimed by a stopped process are enqueued again; every
 * `sweepMs` (default 30,000), rows still `queued` are. Subclasses say how to list rows by status
 * and how to enqueue one.
 */
export abstract class RowSweepingJobWorker<K extends JobKind> extends SweepingJobWorker<K> {
  private readonly sweepMs: number;

  /**
   * @param claimedStatus the status a row has while a process works it (`running`, `processing`)
   * @param label names the sweep in the log ("`label` failed")
   */
  protected constructor(
    ctx: AppContext,
    kind: K,
    private readonly claimedStatus: string,
    private readonly label: string,
    sweepMs: number | undefined,
  ) {
    super(ctx, kind);
    this.sweepMs = sweepMs ?? 30_000;
  }

  /** The rows whose status is one of `statuses`, oldest first. */
  protected abstract findRows(statuses: string[]): Promise<SweptRow[]>;
  /** Offers one row's job to the queue again (deduplicated by the row's id). */
  protected abstract enqueueRow(row: SweptRow): Promise<void>;

  protected firstSweep(): Promise<void> {
    return this.requeue(this.label, () => this.findRows(['queued', this.claimedStatus]), (row) => this.enqueueRow(row));
  }

  protected periodicSweep(): Promise<void> {
    return this.requeue(this.label, () => this.findRows(['queued']), (row) => this.enqueueRow(row));
  }

  protected sweepIntervalMs(): number {
    return this.sweepMs;
  }
}
