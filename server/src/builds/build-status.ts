/**
 * Moving a Build through its statuses (decisions.md sections 1 and 4: only the build runner and
 * the steps it runs write `Build.status`): queued → building → deployed | failed | cancelled, and
 * back to queued when the process running it stops. Shared by the queue handler
 * (jobs/build-runner.ts), the run of one build (run-build.ts), the approval step (deploy-gates.ts)
 * and the deploy step (deployments/deploy.ts).
 */
import type { AppContext } from '../context';
import type { Models } from '../db/client';
import { publishedDeploymentDir } from '../deployments/publish';
import { closeApprovalOfBuild, WAITING_FOR_APPROVAL } from '../services/approvals';
import { BuildLog, readBuildLog } from './build-log';

/** A Build row. */
export type BuildRow = Models.BuildModel;

/** Columns a status change may set besides `status`. */
export type BuildStatusData = Partial<Omit<BuildRow, 'id' | 'status'>>;

/** Abort reason of a build a user (or its project's deletion) cancelled: it ends `cancelled`. */
export const CANCEL = 'cancel';
/** Abort reason of a build whose process is stopping: it goes back to `queued`. */
export const SHUTDOWN = 'shutdown';

/** Where-clause of running builds that are not waiting for approval (those hold no worker and are left alone). */
export const NOT_WAITING = { OR: [{ step: null }, { step: { not: WAITING_FOR_APPROVAL } }] };

/**
 * Moves a build from `from` to `to` (only if it is still in `from`), with extra columns, and
 * announces it on `build.status`.
 * @returns whether the build was changed.
 */
export async function setBuildStatus(ctx: AppContext, buildId: string, from: string, to: string, data: BuildStatusData = {}): Promise<boolean> {
  const { count } = await ctx.db.prisma.build.updateMany({ where: { id: buildId, status: from }, data: { ...data, status: to } });
  if (count === 1) {
    const row = await ctx.db.prisma.build.findUnique({ where: { id: buildId }, select: { projectId: true } });
    if (row) ctx.events.emit('build.status', { projectId: row.projectId, buildId, status: to });
  }
  return count === 1;
}

/** Appends a line to a build's log outside a run (`<dataDir>/logs/<buildId>.log`). */
export function logBuildLine(ctx: AppContext, buildId: string, text: string): void {
  const log = new BuildLog(ctx.config.dataDir, buildId);
  log.line(text);
  log.close();
}

/** An aborted build: back to `queued` when the server is stopping ({@link SHUTDOWN}), else `cancelled` (its approval closed). */
export async function settleAborted(ctx: AppContext, buildId: string, signal: AbortSignal, log: BuildLog): Promise<void> {
  if (signal.reason === SHUTDOWN) {
    await setBuildStatus(ctx, buildId, 'building', 'queued', { startedAt: null });
    log.line('requeued: the server is stopping; the build starts again on the next start');
    return;
  }
  await setBuildStatus(ctx, buildId, 'building', 'cancelled', { finishedAt: new Date() });
  await closeApprovalOfBuild(ctx, buildId).catch(() => undefined);
  log.line('cancelled');
}

/**
 * Ends a build waiting for approval as `failed` or `cancelled` (step cleared, published output
 * removed from the deployment store); a cancel also closes its approval.
 * @returns whether this call ended it (false when it was no longer waiting).
 */
export async function endWaiting(ctx: AppContext, buildId: string, projectId: string, to: 'failed' | 'cancelled', data: BuildStatusData): Promise<boolean> {
  const { count } = await ctx.db.prisma.build.updateMany({
    where: { id: buildId, status: 'building', step: WAITING_FOR_APPROVAL },
    data: { ...data, status: to, step: null, finishedAt: new Date() },
  });
  if (count !== 1) return false;
  if (to === 'cancelled') await closeApprovalOfBuild(ctx, buildId);
  ctx.events.emit('build.status', { projectId, buildId, status: to });
  await ctx.deploymentStore
    .remove(publishedDeploymentDir(ctx, projectId, buildId))
    .catch((err: unknown) => ctx.log.warn({ err, buildId }, 'removing the output of a build that waited for approval failed'));
  return true;
}

/** With the S3 store, copies a build's log (as this process has it) to the store for other processes. */
export async function saveStoredLog(ctx: AppContext, projectId: string, buildId: string): Promise<void> {
  if (ctx.deploymentStore.kind !== 's3') return;
  const store = ctx.deploymentStore;
  await Promise.all([store.buildLog(projectId, buildId), readBuildLog(ctx.config.dataDir, buildId)])
    .then(([stored, local]) => store.saveBuildLog(projectId, buildId, stored && !local.startsWith(stored.slice(0, 200)) ? `${stored}${local}` : local))
    .catch((err: unknown) => ctx.log.warn({ err, buildId }, 'saving the build log to the store failed'));
}
