/**
 * The approval gates between a finished build and its deploy (decisions.md section 9): a production
 * or version build passes the deploy check of approval gates (services/approvals.ts
 * `checkDeployGates`) before it goes live. When it must wait it stays `building` with
 * `step: waiting_for_approval` and holds no worker; the `approval` job of its decided approval later
 * deploys it (deployments/deploy.ts, the same path as a build deploying at once) or fails it with
 * the rejection's reason, in whichever process works jobs.
 */
import { ApiError } from '@quire/shared/errors';
import type { JobKinds, JobResult } from '../queue/job-queue';
import type { AppContext } from '../context';
import { BuildError } from '../builder/errors';
import type { BuildOutcome } from '../ops/metrics';
import { projectSiteUrl } from '../services/projects';
import { channelOf, checkDeployGates, WAITING_FOR_APPROVAL } from '../services/approvals';
import { deployBuild } from '../deployments/deploy';
import { publishedDeploymentDir } from '../deployments/publish';
import { versionSiteUrl } from '../versions/version-build';
import { BuildLog } from './build-log';
import { endWaiting, saveStoredLog, type BuildRow } from './build-status';

/** Delay before an `approval` job whose build has not reached its deploy check yet is tried again, in ms. */
export const APPROVAL_RETRY_MS = 1_000;

/** The error of a build whose deploy was rejected (decisions.md section 9: it fails with the reason). */
export function rejectedError(reason: string): string {
  return `The deploy was rejected: ${reason}`;
}

/**
 * The deploy check of a production or version build whose output is published at `dir`: `deploy`
 * when no gate holds it, `wait` when it waits for an approval (the build stays `building` with its
 * step set by `checkDeployGates`; its log says which gates, and `build.status` is emitted).
 * A preview passes without a check.
 * @param built the build's commit and what it rendered, for the log.
 * @throws BuildError when the deploy was rejected, or (fail closed) the changed pages could not be
 *   checked; the published output is removed first.
 */
export async function passDeployGates(
  ctx: AppContext,
  build: BuildRow,
  project: { id: string; repoUrl: string },
  dir: string,
  built: { commitSha: string; commitMessage: string; pages: number; warnings: number },
  log: BuildLog,
): Promise<'deploy' | 'wait'> {
  // Production and version builds both reach the production host: each passes the gates against its own channel.
  if (build.isPreview) return 'deploy';
  const gate = await checkDeployGates(ctx, build, project.repoUrl, { sha: built.commitSha, message: built.commitMessage }).catch(async (err: unknown) => {
    await ctx.deploymentStore.remove(dir).catch(() => undefined);
    // Fail closed: a deploy whose changes cannot be checked does not go live unchecked.
    if (err instanceof ApiError) throw new BuildError(`The changed pages could not be checked against the approval gates: ${err.message}`);
    throw err;
  });
  if (gate.kind === 'rejected') {
    await ctx.deploymentStore.remove(dir).catch(() => undefined);
    throw new BuildError(rejectedError(gate.reason));
  }
  if (gate.kind === 'wait') {
    const what = gate.gates.length > 0 ? `gates ${gate.gates.map((g) => `"${g.name}"`).join(', ')} (changed: ${gate.paths.slice(0, 20).join(', ')}${gate.paths.length > 20 ? `, and ${gate.paths.length - 20} more` : ''})` : 'an approval requested by hand';
    log.line(`⏸ waiting for approval ${gate.approvalId} before deploying: ${gate.requiredApprovals} approval(s) required by ${what}; rendered ${built.pages} pages (${built.warnings} warnings)`);
    ctx.events.emit('build.status', { projectId: project.id, buildId: build.id, status: 'building' });
    return 'wait';
  }
  return 'deploy';
}

/**
 * The `approval` job: finishes a build that waited for approval once its approval is decided, in
 * whichever process runs the job. Approved: the deploy step (deployments/deploy.ts), unless a newer
 * build of its channel (production, or its version) was deployed meanwhile (then it fails rather
 * than roll the site back). Rejected: `failed` with {@link rejectedError}. A job for a build not
 * waiting (finished, cancelled) or an approval still pending does nothing; one for a build still
 * rendering is retried after {@link APPROVAL_RETRY_MS}.
 */
export async function finishDecidedApproval(ctx: AppContext, { approvalId, buildId }: JobKinds['approval']): Promise<JobResult> {
  const prisma = ctx.db.prisma;
  const [approval, build] = await Promise.all([prisma.approval.findUnique({ where: { id: approvalId } }), prisma.build.findUnique({ where: { id: buildId } })]);
  if (!approval || !build || approval.buildId !== build.id || approval.status === 'pending' || build.status !== 'building') return;
  if (build.step !== WAITING_FOR_APPROVAL) return { retryInMs: APPROVAL_RETRY_MS }; // still before its deploy check
  const project = await prisma.project.findUnique({ where: { id: build.projectId } });
  if (!project) return;
  const dir = publishedDeploymentDir(ctx, build.projectId, build.id);
  const log = new BuildLog(ctx.config.dataDir, build.id);
  const startedAt = build.startedAt ?? build.createdAt;
  let outcome: BuildOutcome | undefined;
  try {
    if (approval.status === 'rejected') {
      const error = rejectedError(approval.reason ?? 'no reason given');
      if (await endWaiting(ctx, build.id, build.projectId, 'failed', { error, duration: Date.now() - startedAt.getTime() })) {
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
      if (await endWaiting(ctx, build.id, build.projectId, 'failed', { error, duration: Date.now() - startedAt.getTime() })) {
        log.line(`✗ failed: ${error}`);
        outcome = 'failed';
      }
      return;
    }
    log.line(`▶ approval ${approval.id} approved: deploying`);
    const production = projectSiteUrl(ctx.config, project.slug);
    const url = build.version ? versionSiteUrl(production, build.version) : production;
    outcome = await deployBuild(
      ctx,
      { id: build.id, projectId: build.projectId, isPreview: false, version: build.version },
      { dir, url, previewName: channel.previewName, commitSha: build.commitSha ?? '', commitMessage: build.commitMessage ?? '', startedAt },
      log,
      `to ${url} after approval ${approval.id}`,
    );
    if (!outcome) log.line('cancelled');
  } finally {
    log.close();
    if (outcome) {
      if (outcome !== 'deployed') ctx.metrics.observeBuild(outcome, (Date.now() - startedAt.getTime()) / 1000); // deployed: counted by deployBuild()
      await saveStoredLog(ctx, build.projectId, build.id);
    }
  }
}
