import fs from 'node:fs';
import path from 'node:path';
import type { AppContext } from '../context';
import { dataPaths } from '../data-paths';
import type { Models } from '../db/client';
import { ApiError } from '@quire/shared/errors';
import { BuildError } from '../builder/errors';
import { buildLimitsFrom } from '../builder/build-limits';
import type { RunBuildInput, RunBuildResult } from '../builder/pipeline';

/**
 * The real builder, loaded on the first build: the renderer (shiki, unified, markdown-it) takes
 * about 1.5 s to import, which a server that builds nothing, and every test app, need not pay.
 */
const realRunBuild = async (input: RunBuildInput): Promise<RunBuildResult> => (await import('../builder/pipeline')).runBuild(input);
import { projectSiteUrl } from '../services/projects';
import { branchSlug, previewSiteUrl } from '../deployments/site-host';
import { BuildLog, readBuildLog } from '../builds/build-log';
import { lintOptionsOf } from '../services/style-rules';
import { reviewOverlay } from '../services/reviews';
import { reviewPreviewName } from '../services/review-dto';
import { parseStringList } from '../db/json-columns';
import { lastChangedAt } from '../git/repo-reader';
import { previewIdentityOf, writePreviewInfo } from '../deployments/preview-changes';
import { saveLintReport } from '../services/lint-results';
import type { BuildOutcome } from '../ops/metrics';
import { pruneOldDeployments, publishDeployment, publishedDeploymentDir, recordPublishedDeployment } from '../deployments/publish';
import { channelOf, checkDeployGates, closeApprovalOfBuild, enqueueApprovalJob, WAITING_FOR_APPROVAL } from '../services/approvals';
import type { JobInfo, JobKinds, JobResult } from '../queue/job-queue';
import { completeAfterDeploy, finishInterruptedDeploys, queueVersionsLogged } from '../deployments/after-deploy';
import { requestFollowUpReindex } from '../search/reindex-jobs';
import { planVersionBuild, versionSiteUrl, type VersionBuildPlan } from '../versions/version-build';

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
  runBuild?: (input: RunBuildInput) => Promise<RunBuildResult>;
}

/** How a build ended, as {@link BuildRunner.cancel} reports it. */
export type CancelOutcome = 'cancelled' | 'finished' | 'missing';

/** Abort reasons: a user's cancel, or the server stopping (the build is requeued). */
const CANCEL = 'cancel';
const SHUTDOWN = 'shutdown';

interface Active {
  projectId: string;
  controller: AbortController;
  done: Promise<void>;
}

type BuildRow = Models.BuildModel;

/** Longest wait of a cancel for the build to stop, in ms. */
const CANCEL_WAIT_MS = 15_000;
/** How often a running build's row is read for a cancel or its project's deletion (from any process), in ms. */
export const CANCEL_POLL_MS = 1_000;
/** Delay before a build whose project is busy (another build `building`) is tried again, in ms. */
export const BUSY_RETRY_MS = 1_000;
/** Delay before a job this runner got while stopping is offered again, in ms. */
const STOPPING_RETRY_MS = 1_000;
/**
 * A `building` build started longer ago than this (ms) whose queue job is failed or gone is an
 * orphan (see {@link BuildRunner} "sweep"); younger ones are left alone while their claim settles.
 */
export const ORPHAN_AFTER_MS = 30_000;
/** The error of a build whose job the queue gave up after its workers died too often. */
export const WORKERS_DIED_ERROR =
  'The build stopped because the worker processes running it kept stopping (out of memory, or a crash); it was not tried again. The previous deployment keeps serving.';

/** Where-clause of running builds that are not waiting for approval (those hold no worker and are left alone). */
const NOT_WAITING = { OR: [{ step: null }, { step: { not: WAITING_FOR_APPROVAL } }] };

/** The error of a build whose deploy was rejected (decisions.md section 9: it fails with the reason). */
export function rejectedError(reason: string): string {
  return `The deploy was rejected: ${reason}`;
}

