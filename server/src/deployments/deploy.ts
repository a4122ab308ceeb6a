/**
 * The deploy step of a finished build (decisions.md sections 1 and 4), shared by a build that
 * deploys as soon as it is built and one deployed after its approval: the deployment is recorded
 * and the channel switched (publish.ts), the change announced, old deployments pruned and the
 * steps after the deploy commit done (after-deploy.ts).
 */
import type { AppContext } from '../context';
import type { BuildLog } from '../builds/build-log';
import type { BuildOutcome } from '../ops/metrics';
import { completeAfterDeploy, queueVersionsLogged } from './after-deploy';
import { pruneOldDeployments, recordPublishedDeployment } from './publish';

/** The build being deployed. */
export interface DeployingBuild {
  id: string;
  projectId: string;
  isPreview: boolean;
  /** the documentation version it builds (its channel is `version`); null or absent otherwise */
  version?: string | null;
}

/** What a build published and where it goes live. */
export interface BuiltSite {
  /** where the store keeps the published output (publish.ts `publishedDeploymentDir`) */
  dir: string;
  url: string;
  /** the channel: a preview's name, a version's label, "" for production */
  previewName: string;
  commitSha: string;
  commitMessage: string;
  /** when the build started building (its `duration` and the build-duration metric count from it) */
  startedAt: Date;
}

/**
 * Deploys a published build: records the deployment and switches the served site
 * (publish.ts `recordPublishedDeployment`), counts it in the build metric, emits
 * `deployment.changed` and `build.status` (deployed), logs `✓ deployed <summary>`, prunes old deployments and queues a production
 * build's version builds (after-deploy.ts).
 * @param signal the build's abort signal: an aborted build is not deployed.
 * @returns `deployed`, or undefined when the build was aborted or no longer `building` (cancelled
 *   meanwhile): its published output is removed and the caller settles it.
 * @throws Error when recording the deployment or writing the channel pointer fails.
 */
export async function deployBuild(
  ctx: AppContext,
  build: DeployingBuild,
  built: BuiltSite,
  log: BuildLog,
  summary: string,
  signal?: AbortSignal,
): Promise<BuildOutcome | undefined> {
  const deployed =
    !signal?.aborted &&
    (await recordPublishedDeployment(ctx, {
      buildId: build.id,
      projectId: build.projectId,
      kind: build.version ? 'version' : build.isPreview ? 'preview' : 'production',
      ...built,
    }));
  if (!deployed) {
    await ctx.deploymentStore.remove(built.dir).catch(() => undefined);
    return undefined;
  }
  // The metric moves with the status: whoever sees the build deployed sees it counted.
  ctx.metrics.observeBuild('deployed', (Date.now() - built.startedAt.getTime()) / 1000);
  ctx.events.emit('deployment.changed', { projectId: build.projectId });
  ctx.events.emit('build.status', { projectId: build.projectId, buildId: build.id, status: 'deployed' });
  log.line(`✓ deployed ${summary}`);
  await pruneOldDeployments(ctx, build.projectId).catch((err: unknown) => ctx.log.warn({ err, projectId: build.projectId }, 'pruning old deployments failed'));
  const production = !build.isPreview && !build.version;
  if (!production || (await queueVersionsLogged(ctx, build.id, log))) await completeAfterDeploy(ctx, build.id);
  return 'deployed';
}
