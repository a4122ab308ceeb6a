import fs from 'node:fs';
import type { AppContext } from '../context';
import { dataPaths } from '../data-paths';
import type { RunBuildInput, RunBuildResult } from '../builder/pipeline';
import { WAITING_FOR_APPROVAL, closeApprovalOfBuild } from '../services/approvals';
import type { JobInfo, JobKinds, JobResult } from '../queue/job-queue';
import { finishInterruptedDeploys } from '../deployments/after-deploy';
import { enqueueQueuedBuilds, settleOrphans } from '../builds/build-sweep';
import { CANCEL, endWaiting, logBuildLine, NOT_WAITING, saveStoredLog, setBuildStatus, SHUTDOWN } from '../builds/build-status';
import { finishDecidedApproval } from '../builds/deploy-gates';
import { runClaimedBuild, type Builder } from '../builds/run-build';
import { claimBuild } from '../builds/claim-build';

/**
 * The real builder, loaded on the first build: the renderer (shiki, unified, markdown-it) takes
 * about 1.5 s to import, which a server that builds nothing, and every test app, need not pay.
 */
const realRunBuild = async (input: RunBuildInput): Promise<RunBuildResult> => (await import('../builder/pipeline')).runBuild(input);

/** Options of {@link BuildRunner}. */
export interface BuildRunnerOptions {
  /** Builds running at once across projects (default 1: a build uses every core for rendering). */
  concurrency?: number;
  /**
   * How often queued builds are re-enqueued (a sweep that catches builds whose enqueue failed or
   * that another process inserted), in ms (default 2000 in-process, 15000 with BullMQ).
   */
  pollMs?: number;
  /** The builder (default the real pipeline; tests may pass a controllable stand-in). */
  runBuild?: Builder;
}

/** How a build ended, as {@link BuildRunner.cancel} reports it. */
export type CancelOutcome = 'cancelled' | 'finished' | 'missing';

interface Active {
  projectId: string;
  controller: AbortController;
  done: Promise<void>;
}

/** Longest wait of a cancel for the build to stop, in ms. */
const CANCEL_WAIT_MS = 15_000;
/** How often a running build's row is read for a cancel or its project's deletion (from any process), in ms. */
export const CANCEL_POLL_MS = 1_000;
/** Delay before a build whose project is busy (another build `building`) is tried again, in ms. */
export const BUSY_RETRY_MS = 1_000;
/** Delay before a job this runner got while stopping is offered again, in ms. */
const STOPPING_RETRY_MS = 1_000;

/**
 * The build runner (decisions.md sections 1 and 4): the handler of `build` jobs of the app's
 * {@link JobQueue} (`ctx.jobs`: in-process, or BullMQ shared by every worker process). It alone
 * writes `Build.status`: queued → building → deployed | failed | cancelled (and back to queued
 * when its process stops mid-build). A job carries the build id; the Build row decides.
 *
 * - One build per project at a time, across processes: a job claims its build with
 *   `queued → building` in a serializable transaction that rolls back when another build of the
 *   project is `building` (SQLite serializes writers; PostgreSQL's serializable isolation fails
 *   one of two concurrent claims); an unclaimed job is retried after {@link BUSY_RETRY_MS}.
 *   At most `concurrency` builds at once in this process; jobs run in the order enqueued.
 * - A job whose build is already `building` is a job taken again after its worker died
 *   (BullMQ stalled-job handling, bullmq-queue.ts): the build restarts here.
 * - On start, queued builds are (re-)enqueued, and every `pollMs` after; in-process (one process
 *   owns every build) builds left `building` by a stopped or crashed process are requeued first.
 * - Running a claimed build: builds/run-build.ts (checkout, render, publish); a production or
 *   version build then passes its approval gates (builds/deploy-gates.ts), and when it must wait
 *   it stays `building` with `step: waiting_for_approval` and this handler returns (no worker is
 *   held; restarts and sweeps leave it alone); the `approval` job of its decided approval later
 *   deploys or fails it, in whichever process works jobs. Deploying: deployments/deploy.ts.
 * - Cancel: a queued build ends `cancelled` at once, and so does one waiting for approval (its
 *   approval is closed as rejected, its output removed); a building one gets `cancelRequested`, which
 *   the process running it reads every {@link CANCEL_POLL_MS} (and at once when it is this one),
 *   aborts it and ends it `cancelled`.
 * - Stop (app close, SIGTERM): running builds are aborted and requeued, never left `building`.
 * Every line of a build's progress goes to `<dataDir>/logs/<buildId>.log`.
 */
export class BuildRunner {
  private readonly active = new Map<string, Active>();
  private concurrency = 1;
  private pollMs = 2000;
  private build: Builder = realRunBuild;
  private pollSet = false;
  private timer: NodeJS.Timeout | undefined;
  private running = false;
  private registered = false;
  private sweeping: Promise<void> | undefined;

  constructor(
    private readonly ctx: AppContext,
    options: BuildRunnerOptions = {},
  ) {
    this.configure(options);
  }

