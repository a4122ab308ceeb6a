import fs from 'node:fs';
import path from 'node:path';
import type { AppContext } from '../context';
import { dataPaths } from '../data-paths';
import type { Models } from '../db/client';
import { BuildError } from '../builder/errors';
import { buildLimitsFrom } from '../builder/build-limits';
import type { RunBuildInput, RunBuildResult } from '../builder/pipeline';

/**
 * The real builder, loaded on the first build: the renderer (shiki, unified, markdown-it) takes
 * about 1.5 s to import, which a server that builds nothing, and every test app, need not pay.
 */
const realRunBuild = async (input: RunBuildInput): Promise<RunBuildResult> => (await import('../builder/pipeline')).runBuild(input);
import { projectSiteUrl } from '../services/projects';
import { branchSlug, previewSiteUrl } from '../sites/host';
import { BuildLog } from './build-log';
import type { BuildOutcome } from '../ops/metrics';
import { pruneOldDeployments, recordDeployment } from './deployments';

/** Options of {@link BuildRunner}. */
export interface BuildRunnerOptions {
  /** Builds running at once across projects (default 1: a build uses every core for rendering). */
  concurrency?: number;
  /** How often queued builds are looked for besides wake-ups, in ms (default 2000). */
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

/**
 * The in-process build runner (issue 3; decisions.md sections 1 and 4). It alone writes
 * `Build.status`: queued → building → deployed | failed | cancelled (and back to queued when the
 * server stops mid-build).
 *
 * - One build per project at a time, at most `concurrency` builds overall; oldest queued first.
 * - On start, builds left `building` by a stopped or crashed process are requeued.
 * - Success: the Deployment row and the build's `deployed`/`url`/`duration`/`deployedAt` commit in
 *   one transaction, then `deployment.changed` swaps the site, then old deployments are pruned.
 * - Failure: `failed` with the builder's message (`BuildError`, safe to show) or a generic one;
 *   the previous deployment keeps serving.
 * - Cancel: a queued build ends `cancelled` at once; a building one is aborted via its
 *   AbortController and ends `cancelled`.
 * - Stop (app close, SIGTERM): running builds are aborted and requeued, never left `building`.
 * Every line of a build's progress goes to `<dataDir>/logs/<buildId>.log`.
 */
export class BuildRunner {
  private readonly active = new Map<string, Active>();
  private concurrency = 1;
  private pollMs = 2000;
  private build: (input: RunBuildInput) => Promise<RunBuildResult> = realRunBuild;
  private timer: NodeJS.Timeout | undefined;
  private running = false;
  private pumping: Promise<void> | undefined;
  private pumpAgain = false;
  private readonly onStatus = ({ status }: { status: string }) => {
    if (status === 'queued') this.wake();
  };

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
    if (options.pollMs !== undefined) this.pollMs = options.pollMs;
    if (options.runBuild) this.build = options.runBuild;
  }

  /** Whether {@link start} was called and {@link stop} not yet. */
  get started(): boolean {
    return this.running;
  }

  /** Requeues builds left `building`, then starts taking queued builds (on wake-ups and every `pollMs`). */
  async start(): Promise<void> {
    if (this.running) return;
    const stale = await this.ctx.db.prisma.build.findMany({ where: { status: 'building' }, select: { id: true, projectId: true } });
    for (const b of stale) {
      fs.rmSync(dataPaths(this.ctx.config.dataDir).site(b.projectId, b.id), { recursive: true, force: true });
      await this.setStatus(b.id, 'building', 'queued', { startedAt: null });
      this.logLine(b.id, 'requeued: the server stopped while this build was running');
    }
    this.running = true;
    this.ctx.events.on('build.status', this.onStatus);
    this.timer = setInterval(() => this.wake(), this.pollMs);
    this.timer.unref();
    this.wake();
  }

  /** Stops taking builds, aborts the running ones and waits until each is back in `queued`. */
  async stop(): Promise<void> {
    if (!this.running) return;
    this.running = false;
    this.ctx.events.off('build.status', this.onStatus);
    clearInterval(this.timer);
    await this.pumping;
    for (const a of this.active.values()) a.controller.abort(SHUTDOWN);
    await Promise.all([...this.active.values()].map((a) => a.done));
  }

