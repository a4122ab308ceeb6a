/**
 * Outgoing webhooks in a server process (decisions.md section 8), as a Fastify plugin decorated as
 * `app.webhookRunner`:
 * - in every process, it records the build events it hears (`build.status`, events.ts) for the
 *   project's endpoints (services/webhook-events.ts; recording is idempotent, so every process of an
 *   installation may hear the same event);
 * - in a process that works jobs (`enabled`: QUIRE_WORKERS, like the build runner), it makes
 *   deliveries: handles `webhook` jobs (services/webhook-delivery.ts) and, on start and every
 *   `sweepMs`, queues pending deliveries from the database (on start those due within `horizonMs`,
 *   so deliveries pending when a server stopped go out after a restart; later those due now, e.g.
 *   an attempt whose process died).
 * Stopped in `preClose`, before the database closes, after the recordings and deliveries under way.
 */
import fp from 'fastify-plugin';
import type { AppContext } from '../context';
import { enqueueDueDeliveries, RETRY_DELAYS_MS, runDeliveryJob, type DeliverySchedule } from '../services/webhook-delivery';
import { recordBuildStatusEvent } from '../services/webhook-events';
import { SweepingJobWorker } from './job-worker';
import type { JobInfo, JobKinds, JobResult } from '../queue/job-queue';

/** Options of {@link WebhookRunner}. */
export interface WebhookRunnerOptions {
  /** Delays before each automatic retry, in ms (default {@link RETRY_DELAYS_MS}: 5 s ... 10 h; tests shorten it). */
  retryDelaysMs?: readonly number[];
  /** How often pending deliveries are swept from the database, in ms (default 30,000). */
  sweepMs?: number;
  /** On start, deliveries due within this many ms are queued (default 10 minutes). */
  horizonMs?: number;
  /** Deliveries made at once by this process (default 4). */
  concurrency?: number;
}

/** Delay before a job this runner got while stopping is offered again, in ms. */
const STOPPING_RETRY_MS = 1_000;

/** The delivery side of outgoing webhooks in one process (see the module comment). */
export class WebhookRunner extends SweepingJobWorker<'webhook'> {
  private readonly schedule: { retryDelaysMs: readonly number[] } = { retryDelaysMs: RETRY_DELAYS_MS };
  private sweepMs = 30_000;
  private horizonMs = 10 * 60_000;
  private deliveriesAtOnce = 4;

  constructor(ctx: AppContext, options: WebhookRunnerOptions = {}) {
    super(ctx, 'webhook');
    this.configure(options);
  }

  /**
   * Changes options. The retry delays apply to the next failure, also while started; the sweep
   * interval and horizon from the next {@link start}.
   */
  configure(options: WebhookRunnerOptions): void {
    if (options.retryDelaysMs) this.schedule.retryDelaysMs = [...options.retryDelaysMs];
    if (options.sweepMs !== undefined) this.sweepMs = options.sweepMs;
    if (options.horizonMs !== undefined) this.horizonMs = options.horizonMs;
    if (options.concurrency !== undefined) this.deliveriesAtOnce = options.concurrency;
  }

  /** The retry schedule in use. */
  get deliverySchedule(): DeliverySchedule {
    return this.schedule;
  }

  /** On start: the pending deliveries due within the horizon are queued (missed while no server ran). */
  protected firstSweep(): Promise<void> {
    return this.sweep(this.horizonMs);
  }

  protected periodicSweep(): Promise<void> {
    return this.sweep(0);
  }

  protected sweepIntervalMs(): number {
    return this.sweepMs;
  }

  protected override concurrency(): number {
    return this.deliveriesAtOnce;
  }

  /** Records the webhook event of a build status change (tracked, so {@link stop} waits for it). */
  onBuildStatus(change: { projectId: string; buildId: string; status: string }): void {
    void this.track(recordBuildStatusEvent(this.ctx, change));
  }

  private async sweep(horizonMs: number): Promise<void> {
    if (!this.running) return;
    await this.track(enqueueDueDeliveries(this.ctx, horizonMs)).catch((err: unknown) => this.ctx.log.error({ err }, 'webhook runner: sweeping pending deliveries failed'));
  }

  protected async handle(payload: JobKinds['webhook'], job: JobInfo): Promise<JobResult> {
    if (!this.running) return { retryInMs: STOPPING_RETRY_MS };
    return runDeliveryJob(this.ctx, payload, job, this.schedule);
  }

}

declare module 'fastify' {
  interface FastifyInstance {
    /** Outgoing webhooks of this process (jobs/webhook-plugin.ts): always records events; delivers once started. */
    webhookRunner: WebhookRunner;
  }
}

/** Options of the webhooks plugin. */
export interface WebhookPluginOptions extends WebhookRunnerOptions {
  /** Make deliveries in this process once the app is ready (as the build runner: QUIRE_WORKERS; tests may start it themselves). */
  enabled: boolean;
}

export default fp<WebhookPluginOptions>(
  async (app, { enabled, ...options }) => {
    const runner = new WebhookRunner(app.ctx, options);
    app.decorate('webhookRunner', runner);
    const onStatus = (change: { projectId: string; buildId: string; status: string }) => runner.onBuildStatus(change);
    app.ctx.events.on('build.status', onStatus);
    app.addHook('preClose', async () => {
      app.ctx.events.off('build.status', onStatus);
      await runner.stop();
    });
    if (enabled) app.addHook('onReady', async () => runner.start());
  },
  { name: 'webhooks' },
);