/** Thrown inside the claim transaction to roll it back when the project already has a build running. */
class ProjectBusy extends Error {}

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
 * - Success: the site is published to the deployment store; a production or version build then passes the
 *   deploy check of approval gates (services/approvals.ts `checkDeployGates`). When it must wait,
 *   it stays `building` with `step: waiting_for_approval` and this handler returns (no worker is
 *   held; restarts and sweeps leave it alone, pruning keeps its output); the `approval` job of its
 *   decided approval later deploys it ({@link BuildRunner.deploy}, the same path) or fails it with
 *   the rejection's reason, in whichever process works jobs. Deploying: the Deployment row and the
 *   build's `deployed`/`url`/`duration`/`deployedAt` commit in one transaction, then
 *   `deployment.changed` swaps the site, then old deployments are pruned.
 * - Failure: `failed` with the builder's message (`BuildError`, safe to show) or a generic one;
 *   the previous deployment keeps serving.
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
  private build: (input: RunBuildInput) => Promise<RunBuildResult> = realRunBuild;
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
        await this.setStatus(b.id, 'building', 'queued', { startedAt: null });
        this.logLine(b.id, 'requeued: the server stopped while this build was running');
      }
    }
    this.running = true;
    if (!this.registered) {
      this.registered = true;
      await jobs.process('build', (payload, job) => this.handle(payload, job), { concurrency: this.concurrency });
      await jobs.process('approval', (payload) => this.handleApproval(payload), { concurrency: 1 });
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
   * Enqueues every queued build now (deduplicated by build id; errors are logged), and the
   * `approval` job of every build waiting for an approval already decided (its job was lost: the
   * enqueue failed, or the server stopped before it ran). With a shared
   * queue (BullMQ) it also settles orphans: a build `building` for over {@link ORPHAN_AFTER_MS}
   * whose job the queue failed (its workers died more than `MAX_STALLED_COUNT` times) ends `failed`
   * with {@link WORKERS_DIED_ERROR}; one whose job is gone (Redis lost it) goes back to `queued`.
   */
  private sweep(): void {
    if (!this.running || this.sweeping) return;
    this.sweeping = (async () => {
      if (this.ctx.jobs.backend === 'bullmq') await this.settleOrphans();
      await finishInterruptedDeploys(this.ctx).catch((err: unknown) => this.ctx.log.error({ err }, 'build runner: finishing interrupted deploys failed'));
      const queued = await this.ctx.db.prisma.build.findMany({
        where: { status: 'queued' },
        orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
        select: { id: true, projectId: true },
      });
      for (const b of queued) await this.ctx.jobs.enqueue('build', { buildId: b.id, projectId: b.projectId }, { jobId: b.id });
      // Waiting builds whose approval was decided but whose job was lost (enqueue failed, server stopped).
      const waiting = await this.ctx.db.prisma.build.findMany({ where: { status: 'building', step: WAITING_FOR_APPROVAL }, select: { id: true } });
      if (waiting.length > 0) {
        const decided = await this.ctx.db.prisma.approval.findMany({
          where: { buildId: { in: waiting.map((b) => b.id) }, status: { not: 'pending' } },
          select: { id: true, buildId: true, projectId: true },
        });
        for (const a of decided) await enqueueApprovalJob(this.ctx, a);
      }
    })()
      .catch((err: unknown) => this.ctx.log.error({ err }, 'build runner: enqueuing queued builds failed'))
      .finally(() => {
        this.sweeping = undefined;
      });
  }

  private async settleOrphans(): Promise<void> {
    const building = await this.ctx.db.prisma.build.findMany({
      where: { status: 'building', ...NOT_WAITING, startedAt: { lt: new Date(Date.now() - ORPHAN_AFTER_MS) } },
      select: { id: true, startedAt: true },
    });
    for (const b of building) {
      if (this.active.has(b.id)) continue;
      const job = await this.ctx.jobs.state('build', b.id);
      if (job.state === 'failed') {
        if (await this.setStatus(b.id, 'building', 'failed', { error: WORKERS_DIED_ERROR, finishedAt: new Date() })) {
          this.ctx.log.error({ buildId: b.id, reason: job.reason }, 'build failed: the queue gave up its job');
          this.logLine(b.id, `✗ failed: ${WORKERS_DIED_ERROR} (queue: ${job.reason})`);
          this.ctx.metrics.observeBuild('failed', (Date.now() - (b.startedAt?.getTime() ?? Date.now())) / 1000);
        }
      } else if (job.state === 'gone') {
        if (await this.setStatus(b.id, 'building', 'queued', { startedAt: null })) {
          this.ctx.log.warn({ buildId: b.id }, 'build requeued: its job was missing from the queue');
          this.logLine(b.id, 'requeued: its job was missing from the queue (was Redis restarted without persistence?)');
        }
      }
    }
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
      if (await this.endWaiting(buildId, row.projectId, 'cancelled', { cancelRequested: true })) {
        this.logLine(buildId, 'cancelled while waiting for approval');
        await this.saveStoredLog(row.projectId, buildId);
        return 'cancelled';
      }
      const after = await prisma.build.findUnique({ where: { id: buildId }, select: { status: true } });
      return after?.status === 'cancelled' ? 'cancelled' : 'finished';
    }
    if (row.status === 'queued') {
      if (await this.setStatus(buildId, 'queued', 'cancelled', { finishedAt: new Date(), cancelRequested: true })) {
        await closeApprovalOfBuild(this.ctx, buildId);
        this.logLine(buildId, 'cancelled before it started');
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
    if (settled?.status === 'building' && settled.step === WAITING_FOR_APPROVAL && (await this.endWaiting(buildId, row.projectId, 'cancelled', { cancelRequested: true }))) {
      this.logLine(buildId, 'cancelled while waiting for approval');
      await this.saveStoredLog(row.projectId, buildId);
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
      if (!(await this.setStatus(buildId, 'building', 'building', { startedAt }))) return;
      fs.rmSync(dataPaths(this.ctx.config.dataDir).site(row.projectId, buildId), { recursive: true, force: true });
      this.logLine(buildId, `taken again (attempt ${job.attempt}): the worker running this build stopped`);
    } else if (row.status !== 'queued') {
      return;
    } else if (row.cancelRequested) {
      await this.setStatus(buildId, 'queued', 'cancelled', { finishedAt: new Date() });
      return;
    } else {
      const claimed = await this.claim(row, startedAt);
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
    entry.done = this.execute({ ...row, startedAt }, startedAt, controller.signal)
      .catch((err: unknown) => this.ctx.log.error({ err, buildId }, 'build runner: recording a build outcome failed'))
      .finally(() => {
        clearInterval(watch);
        this.active.delete(buildId);
      });
    await entry.done;
    return controller.signal.aborted && controller.signal.reason === SHUTDOWN ? { retryInMs: 0 } : undefined;
  }

  /**
   * Moves `build` from `queued` to `building` unless another build of its project is `building`,
   * atomically across processes (serializable transaction; see the class comment).
   * @returns `claimed`; `busy` when the project has a build running (or a concurrent claim won);
   *   `gone` when the build is no longer queued.
   */
  private async claim(build: BuildRow, startedAt: Date): Promise<'claimed' | 'busy' | 'gone'> {
    try {
      return await this.ctx.db.prisma.$transaction(
        async (tx) => {
          const { count } = await tx.build.updateMany({ where: { id: build.id, status: 'queued', cancelRequested: false }, data: { status: 'building', startedAt } });
          if (count !== 1) return 'gone' as const;
          // A build waiting for approval holds no worker: previews (and reviews' builds) of the project may run meanwhile.
          const others = await tx.build.count({ where: { projectId: build.projectId, status: 'building', id: { not: build.id }, ...NOT_WAITING } });
          if (others > 0) throw new ProjectBusy();
          return 'claimed' as const;
        },
        { isolationLevel: 'Serializable' },
      );
    } catch (err) {
      // ProjectBusy, or PostgreSQL's serialization failure (P2034) / SQLite's busy database.
      if (err instanceof ProjectBusy || (err as { code?: string }).code === 'P2034' || /SQLITE_BUSY|database is locked/i.test(String((err as Error).message))) return 'busy';
      throw err;
    }
  }

  /** Runs one claimed build to its outcome. */
  private async execute(build: BuildRow, startedAt: Date, signal: AbortSignal): Promise<void> {
    const { config, db } = this.ctx;
    let outcome: BuildOutcome | undefined;
    const log = new BuildLog(config.dataDir, build.id);
    const project = await db.prisma.project.findUnique({ where: { id: build.projectId } });
    try {
      if (!project) return;
      const production = projectSiteUrl(config, project.slug);
      // A version build's channel is its label (jobs/version-builds.ts); a preview's its preview name.
      const previewName = build.version ?? previewChannelOf(build, project.slug);
      let url = build.isPreview ? previewSiteUrl(production, previewName) : production;
      log.line(`build ${build.id} of ${project.slug}: ${build.version ? `version ${build.version}` : build.isPreview ? 'preview' : 'production'} from ${build.branch}${build.commitSha ? ` @ ${build.commitSha}` : ''} (trigger: ${build.trigger}), started ${startedAt.toISOString()}`);
      if (!project.repoUrl) throw new BuildError('The project has no repoUrl: set one with PATCH /v1/projects/{projectId}.');
      const previous = await this.liveDeploymentOf(project.id, build.version ? 'version' : build.isPreview ? 'preview' : 'production', previewName);
      const version = build.version ? await this.planVersion(build, project, production, log, signal) : undefined;
      if (version) url = version.url;
      // A push's list describes `changedSince..commitSha`: it stands for the change only from a deployment of `changedSince`.
      const changedFiles = build.changedFiles && previous && build.changedSince === previous.commitSha ? parseStringList(build.changedFiles) : null;
      const result = await this.build({
        projectId: project.id,
        buildId: build.id,
        repoUrl: project.repoUrl,
        branch: version ? version.ref.ref : build.branch,
        ...(build.commitSha ? { commitSha: build.commitSha } : {}),
        allowFileRepos: config.allowFileRepos,
        allowPrivateNetwork: config.allowPrivateNetwork,
        stateMemory: this.ctx.buildStates,
        // "Last updated" dates from each page file's git history (the build's own checkout is shallow)
        lastChanged: (commitSha, paths) => lastChangedAt(this.ctx, { projectId: project.id, repoUrl: project.repoUrl! }, commitSha, paths),
        dataDir: config.dataDir,
        siteUrl: url.replace(/\/+$/, ''),
        signal,
        log: (line) => log.line(line),
        limits: buildLimitsFrom(config),
        lint: await lintOptionsOf(db, project.id),
        ...(build.isPreview && build.reviewId ? { overlay: await reviewOverlay(db, build.reviewId) } : {}),
        ...(previous ? { previous } : {}),
        changedFiles,
        force: build.force || version?.force === true,
        // previews keep building their index: the reindex after a deploy covers production and versions only
        carrySearchIndex: !build.isPreview,
        ...(version ? { version: { basePath: version.basePath, versioning: version.versioning } } : {}),
      });
      if (result.noChanges && !signal.aborted) {
        outcome = await this.finishUnchanged(build, url, result, startedAt, log);
        return;
      }
      if (signal.aborted) {
        fs.rmSync(result.outDir, { recursive: true, force: true });
        await this.settleAborted(build.id, signal, log);
        return;
      }
      if (build.isPreview) {
        try {
          const identity = await previewIdentityOf(this.ctx, build);
          await writePreviewInfo(this.ctx, { projectId: project.id, stagingDir: result.outDir, ...identity, productionUrl: production });
        } catch (err) {
          this.ctx.log.warn({ err, buildId: build.id }, 'writing the preview banner data failed; the preview is published without its list of changed pages');
        }
      }
      const dir = await publishDeployment(this.ctx, project.id, build.id, result.outDir);
      if (result.lint && !build.version) {
        // Read only once the build is deployed (services/lint-results.ts); stored now so a build that waits for approval keeps it.
        await saveLintReport(db, { buildId: build.id, projectId: project.id, report: result.lint }).catch((err: unknown) =>
          this.ctx.log.warn({ err, buildId: build.id }, 'storing the lint results of a build failed'),
        );
      }
      // Production and version builds both reach the production host: each passes the gates against its own channel.
      if (!build.isPreview) {
        const gate = await checkDeployGates(this.ctx, build, project.repoUrl, { sha: result.commitSha, message: result.commitMessage }).catch(async (err: unknown) => {
          await this.ctx.deploymentStore.remove(dir).catch(() => undefined);
          // Fail closed: a deploy whose changes cannot be checked does not go live unchecked.
          if (err instanceof ApiError) throw new BuildError(`The changed pages could not be checked against the approval gates: ${err.message}`);
          throw err;
        });
        if (gate.kind === 'rejected') {
          await this.ctx.deploymentStore.remove(dir).catch(() => undefined);
          throw new BuildError(rejectedError(gate.reason));
        }
        if (gate.kind === 'wait') {
          const what = gate.gates.length > 0 ? `gates ${gate.gates.map((g) => `"${g.name}"`).join(', ')} (changed: ${gate.paths.slice(0, 20).join(', ')}${gate.paths.length > 20 ? `, and ${gate.paths.length - 20} more` : ''})` : 'an approval requested by hand';
          log.line(`⏸ waiting for approval ${gate.approvalId} before deploying: ${gate.requiredApprovals} approval(s) required by ${what}; rendered ${result.pages} pages (${result.warnings.length} warnings)`);
          this.ctx.events.emit('build.status', { projectId: project.id, buildId: build.id, status: 'building' });
          return;
        }
      }
      outcome = await this.deploy(
        { id: build.id, projectId: project.id, isPreview: build.isPreview, version: build.version },
        { dir, url, previewName, commitSha: result.commitSha, commitMessage: result.commitMessage, startedAt, searchIndexCarried: result.searchIndexCarried === true },
        log,
        `${result.pages} pages to ${url} in ${Date.now() - startedAt.getTime()} ms (${result.warnings.length} warnings)`,
        signal,
      );
    } catch (err) {
      if (signal.aborted) {
        await this.settleAborted(build.id, signal, log);
        return;
      }
      const message = err instanceof BuildError ? err.message : 'The build failed because of an internal error; the previous deployment keeps serving.';
      const cause = err instanceof BuildError ? (err as { cause?: unknown }).cause : err;
      if (cause) this.ctx.log.error({ err: cause, buildId: build.id, projectId: build.projectId }, 'build failed unexpectedly');
      outcome = 'failed';
      await this.setStatus(build.id, 'building', 'failed', {
        error: message,
        finishedAt: new Date(),
        duration: Date.now() - startedAt.getTime(),
      });
      log.line(`✗ failed: ${message}`);
      // An approval requested by hand for it has nothing left to decide.
      await closeApprovalOfBuild(this.ctx, build.id, `The build failed before its deploy step: ${message}`).catch(() => undefined);
    } finally {
      log.close();
      const ended = outcome ?? (signal.aborted ? (signal.reason === SHUTDOWN ? 'requeued' : 'cancelled') : undefined);
      if (ended && ended !== 'deployed') this.ctx.metrics.observeBuild(ended, (Date.now() - startedAt.getTime()) / 1000); // deployed: counted by deploy()
      // Other processes read the log from the store (this one's data directory is its own).
      if (this.ctx.deploymentStore.kind === 's3' && ended !== 'requeued') {
        await readBuildLog(config.dataDir, build.id)
          .then((text) => this.ctx.deploymentStore.saveBuildLog(build.projectId, build.id, text))
          .catch((err: unknown) => this.ctx.log.warn({ err, buildId: build.id }, 'saving the build log to the store failed'));
      }
    }
  }

  /**
   * The live deployment of a channel (the newest Deployment row of production, or of one preview),
   * as an incremental build's starting point: its build's commit and, with the local store, its
   * directory. Undefined when the channel never deployed or its build recorded no commit.
   */
  private async liveDeploymentOf(projectId: string, kind: 'production' | 'preview' | 'version', previewName: string): Promise<RunBuildInput['previous']> {
    const row = await this.ctx.db.prisma.deployment.findFirst({
      where: { projectId, kind, previewName },
      orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
      select: { dir: true, build: { select: { commitSha: true } } },
    });
    if (!row?.build.commitSha) return undefined;
    const localDir = this.ctx.deploymentStore.kind === 'local' ? path.resolve(this.ctx.config.dataDir, row.dir) : undefined;
    return { commitSha: row.build.commitSha, ...(localDir ? { localDir } : {}) };
  }

  /**
   * Ends a build whose commit is the one its channel already serves (and that was not forced):
   * `deployed` at once with the live deployment left serving and no new one recorded; its log
   * says "no changes".
   */
  private async finishUnchanged(build: BuildRow, url: string, result: RunBuildResult, startedAt: Date, log: BuildLog): Promise<BuildOutcome | undefined> {
    const now = new Date();
    const done = await this.setStatus(build.id, 'building', 'deployed', {
      step: null,
      url,
      duration: now.getTime() - startedAt.getTime(),
      deployedAt: now,
      finishedAt: now,
      commitSha: result.commitSha,
      commitMessage: result.commitMessage,
      afterDeployPending: true,
    });
    if (!done) return undefined;
    this.ctx.metrics.observeBuild('deployed', (now.getTime() - startedAt.getTime()) / 1000);
    log.line(`✓ no changes: ${result.commitSha.slice(0, 7)} is already deployed at ${url}; nothing rebuilt (trigger with force: true to rebuild)`);
    if (await queueVersionsLogged(this.ctx, build.id, log)) await completeAfterDeploy(this.ctx, build.id);
    return 'deployed';
  }

  /**
   * The deploy step, shared by a build that deploys at once and one deployed after its approval:
   * records the deployment and switches the served site ({@link recordPublishedDeployment}),
   * announces it, logs `✓ deployed <summary>` and prunes old deployments.
   * @param built where the published output is (`dir`, see `publishedDeploymentDir`) and what it was built from.
   * @returns `deployed`, or undefined when the build was no longer `building` (cancelled meanwhile:
   *   it is settled as aborted and its output removed).
   */
  private async deploy(
    build: { id: string; projectId: string; isPreview: boolean; version?: string | null },
    built: { dir: string; url: string; previewName: string; commitSha: string; commitMessage: string; startedAt: Date; searchIndexCarried?: boolean },
    log: BuildLog,
    summary: string,
    signal?: AbortSignal,
  ): Promise<BuildOutcome | undefined> {
    const deployed =
      !signal?.aborted &&
      (await recordPublishedDeployment(this.ctx, {
        buildId: build.id,
        projectId: build.projectId,
        kind: build.version ? 'version' : build.isPreview ? 'preview' : 'production',
        ...built,
      }));
    if (!deployed) {
      await this.ctx.deploymentStore.remove(built.dir).catch(() => undefined);
      if (signal) await this.settleAborted(build.id, signal, log);
      return undefined;
    }
    // The metric moves with the status: whoever sees the build deployed sees it counted.
    this.ctx.metrics.observeBuild('deployed', (Date.now() - built.startedAt.getTime()) / 1000);
    this.ctx.events.emit('deployment.changed', { projectId: build.projectId });
    this.ctx.events.emit('build.status', { projectId: build.projectId, buildId: build.id, status: 'deployed' });
    log.line(`✓ deployed ${summary}`);
    if (built.searchIndexCarried) {
      const jobId = await requestFollowUpReindex(this.ctx, build.projectId);
      if (jobId) log.line(`search: reindex ${jobId} queued to bring the carried index up to date`);
    }
    await pruneOldDeployments(this.ctx, build.projectId).catch((err: unknown) => this.ctx.log.warn({ err, projectId: build.projectId }, 'pruning old deployments failed'));
    const production = !build.isPreview && !build.version;
    if (!production || (await queueVersionsLogged(this.ctx, build.id, log))) await completeAfterDeploy(this.ctx, build.id);
    return 'deployed';
  }

  /**
   * A version build's plan (versions/version-build.ts): the ref it resolves to (logged, and recorded
   * as the build's branch), its base path and URL.
   * @throws BuildError when the version is no longer listed or none of its refs exists.
   */
  private async planVersion(build: BuildRow, project: { id: string; repoUrl: string | null }, productionUrl: string, log: BuildLog, signal: AbortSignal): Promise<VersionBuildPlan> {
    const live = await this.ctx.db.prisma.deployment.findFirst({
      where: { projectId: project.id, kind: 'version', previewName: build.version! },
      orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
      select: { dir: true },
    });
    const plan = await planVersionBuild(this.ctx, { projectId: project.id, label: build.version!, repoUrl: project.repoUrl ?? '', productionUrl, ...(live ? { live: live.dir } : {}), signal });
    log.line(`version ${plan.version.label}: building ${plan.ref.ref} (its ${plan.ref.from}) at ${plan.ref.commitSha.slice(0, 7)}, served under ${plan.basePath}/${plan.force ? '; the versions changed since its live deployment: every page is rendered again' : ''}`);
    if (build.branch !== plan.ref.ref) await this.ctx.db.prisma.build.updateMany({ where: { id: build.id }, data: { branch: plan.ref.ref } });
    return plan;
  }

  /**
   * The `approval` job handler: finishes a build that waited for approval once its approval is
   * decided, in whichever process runs the job. Approved: the deploy step ({@link deploy}), unless a
   * newer build of its channel (production, or its version) was deployed meanwhile (then it fails rather than roll the site back).
   * Rejected: `failed` with the reason. A job for a build not waiting (finished, cancelled, or still
   * rendering: retried) or an approval still pending does nothing.
   */
  private async handleApproval({ approvalId, buildId }: JobKinds['approval']): Promise<JobResult> {
    const prisma = this.ctx.db.prisma;
    const [approval, build] = await Promise.all([prisma.approval.findUnique({ where: { id: approvalId } }), prisma.build.findUnique({ where: { id: buildId } })]);
    if (!approval || !build || approval.buildId !== build.id || approval.status === 'pending' || build.status !== 'building') return;
    if (build.step !== WAITING_FOR_APPROVAL) return { retryInMs: BUSY_RETRY_MS }; // still before its deploy check
    const project = await prisma.project.findUnique({ where: { id: build.projectId } });
    if (!project) return;
    const dir = publishedDeploymentDir(this.ctx, build.projectId, build.id);
    const log = new BuildLog(this.ctx.config.dataDir, build.id);
    const startedAt = build.startedAt ?? build.createdAt;
    let outcome: BuildOutcome | undefined;
    try {
      if (approval.status === 'rejected') {
        const error = rejectedError(approval.reason ?? 'no reason given');
        if (await this.endWaiting(build.id, build.projectId, 'failed', { error, duration: Date.now() - startedAt.getTime() })) {
          log.line(`✗ failed: ${error}`);
          outcome = 'failed';
        }
        return;
      }
      const channel = channelOf(build);
      const newer = await prisma.deployment.findFirst({
        where: { projectId: build.projectId, ...channel, build: { createdAt: { gt: build.createdAt } } },
        select: { buildId: true },
      });
      if (newer) {
        const what = build.version ? `build of version ${build.version}` : 'production build';
        const error = `A newer ${what} (${newer.buildId}) was deployed while this one waited for approval; it was not deployed over it.`;
        if (await this.endWaiting(build.id, build.projectId, 'failed', { error, duration: Date.now() - startedAt.getTime() })) {
          log.line(`✗ failed: ${error}`);
          outcome = 'failed';
        }
        return;
      }
      log.line(`▶ approval ${approval.id} approved: deploying`);
      const production = projectSiteUrl(this.ctx.config, project.slug);
      const url = build.version ? versionSiteUrl(production, build.version) : production;
      outcome = await this.deploy(
        { id: build.id, projectId: build.projectId, isPreview: false, version: build.version },
        // the build may have carried its predecessor's search index: brought up to date after the deploy
        { dir, url, previewName: channel.previewName, commitSha: build.commitSha ?? '', commitMessage: build.commitMessage ?? '', startedAt, searchIndexCarried: true },
        log,
        `to ${url} after approval ${approval.id}`,
      );
      if (!outcome) log.line('cancelled');
    } finally {
      log.close();
      if (outcome) {
        if (outcome !== 'deployed') this.ctx.metrics.observeBuild(outcome, (Date.now() - startedAt.getTime()) / 1000); // deployed: counted by deploy()
        await this.saveStoredLog(build.projectId, build.id);
      }
    }
  }

  /**
   * Ends a build waiting for approval as `failed` or `cancelled` (step cleared, output removed);
   * a cancel also closes its approval.
   * @returns whether this call ended it (false when it was no longer waiting).
   */
  private async endWaiting(buildId: string, projectId: string, to: 'failed' | 'cancelled', data: Partial<Omit<BuildRow, 'id' | 'status'>>): Promise<boolean> {
    const { count } = await this.ctx.db.prisma.build.updateMany({
      where: { id: buildId, status: 'building', step: WAITING_FOR_APPROVAL },
      data: { ...data, status: to, step: null, finishedAt: new Date() },
    });
    if (count !== 1) return false;
    if (to === 'cancelled') await closeApprovalOfBuild(this.ctx, buildId);
    this.ctx.events.emit('build.status', { projectId, buildId, status: to });
    await this.ctx.deploymentStore.remove(publishedDeploymentDir(this.ctx, projectId, buildId)).catch((err: unknown) => this.ctx.log.warn({ err, buildId }, 'removing the output of a build that waited for approval failed'));
    return true;
  }

  /** With the S3 store, copies a build's log (as this process has it) to the store for other processes. */
  private async saveStoredLog(projectId: string, buildId: string): Promise<void> {
    if (this.ctx.deploymentStore.kind !== 's3') return;
    const store = this.ctx.deploymentStore;
    await Promise.all([store.buildLog(projectId, buildId), readBuildLog(this.ctx.config.dataDir, buildId)])
      .then(([stored, local]) => store.saveBuildLog(projectId, buildId, stored && !local.startsWith(stored.slice(0, 200)) ? `${stored}${local}` : local))
      .catch((err: unknown) => this.ctx.log.warn({ err, buildId }, 'saving the build log to the store failed'));
  }

  /** An aborted build: back to `queued` when the server is stopping, else `cancelled`. */
  private async settleAborted(buildId: string, signal: AbortSignal, log: BuildLog): Promise<void> {
    if (signal.reason === SHUTDOWN) {
      await this.setStatus(buildId, 'building', 'queued', { startedAt: null });
      log.line('requeued: the server is stopping; the build starts again on the next start');
      return;
    }
    await this.setStatus(buildId, 'building', 'cancelled', { finishedAt: new Date() });
    await closeApprovalOfBuild(this.ctx, buildId).catch(() => undefined);
    log.line('cancelled');
  }

  /**
   * Moves a build from `from` to `to` (only if it is still in `from`), with extra columns, and
   * announces it on `build.status`. @returns whether the build was changed.
   */
  private async setStatus(buildId: string, from: string, to: string, data: Partial<Omit<BuildRow, 'id' | 'status'>> = {}): Promise<boolean> {
    const { count } = await this.ctx.db.prisma.build.updateMany({ where: { id: buildId, status: from }, data: { ...data, status: to } });
    if (count === 1) {
      const row = await this.ctx.db.prisma.build.findUnique({ where: { id: buildId }, select: { projectId: true } });
      if (row) this.ctx.events.emit('build.status', { projectId: row.projectId, buildId, status: to });
    }
    return count === 1;
  }

  /** Appends a line to a build's log outside a run. */
  private logLine(buildId: string, text: string): void {
    const log = new BuildLog(this.ctx.config.dataDir, buildId);
    log.line(text);
    log.close();
  }
}

/**
 * The preview channel a build deploys to: its recorded `previewName` (webhooks: `<branch-slug>` or
 * `pr-<n>`), else a review's preview name (services/reviews.ts), else the branch slug
 * (decisions.md section 4); "" for production.
 */
export function previewChannelOf(build: Pick<BuildRow, 'isPreview' | 'previewName' | 'reviewId' | 'branch'>, projectSlug: string): string {
  if (!build.isPreview) return '';
  if (build.previewName) return build.previewName;
  return build.reviewId ? reviewPreviewName(build.reviewId, projectSlug) : branchSlug(build.branch, projectSlug);
}
