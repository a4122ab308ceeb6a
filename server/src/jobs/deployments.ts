import { newId } from '@quire/shared/ids';
import type { AppContext } from '../context';
import { pruneDeployments } from '../builder/prune';

/** Production deployments kept per project (the newest is served; older ones allow a quick look back). */
export const KEEP_PRODUCTION = 3;

/** What a successful build recorded about its output. */
export interface DeploymentRecord {
  buildId: string;
  projectId: string;
  /** `preview` deployments are served at `<previewName>--<slug>-docs.<domain>` */
  kind: 'production' | 'preview';
  /** branch slug of a preview; "" for production */
  previewName: string;
  /** directory relative to the data dir: `sites/<projectId>/<buildId>` */
  dir: string;
  url: string;
  commitSha: string;
  commitMessage: string;
  startedAt: Date;
}

/**
 * Makes a finished build live in one transaction: inserts its Deployment row and sets the build
 * `deployed` with `url`, `duration` (ms since it started building), `deployedAt`, commit SHA and
 * message. Only a build still `building` is changed (a concurrent cancel wins).
 * @returns false when the build was no longer `building` (nothing was written).
 */
export async function recordDeployment(ctx: AppContext, d: DeploymentRecord): Promise<boolean> {
  const now = new Date();
  return ctx.db.prisma.$transaction(async (tx) => {
    const updated = await tx.build.updateMany({
      where: { id: d.buildId, status: 'building', cancelRequested: false },
      data: {
        status: 'deployed',
        url: d.url,
        duration: now.getTime() - d.startedAt.getTime(),
        deployedAt: now,
        finishedAt: now,
        commitSha: d.commitSha,
        commitMessage: d.commitMessage,
      },
    });
    if (updated.count !== 1) return false;
    await tx.deployment.create({
      data: { id: newId('deployment'), projectId: d.projectId, buildId: d.buildId, kind: d.kind, previewName: d.previewName, dir: d.dir, createdAt: now },
    });
    return true;
  });
}

/**
 * Deletes old deployments of a project, rows and directories: keeps the newest
 * {@link KEEP_PRODUCTION} production deployments and the newest deployment of every preview
 * name (the ones being served). Directory removal goes through the builder's `pruneDeployments`,
 * which never touches a build still being written.
 * @returns the build ids whose deployments were removed.
 */
export async function pruneOldDeployments(ctx: AppContext, projectId: string): Promise<string[]> {
  const rows = await ctx.db.prisma.deployment.findMany({
    where: { projectId },
    orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
    select: { id: true, buildId: true, kind: true, previewName: true },
  });
  const keep = new Set<string>();
  const seenPreview = new Set<string>();
  let production = 0;
  for (const r of rows) {
    if (r.kind === 'production' ? production++ < KEEP_PRODUCTION : !seenPreview.has(r.previewName)) keep.add(r.id);
    if (r.kind !== 'production') seenPreview.add(r.previewName);
  }
  const drop = rows.filter((r) => !keep.has(r.id));
  if (drop.length > 0) await ctx.db.prisma.deployment.deleteMany({ where: { id: { in: drop.map((r) => r.id) } } });
  pruneDeployments(ctx.config.dataDir, projectId, rows.filter((r) => keep.has(r.id)).map((r) => r.buildId));
  return drop.map((r) => r.buildId);
}
