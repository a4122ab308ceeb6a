import path from 'node:path';
import { newId } from '@quire/shared/ids';
import type { AppContext } from '../context';
import { dataPaths } from '../data-paths';
import type { DeploymentChannel, DeploymentStore } from '../storage/index';

/** Production deployments kept per project (the newest is served; older ones allow a quick look back). */
export const KEEP_PRODUCTION = 3;

/** What a successful build recorded about its output. */
export interface DeploymentRecord {
  buildId: string;
  projectId: string;
  /**
   * `preview` deployments are served at `<previewName>--<slug>-docs.<domain>`, `version` ones under
   * `/<previewName>/` of the production site (interface-spec.md "Documentation versions")
   */
  kind: 'production' | 'preview' | 'version';
  /** branch slug of a preview, label of a version; "" for production */
  previewName: string;
  /** the builder's staging directory relative to the data dir: `sites/<projectId>/<buildId>` (`DataPaths.site`) */
  dir: string;
  url: string;
  commitSha: string;
  commitMessage: string;
  startedAt: Date;
}

/** Attempts at writing a channel's pointer before the deployment is reported as failed to go live. */
const ACTIVATE_ATTEMPTS = 3;

/**
 * Makes a finished build live: {@link publishDeployment}, then {@link recordPublishedDeployment}.
 * @returns false when the build was no longer `building` (nothing stays written).
 * @throws Error when publishing, recording or (after 3 attempts) the pointer write fails.
 */
export async function recordDeployment(ctx: AppContext, d: DeploymentRecord): Promise<boolean> {
  const dir = await publishDeployment(ctx, d.projectId, d.buildId, path.resolve(ctx.config.dataDir, d.dir));
  return recordPublishedDeployment(ctx, { ...d, dir });
}

/**
 * Publishes a build's staged files to the deployment store without making them live (local:
 * nothing moves; S3: uploaded, staging removed). A production build waiting for approval stays
 * published this way, in any process's reach, until it is deployed or dropped.
 * @returns where the store keeps it (see {@link publishedDeploymentDir}).
 * @throws Error when an upload fails.
 */
export async function publishDeployment(ctx: AppContext, projectId: string, buildId: string, stagingDir: string): Promise<string> {
  return ctx.deploymentStore.publish(projectId, buildId, stagingDir);
}

/**
 * Where {@link publishDeployment} put a build's files, as `DeploymentStore.publish` documents it:
 * `sites/<projectId>/<buildId>` relative to the data dir (local) or the object prefix
 * `deployments/<projectId>/<buildId>` (S3). Used to deploy a build that waited for approval,
 * possibly in another process.
 */
export function publishedDeploymentDir(ctx: AppContext, projectId: string, buildId: string): string {
  if (ctx.deploymentStore.kind === 's3') return `deployments/${projectId}/${buildId}`;
  return path.relative(ctx.config.dataDir, dataPaths(ctx.config.dataDir).site(projectId, buildId)).split(path.sep).join('/');
}

/**
 * Makes a published build live: in one transaction inserts its Deployment row (`d.dir`: where the
 * store keeps it) and sets the build `deployed` (step cleared) with `url`, `duration` (ms since it
 * started building), `deployedAt`, commit SHA and message, then points the channel at it
 * (`DeploymentStore.activate`: with S3 this pointer write is what makes it live, after its files).
 * Only a build still `building` is changed (a concurrent cancel wins); its published files are
 * then deleted again.
 * @returns false when the build was no longer `building` (nothing stays written).
 * @throws Error when recording or (after 3 attempts) the pointer write fails.
 */
export async function recordPublishedDeployment(ctx: AppContext, d: DeploymentRecord): Promise<boolean> {
  const store = ctx.deploymentStore;
  const dir = d.dir;
  let recorded: boolean;
  try {
    recorded = await insertDeployment(ctx, d);
  } catch (err) {
    await store.remove(dir).catch(() => undefined);
    throw err;
  }
  if (!recorded) {
    await store.remove(dir).catch(() => undefined);
    return false;
  }
  await activate(store, { projectId: d.projectId, kind: d.kind, previewName: d.previewName }, dir);
  return true;
}

async function activate(store: DeploymentStore, channel: DeploymentChannel, dir: string): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await store.activate(channel, dir);
    } catch (err) {
      if (attempt >= ACTIVATE_ATTEMPTS) throw err;
      await new Promise((r) => setTimeout(r, 200 * attempt));
    }
  }
}

/** The Deployment row and the build's `deployed` state (with `afterDeployPending`), in one transaction; false when the build was no longer `building`. */
async function insertDeployment(ctx: AppContext, d: DeploymentRecord): Promise<boolean> {
  const now = new Date();
  return ctx.db.prisma.$transaction(async (tx) => {
    const updated = await tx.build.updateMany({
      where: { id: d.buildId, status: 'building', cancelRequested: false },
      data: {
        status: 'deployed',
        step: null,
        url: d.url,
        duration: now.getTime() - d.startedAt.getTime(),
        deployedAt: now,
        finishedAt: now,
        commitSha: d.commitSha,
        commitMessage: d.commitMessage,
        // cleared once the steps after this commit are done (after-deploy.ts)
        afterDeployPending: true,
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
 * Deletes old deployments of a project, rows and stored files: keeps the newest
 * {@link KEEP_PRODUCTION} production deployments and the newest deployment of every preview
 * name and of every version label (the ones being served), and never the output of a build still `building` (a production
 * build waiting for approval has a finished site but no row yet). File removal goes through `DeploymentStore.prune` (local
 * directories or bucket objects), which never touches a build still being written.
 * @returns the build ids whose deployments were removed.
 */
export async function pruneOldDeployments(ctx: AppContext, projectId: string): Promise<string[]> {
  const rows = await ctx.db.prisma.deployment.findMany({
    where: { projectId },
    orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
    select: { id: true, buildId: true, kind: true, previewName: true },
  });
  const keep = new Set<string>();
  /** channels seen (`preview/<name>`, `version/<label>`) */
  const seenChannel = new Set<string>();
  let production = 0;
  for (const r of rows) {
    const channel = `${r.kind}/${r.previewName}`;
    if (r.kind === 'production' ? production++ < KEEP_PRODUCTION : !seenChannel.has(channel)) keep.add(r.id);
    if (r.kind !== 'production') seenChannel.add(channel);
  }
  const drop = rows.filter((r) => !keep.has(r.id));
  if (drop.length > 0) await ctx.db.prisma.deployment.deleteMany({ where: { id: { in: drop.map((r) => r.id) } } });
  // Builds still running keep their output: one waiting for approval has a finished site, not yet a Deployment row.
  const running = await ctx.db.prisma.build.findMany({ where: { projectId, status: 'building' }, select: { id: true } });
  await ctx.deploymentStore.prune(projectId, [...rows.filter((r) => keep.has(r.id)).map((r) => r.buildId), ...running.map((b) => b.id)]);
  return drop.map((r) => r.buildId);
}