  /** Looks for queued builds now (called after a trigger; cheap when nothing is queued). */
  wake(): void {
    if (!this.running) return;
    if (this.pumping) {
      this.pumpAgain = true;
      return;
    }
    this.pumping = this.pump()
      .catch((err: unknown) => this.ctx.log.error({ err }, 'build runner: picking the next build failed'))
      .finally(() => {
        this.pumping = undefined;
        if (this.pumpAgain) {
          this.pumpAgain = false;
          this.wake();
        }
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
    const row = await prisma.build.findUnique({ where: { id: buildId }, select: { status: true, projectId: true } });
    if (!row) return 'missing';
    if (row.status !== 'queued' && row.status !== 'building') return 'finished';
    if (row.status === 'queued') {
      if (await this.setStatus(buildId, 'queued', 'cancelled', { finishedAt: new Date(), cancelRequested: true })) {
        this.logLine(buildId, 'cancelled before it started');
        return 'cancelled';
      }
    }
    await prisma.build.updateMany({ where: { id: buildId, status: { in: ['queued', 'building'] } }, data: { cancelRequested: true } });
    const active = this.active.get(buildId);
    if (active) {
      active.controller.abort(CANCEL);
      await Promise.race([active.done, new Promise((r) => setTimeout(r, CANCEL_WAIT_MS).unref())]);
    }
    const after = await prisma.build.findUnique({ where: { id: buildId }, select: { status: true } });
    // Still queued/building: another process runs it (or the abort is slow); it honours cancelRequested.
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

  /** Starts queued builds while there is room: oldest first, skipping projects already building. */
  private async pump(): Promise<void> {
    const prisma = this.ctx.db.prisma;
    while (this.running && this.active.size < this.concurrency) {
      const building = await prisma.build.findMany({ where: { status: 'building' }, select: { projectId: true } });
      const busy = [...new Set([...building.map((b) => b.projectId), ...[...this.active.values()].map((a) => a.projectId)])];
      const next = await prisma.build.findFirst({
        where: { status: 'queued', projectId: { notIn: busy } },
        orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
      });
      if (!next) return;
      if (next.cancelRequested) {
        await this.setStatus(next.id, 'queued', 'cancelled', { finishedAt: new Date() });
        continue;
      }
      const startedAt = new Date();
      if (!(await this.setStatus(next.id, 'queued', 'building', { startedAt }))) continue;
      const controller = new AbortController();
      const entry: Active = { projectId: next.projectId, controller, done: Promise.resolve() };
      this.active.set(next.id, entry);
      entry.done = this.execute(next, startedAt, controller.signal)
        .catch((err: unknown) => this.ctx.log.error({ err, buildId: next.id }, 'build runner: recording a build outcome failed'))
        .finally(() => {
          this.active.delete(next.id);
          this.wake();
        });
    }
  }

  /** Runs one claimed build to its outcome. */
  private async execute(build: BuildRow, startedAt: Date, signal: AbortSignal): Promise<void> {
    const { config, db, events } = this.ctx;
    let outcome: BuildOutcome | undefined;
    const log = new BuildLog(config.dataDir, build.id);
    const project = await db.prisma.project.findUnique({ where: { id: build.projectId } });
    try {
      if (!project) return;
      const production = projectSiteUrl(config, project.slug);
      const previewName = build.isPreview ? branchSlug(build.branch, project.slug) : '';
      const url = build.isPreview ? previewSiteUrl(production, previewName) : production;
      log.line(`build ${build.id} of ${project.slug}: ${build.isPreview ? 'preview' : 'production'} from ${build.branch}${build.commitSha ? ` @ ${build.commitSha}` : ''} (trigger: ${build.trigger}), started ${startedAt.toISOString()}`);
      if (!project.repoUrl) throw new BuildError('The project has no repoUrl: set one with PATCH /v1/projects/{projectId}.');
      const result = await this.build({
        projectId: project.id,
        buildId: build.id,
        repoUrl: project.repoUrl,
        branch: build.branch,
        ...(build.commitSha ? { commitSha: build.commitSha } : {}),
        allowFileRepos: config.allowFileRepos,
        dataDir: config.dataDir,
        siteUrl: url.replace(/\/+$/, ''),
        signal,
        log: (line) => log.line(line),
        limits: buildLimitsFrom(config),
      });
      const deployed =
        !signal.aborted &&
        (await recordDeployment(this.ctx, {
          buildId: build.id,
          projectId: project.id,
          kind: build.isPreview ? 'preview' : 'production',
          previewName,
          dir: path.relative(config.dataDir, result.outDir).split(path.sep).join('/'),
          url,
          commitSha: result.commitSha,
          commitMessage: result.commitMessage,
          startedAt,
        }));
      if (!deployed) {
        fs.rmSync(result.outDir, { recursive: true, force: true });
        await this.settleAborted(build.id, signal, log);
        return;
      }
      events.emit('deployment.changed', { projectId: project.id });
      events.emit('build.status', { projectId: project.id, buildId: build.id, status: 'deployed' });
      outcome = 'deployed';
      log.line(`✓ deployed ${result.pages} pages to ${url} in ${Date.now() - startedAt.getTime()} ms (${result.warnings.length} warnings)`);
      await pruneOldDeployments(this.ctx, project.id).catch((err: unknown) => this.ctx.log.warn({ err, projectId: project.id }, 'pruning old deployments failed'));
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
    } finally {
      log.close();
      const ended = outcome ?? (signal.aborted ? (signal.reason === SHUTDOWN ? 'requeued' : 'cancelled') : undefined);
      if (ended) this.ctx.metrics.observeBuild(ended, (Date.now() - startedAt.getTime()) / 1000);
    }
  }

  /** An aborted build: back to `queued` when the server is stopping, else `cancelled`. */
  private async settleAborted(buildId: string, signal: AbortSignal, log: BuildLog): Promise<void> {
    if (signal.reason === SHUTDOWN) {
      await this.setStatus(buildId, 'building', 'queued', { startedAt: null });
      log.line('requeued: the server is stopping; the build starts again on the next start');
      return;
    }
    await this.setStatus(buildId, 'building', 'cancelled', { finishedAt: new Date() });
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
