/**
 * The steps of a deploy that come after its commit (the build recorded `deployed`, with its
 * Deployment row: deployments/publish.ts), made durable. The commit sets `Build.afterDeployPending`;
 * it is cleared once those steps are done:
 * - the deployment store's pointer names the new deployment (stores with pointers: S3), and
 * - a production build's version builds are queued (versions/version-builds.ts).
 * A process that dies in between (a crash, SIGKILL, a lost database connection) or a step that
 * fails leaves the flag set, and the build runner's sweep, in whichever process works builds,
 * finishes them for builds deployed longer ago than {@link AFTER_DEPLOY_GRACE_MS} (so it does not
 * race the process still doing them). Both steps are safe to repeat. Nothing accepted is lost on
 * a crash (decisions.md section 1).
 */
import type { AppContext } from '../context';
import { BuildLog } from '../builds/build-log';
import { queueVersionBuilds } from '../versions/version-builds';

/** How long after its deploy commit a build's pending steps are left to the process deploying it, in ms. */
export const AFTER_DEPLOY_GRACE_MS = 60_000;

/**
 * Queues the version builds that follow production build `buildId`'s deploy and says so in its
 * log (`versions: queued v1 (bld_…)`). A failure is logged, not thrown: the deploy stands.
 * @returns false when queuing failed (the flag stays set and the sweep tries again).
 */
export async function queueVersionsLogged(ctx: AppContext, buildId: string, log: BuildLog): Promise<boolean> {
  try {
    const { queued, removed } = await queueVersionBuilds(ctx, buildId);
    if (queued.length > 0) log.line(`versions: queued ${queued.map((q) => `${q.label} (${q.buildId})`).join(', ')}`);
    if (removed.length > 0) log.line(`versions: no longer served: ${removed.join(', ')}`);
    return true;
  } catch (err) {
    ctx.log.error({ err, buildId }, 'queuing the version builds failed');
    log.line(`versions: queuing the version builds failed; tried again within ${AFTER_DEPLOY_GRACE_MS / 1000} s`);
    return false;
  }
}

/**
 * Clears `afterDeployPending` of `buildId`: every step after its deploy commit is done. Never
 * throws: a flag that could not be cleared only makes the sweep repeat steps that are safe to
 * repeat, so the failure is logged and the deploy stands.
 */
export async function completeAfterDeploy(ctx: AppContext, buildId: string): Promise<void> {
  await ctx.db.prisma.build
    .updateMany({ where: { id: buildId, afterDeployPending: true }, data: { afterDeployPending: false } })
    .catch((err: unknown) => ctx.log.warn({ err, buildId }, 'could not clear the pending steps after a deploy; the sweep repeats them'));
}

/**
 * Finishes the steps after the deploy commit of every `deployed` build whose flag is still set
 * and that was deployed before `now - AFTER_DEPLOY_GRACE_MS`: its deployment's pointer is written
 * again when it is still the newest of its channel (a newer deploy is never undone), then a
 * production build's version builds are queued; the flag is cleared when both succeeded. Each
 * build's log says so.
 * @param now the current time, in ms since the epoch.
 * @returns the ids of the builds finished.
 * @throws database errors of the first query (the sweep logs them); a failing build is logged and left for the next sweep.
 */
export async function finishInterruptedDeploys(ctx: AppContext, now = Date.now()): Promise<string[]> {
  const prisma = ctx.db.prisma;
  const pending = await prisma.build.findMany({
    where: { afterDeployPending: true, status: 'deployed', deployedAt: { lt: new Date(now - AFTER_DEPLOY_GRACE_MS) } },
    orderBy: [{ deployedAt: 'asc' }, { id: 'asc' }],
    select: { id: true, projectId: true, isPreview: true, version: true, deployment: { select: { id: true, kind: true, previewName: true, dir: true } } },
  });
  const finished: string[] = [];
  for (const build of pending) {
    const log = new BuildLog(ctx.config.dataDir, build.id);
    try {
      log.line('after deploy: the process deploying this build stopped before its last steps; finishing them');
      const deployment = build.deployment;
      if (deployment) {
        const channel = { projectId: build.projectId, kind: deployment.kind as 'production' | 'preview' | 'version', previewName: deployment.previewName };
        const newest = await prisma.deployment.findFirst({
          where: { projectId: build.projectId, kind: deployment.kind, previewName: deployment.previewName },
          orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
          select: { id: true },
        });
        if (newest?.id === deployment.id) {
          await ctx.deploymentStore.activate(channel, deployment.dir);
          ctx.events.emit('deployment.changed', { projectId: build.projectId });
        }
      }
      const production = !build.isPreview && build.version === null;
      if (production && !(await queueVersionsLogged(ctx, build.id, log))) continue;
      await completeAfterDeploy(ctx, build.id);
      finished.push(build.id);
    } catch (err) {
      ctx.log.error({ err, buildId: build.id }, 'finishing the steps after a deploy failed; tried again on the next sweep');
    } finally {
      log.close();
    }
  }
  return finished;
}
