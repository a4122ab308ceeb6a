/**
 * Documentation version builds (interface-spec.md "Versioning > Documentation versions" rules 4
 * and 9; decisions.md section 6): after a production build of the default branch deploys, every
 * non-default version of the live production site's `versioning.versions` is built from its own
 * ref and deployed under `/<label>/`; versions no longer listed stop being served.
 */
import type { BuildTrigger } from '@quire/shared/api/builds';
import { nonDefaultVersions } from '@quire/shared/docs/versions';
import type { AppContext } from '../context';
import { lockKey } from '../db/locks';
import { nextStamp } from '../db/stamps';
import { productionSite } from '../services/deployed-site';
import { BuildLog } from '../builds/build-log';
import { enqueueBuild, queueBuild } from '../builds/queue-build';
import { pruneOldDeployments } from '../deployments/publish';

/** What {@link queueVersionBuilds} did. */
export interface VersionBuildsQueued {
  /** the version builds queued, by label */
  queued: { label: string; buildId: string }[];
  /** labels whose version deployments were taken down (no longer listed) */
  removed: string[];
}

/**
 * Queues the version builds that follow the deploy of production build `buildId` (its deploy, or
 * a "no changes" end on the live commit: a deploy of the same commit rebuilds versions whose refs
 * moved, rule 9). Only a production build of the project's default branch (`repoBranch`) does this;
 * a preview, a version build or a production build of another branch queues nothing.
 *
 * In one transaction under the project's build lock (as every build insert): for each non-default
 * version of the live production manifest, an older `queued` build of that version ends `cancelled`
 * (replaced) and a new one is queued with `version` = label, `branch` = the first ref candidate
 * (the runner resolves the ref when it starts: versions/version-build.ts),
 * `isPreview` false and the parent's trigger and author. Version builds are not counted against
 * the hourly trigger limit nor the monthly plan limit: they are part of the deploy that caused them.
 * Queued builds of versions no longer listed are cancelled, and their version deployments removed
 * (rows, pointers, files): the channel stops being served.
 * @returns what was queued and removed (nothing when `buildId` is not such a production build).
 * @throws database or store errors (the caller logs them; the production deploy stands).
 */
export async function queueVersionBuilds(ctx: AppContext, buildId: string): Promise<VersionBuildsQueued> {
  const prisma = ctx.db.prisma;
  const parent = await prisma.build.findUnique({
    where: { id: buildId },
    select: { projectId: true, isPreview: true, version: true, branch: true, trigger: true, createdById: true },
  });
  if (!parent || parent.isPreview || parent.version !== null) return { queued: [], removed: [] };
  const project = await prisma.project.findUnique({ where: { id: parent.projectId }, select: { repoBranch: true } });
  if (!project || project.repoBranch !== parent.branch) return { queued: [], removed: [] };
  const production = await productionSite(ctx, parent.projectId);
  if (!production) return { queued: [], removed: [] };
  const wanted = nonDefaultVersions(production.manifest.versions);
  const labels = new Set(wanted.map((v) => v.label));
  const projectId = parent.projectId;

  const { queued, replaced, removed } = await prisma.$transaction(async (tx) => {
    await lockKey(tx, ctx.db.provider, `build:${projectId}`);
    const stale = await tx.build.findMany({ where: { projectId, status: 'queued', version: { not: null } }, select: { id: true } });
    if (stale.length > 0) {
      await tx.build.updateMany({ where: { id: { in: stale.map((b) => b.id) }, status: 'queued' }, data: { status: 'cancelled', cancelRequested: true, finishedAt: new Date() } });
    }
    const made: { label: string; buildId: string }[] = [];
    for (const v of wanted) {
      const row = await queueBuild(tx, {
        projectId,
        // the parent's trigger, as stored (one of BuildTrigger)
        trigger: parent.trigger as BuildTrigger,
        branch: v.tag ?? v.branch ?? v.label,
        isPreview: false,
        version: v.label,
        createdById: parent.createdById,
        createdAt: nextStamp(),
      });
      made.push({ label: v.label, buildId: row.id });
    }
    const deployed = await tx.deployment.findMany({ where: { projectId, kind: 'version' }, select: { previewName: true } });
    const gone = [...new Set(deployed.map((d) => d.previewName))].filter((label) => !labels.has(label));
    if (gone.length > 0) await tx.deployment.deleteMany({ where: { projectId, kind: 'version', previewName: { in: gone } } });
    return { queued: made, replaced: stale.map((b) => b.id), removed: gone };
  });

  for (const id of replaced) {
    const log = new BuildLog(ctx.config.dataDir, id);
    log.line(`cancelled before it started: replaced by the version builds of production build ${buildId}`);
    log.close();
    ctx.events.emit('build.status', { projectId, buildId: id, status: 'cancelled' });
  }
  for (const label of removed) {
    await ctx.deploymentStore.deactivate({ projectId, kind: 'version', previewName: label });
  }
  if (removed.length > 0) {
    ctx.events.emit('deployment.changed', { projectId });
    await pruneOldDeployments(ctx, projectId);
  }
  for (const q of queued) {
    const log = new BuildLog(ctx.config.dataDir, q.buildId);
    log.line(`queued: version ${q.label}, after production build ${buildId} deployed`);
    log.close();
    await enqueueBuild(ctx, { id: q.buildId, projectId });
  }
  return { queued, removed };
}