  /**
   * Changes options before {@link start} (tests swap in a controllable builder this way).
   * @throws Error when the runner is already started.
   */
  configure(options: BuildRunnerOptions): void {
    if (this.running) throw new Error('BuildRunner.configure: stop the runner first');
    if (options.concurrency !== undefined) this.concurrency = Math.max(1, options.concurrency);
    if (options.pollMs !== undefined) {
      this.pollMs = options.pollMs;
      this.pollSet = true;
    }
    if (options.runBuild) this.build = options.runBuild;
  }

  /** Whether {@link start} was called and {@link stop} not yet. */
  get started(): boolean {
    return this.running;
  }

  /**
   * Starts working `build` and `approval` jobs of `ctx.jobs` in this process. In-process, builds
   * left `building` (except those waiting for approval) are requeued first; then every queued build is enqueued (deduplicated by build id), now and
   * every `pollMs`.
   */
  async start(): Promise<void> {
    if (this.running) return;
    const jobs = this.ctx.jobs;
    if (jobs.backend === 'in-process') {
      const stale = await this.ctx.db.prisma.build.findMany({ where: { status: 'building', ...NOT_WAITING }, select: { id: true, projectId: true } });
      for (const b of stale) {
        fs.rmSync(dataPaths(this.ctx.config.dataDir).site(b.projectId, b.id), { recursive: true, force: true });
        await setBuildStatus(this.ctx, b.id, 'building', 'queued', { startedAt: null });
        logBuildLine(this.ctx, b.id, 'requeued: the server stopped while this build was running');
      }
    }
    this.running = true;
    if (!this.registered) {
      this.registered = true;
      await jobs.process('build', (payload, job) => this.handle(payload, job), { concurrency: this.concurrency });
      await jobs.process('approval', (payload) => finishDecidedApproval(this.ctx, payload), { concurrency: 1 });
    }
    const pollMs = this.pollSet ? this.pollMs : jobs.backend === 'bullmq' ? 15_000 : 2_000;
    this.timer = setInterval(() => this.sweep(), pollMs);
    this.timer.unref();
    this.sweep();
    await this.sweeping;
  }

  /**
   * Stops working builds: running ones are aborted and put back to `queued` (with BullMQ their
   * jobs go back to the queue for another worker at once); resolves once each has settled.
   */
  async stop(): Promise<void> {
    if (!this.running) return;
    this.running = false;
    clearInterval(this.timer);
    await this.sweeping;
    for (const a of this.active.values()) a.controller.abort(SHUTDOWN);
    await Promise.all([...this.active.values()].map((a) => a.done));
  }

  /**
   * Sweeps once (skipped while one runs): with a shared queue (BullMQ) settles orphans
   * (builds/build-sweep.ts `settleOrphans`), finishes deploys interrupted after their commit
   * (deployments/after-deploy.ts), then enqueues queued builds and lost approval jobs
   * (`enqueueQueuedBuilds`); errors are logged.
   */
  private sweep(): void {
    if (!this.running || this.sweeping) return;
    this.sweeping = (async () => {
      if (this.ctx.jobs.backend === 'bullmq') await settleOrphans(this.ctx, (buildId) => this.active.has(buildId));
      await finishInterruptedDeploys(this.ctx).catch((err: unknown) => this.ctx.log.error({ err }, 'build runner: finishing interrupted deploys failed'));
      await enqueueQueuedBuilds(this.ctx);
    })()
      .catch((err: unknown) => this.ctx.log.error({ err }, 'build runner: enqueuing queued builds failed'))
      .finally(() => {
        this.sweeping = undefined;
      });
  }

  /**
   * Cancels a build: `queued` → `cancelled` at once; `building` → aborted, and this resolves once
   * it has stopped (at most 15 s) as `cancelled`.
   * @returns `cancelled`; `finished` when it had already ended (deployed, failed, cancelled) or
   *   finished before the abort took effect; `missing` when there is no such build.
   */
  async cancel(buildId: string): Promise<CancelOutcome> {
    const prisma = this.ctx.db.prisma;
    const row = await prisma.build.findUnique({ where: { id: buildId }, select: { status: true, projectId: true, step: true } });
    if (!row) return 'missing';
    if (row.status !== 'queued' && row.status !== 'building') return 'finished';
    if (row.status === 'building' && row.step === WAITING_FOR_APPROVAL && !this.active.has(buildId)) {
      if (await endWaiting(this.ctx, buildId, row.projectId, 'cancelled', { cancelRequested: true })) {
        logBuildLine(this.ctx, buildId, 'cancelled while waiting for approval');
        await saveStoredLog(this.ctx, row.projectId, buildId);
        return 'cancelled';
      }
      const after = await prisma.build.findUnique({ where: { id: buildId }, select: { status: true } });
      return after?.status === 'cancelled' ? 'cancelled' : 'finished';
    }
    if (row.status === 'queued') {
      if (await setBuildStatus(this.ctx, buildId, 'queued', 'cancelled', { finishedAt: new Date(), cancelRequested: true })) {
        await closeApprovalOfBuild(this.ctx, buildId);
        logBuildLine(this.ctx, buildId, 'cancelled before it started');
        return 'cancelled';
      }
    }
    await prisma.build.updateMany({ where: { id: buildId, status: { in: ['queued', 'building'] } }, data: { cancelRequested: true } });
    const active = this.active.get(buildId);
    const until = Date.now() + CANCEL_WAIT_MS;
    if (active) {
      active.controller.abort(CANCEL);
      await Promise.race([active.done, new Promise((r) => setTimeout(r, CANCEL_WAIT_MS).unref())]);
    }
    // It may have reached its approval wait just as the cancel came.
    const settled = await prisma.build.findUnique({ where: { id: buildId }, select: { status: true, step: true } });
    if (settled?.status === 'building' && settled.step === WAITING_FOR_APPROVAL && (await endWaiting(this.ctx, buildId, row.projectId, 'cancelled', { cancelRequested: true }))) {
      logBuildLine(this.ctx, buildId, 'cancelled while waiting for approval');
      await saveStoredLog(this.ctx, row.projectId, buildId);
      return 'cancelled';
    }
    let after = await prisma.build.findUnique({ where: { id: buildId }, select: { status: true } });
    // Another process runs it: it reads cancelRequested within CANCEL_POLL_MS and ends it.
    while (after && (after.status === 'queued' || after.status === 'building') && Date.now() < until) {
      await new Promise((r) => setTimeout(r, 100));
      after = await prisma.build.findUnique({ where: { id: buildId }, select: { status: true } });
    }
    return after?.status === 'deployed' || after?.status === 'failed' ? 'finished' : 'cancelled';
  }

  /**
   * Cleans up after a deleted project: aborts its running build, then removes its deployments,
   * repository cache and page cache from the data dir and its objects from the deployment store
   * (its rows went with the project).
   */
  async forgetProject(projectId: string): Promise<void> {
    const mine = [...this.active.values()].filter((a) => a.projectId === projectId);
    for (const a of mine) a.controller.abort(CANCEL);
    await Promise.all(mine.map((a) => a.done));
    const paths = dataPaths(this.ctx.config.dataDir);
    for (const dir of [paths.sites(projectId), paths.repos(projectId), paths.cache(projectId)]) fs.rmSync(dir, { recursive: true, force: true });
    await this.ctx.deploymentStore
      .removeProject(projectId)
      .catch((err: unknown) => this.ctx.log.warn({ err, projectId }, 'removing a deleted project from the deployment store failed'));
  }

  /**
   * The `build` job handler: claims the build and runs it here. Returns `{ retryInMs }` when the
   * project is busy or this runner is stopping (the job is offered again), nothing when the build
   * ended or needs no run (finished, cancelled, deleted).
   */
  private async handle({ buildId }: JobKinds['build'], job: JobInfo): Promise<JobResult> {
    if (!this.running) return { retryInMs: STOPPING_RETRY_MS };
    const prisma = this.ctx.db.prisma;
    const row = await prisma.build.findUnique({ where: { id: buildId } });
    if (!row || this.active.has(buildId)) return;
    const startedAt = new Date();
    if (row.status === 'building' && row.step === WAITING_FOR_APPROVAL) {
      // Waits for approval: its `approval` job finishes it (a stale duplicate of its build job).
      return;
    } else if (row.status === 'building') {
      // Taken again after the worker running it died (BullMQ stalled job): restart it here.
      if (!(await setBuildStatus(this.ctx, buildId, 'building', 'building', { startedAt }))) return;
      fs.rmSync(dataPaths(this.ctx.config.dataDir).site(row.projectId, buildId), { recursive: true, force: true });
      logBuildLine(this.ctx, buildId, `taken again (attempt ${job.attempt}): the worker running this build stopped`);
    } else if (row.status !== 'queued') {
      return;
    } else if (row.cancelRequested) {
      await setBuildStatus(this.ctx, buildId, 'queued', 'cancelled', { finishedAt: new Date() });
      return;
    } else {
      const claimed = await claimBuild(this.ctx, row, startedAt);
      if (claimed === 'busy') return { retryInMs: BUSY_RETRY_MS };
      if (claimed === 'gone') return;
      this.ctx.events.emit('build.status', { projectId: row.projectId, buildId, status: 'building' });
    }
    const controller = new AbortController();
    const entry: Active = { projectId: row.projectId, controller, done: Promise.resolve() };
    this.active.set(buildId, entry);
    const watch = setInterval(() => {
      prisma.build
        .findUnique({ where: { id: buildId }, select: { cancelRequested: true } })
        .then((r) => {
          if (!r || r.cancelRequested) controller.abort(CANCEL);
        })
        .catch(() => {});
    }, CANCEL_POLL_MS);
    watch.unref();
    entry.done = runClaimedBuild(this.ctx, { ...row, startedAt }, startedAt, controller.signal, this.build)
      .catch((err: unknown) => this.ctx.log.error({ err, buildId }, 'build runner: recording a build outcome failed'))
      .finally(() => {
        clearInterval(watch);
        this.active.delete(buildId);
      });
    await entry.done;
    return controller.signal.aborted && controller.signal.reason === SHUTDOWN ? { retryInMs: 0 } : undefined;
  }
}
