/**
 * Builds queued by git events (interface-spec.md "Events"; decisions.md section 4): a push or a
 * pull request delivered to `POST /v1/webhooks/github` or `/v1/webhooks/github-app`.
 *
 * Unlike `triggerBuild` (services/builds.ts) a git event never gets 409: it queues its build even
 * while another build of the project is queued or building (the runner starts it once the running
 * one ended: jobs/build-runner.ts claims one build per project at a time), and the newest build of
 * a channel replaces an older one of the same channel still queued from a webhook, which ends
 * `cancelled` (decisions.md section 4: "one build per project and branch, the newest replacing an
 * older queued one"). There is no hourly trigger limit either: pushes are not button presses, and
 * GitHub does not retry a refused delivery, so a limit would silently drop a push. The monthly
 * plan limit does apply (decisions.md section 2).
 */
import { ApiError } from '@quire/shared/errors';
import { newId } from '@quire/shared/ids';
import type { Prisma } from '../db/generated/client';
import type { AppContext } from '../context';
import type { Models } from '../db/client';
import { lockKey } from '../db/locks';
import { BuildLog } from '../builds/build-log';
import { enqueueBuild, queueBuild } from '../builds/queue-build';
import { nextStamp } from '../db/stamps';
import { consumeUsage } from './usage';

/** Triggers of git-event builds (spec "Build": `push` for the repository webhook, `github_app` for the app). */
export type GitEventTrigger = 'push' | 'github_app';

/** Triggers whose queued builds a newer git event of the same channel replaces. */
const GIT_EVENT_TRIGGERS: GitEventTrigger[] = ['push', 'github_app'];

/** What {@link queueGitEventBuild} queues. */
export interface GitEventBuildInput {
  projectId: string;
  /** the project's organization (counted against its monthly build limit) */
  orgId: string;
  trigger: GitEventTrigger;
  /** branch to fetch (checked by the caller with `checkBranchName`) */
  branch: string;
  /** the commit to build, 40 or 64 lower-case hex digits (checked by the caller) */
  commitSha: string;
  /** the preview channel (`<branch-slug>`, `pr-<n>`) of a preview build; null for a production build */
  previewName: string | null;
  /** the pull request a preview shows, with its title */
  pullRequest?: { number: number; title: string | null } | null;
  /** `X-GitHub-Delivery` of the delivery */
  deliveryId: string;
  /** changed paths of the pushed commits, deduplicated and sorted; null when the payload cannot tell */
  changedFiles: string[] | null;
  /** the commit `changedFiles` are counted from (the push's `before`) */
  changedSince?: string | null;
  /**
   * Runs inside the build's transaction before anything is counted or written (the delivery
   * record, services/github-webhooks/deliveries.ts), with the new build's id; throwing (for
   * example a unique violation of a replayed delivery) rolls everything back.
   */
  record?: (tx: Prisma.TransactionClient, buildId: string) => Promise<void>;
}

/** What {@link queueGitEventBuild} did. */
export type GitEventBuildResult =
  | { status: 'queued'; build: Models.BuildModel; /** ids of the older queued builds it replaced (now `cancelled`) */ replaced: string[] }
  | { status: 'refused'; /** why, in words (the plan limit message) */ reason: string; details: Record<string, unknown> };

/**
 * Queues the build of a git event, in one transaction under the project's build lock
 * (`lockKey(build:<projectId>)`, as `triggerBuild`): runs `input.record`, cancels older `queued`
 * builds of the same project and channel that came from webhooks (production: same branch;
 * preview: same `previewName`; they end `cancelled` with `cancelRequested` and `finishedAt`),
 * counts the build against the monthly plan limit and inserts it `queued` with its trigger,
 * branch, commit, preview channel, pull request, delivery id and changed files. After the commit
 * it emits `build.status` (queued, and cancelled for each replaced build) and enqueues the `build`
 * job, as `triggerBuild` does (a failed enqueue is picked up by the runner's sweep).
 * @returns `queued` with the build, or `refused` (nothing written) past the organization's monthly
 *   build limit.
 * @throws whatever `input.record` throws, and database errors (nothing written).
 */
export async function queueGitEventBuild(ctx: AppContext, input: GitEventBuildInput): Promise<GitEventBuildResult> {
  const buildId = newId('build');
  let outcome: { build: Models.BuildModel; replaced: string[] };
  try {
    outcome = await ctx.db.prisma.$transaction(async (tx) => {
      await lockKey(tx, ctx.db.provider, `build:${input.projectId}`);
      await input.record?.(tx, buildId);
      const channel = input.previewName === null ? { isPreview: false, branch: input.branch } : { isPreview: true, previewName: input.previewName };
      const older = await tx.build.findMany({
        where: { projectId: input.projectId, status: 'queued', trigger: { in: GIT_EVENT_TRIGGERS }, ...channel },
        select: { id: true },
      });
      if (older.length > 0) {
        await tx.build.updateMany({
          where: { id: { in: older.map((b) => b.id) }, status: 'queued' },
          data: { status: 'cancelled', cancelRequested: true, finishedAt: new Date() },
        });
      }
      const org = await tx.organization.findUniqueOrThrow({ where: { id: input.orgId }, select: { id: true, plan: true } });
      await consumeUsage(tx, ctx.config, org, 'builds');
      const build = await queueBuild(tx, {
        id: buildId,
        projectId: input.projectId,
        trigger: input.trigger,
        branch: input.branch,
        commitSha: input.commitSha,
        isPreview: input.previewName !== null,
        previewName: input.previewName,
        pullRequest: input.pullRequest ?? null,
        deliveryId: input.deliveryId,
        changedFiles: input.changedFiles,
        changedSince: input.changedSince ?? null,
        createdAt: nextStamp(),
      });
      return { build, replaced: older.map((b) => b.id) };
    });
  } catch (err) {
    if (err instanceof ApiError && err.code === 'usage_limit_exceeded') return { status: 'refused', reason: err.message, details: err.details ?? {} };
    throw err;
  }
  const { build, replaced } = outcome;
  for (const id of replaced) {
    const log = new BuildLog(ctx.config.dataDir, id);
    log.line(`cancelled before it started: replaced by build ${build.id} of a newer ${build.isPreview ? 'preview' : 'production'} event (delivery ${input.deliveryId})`);
    log.close();
    ctx.events.emit('build.status', { projectId: input.projectId, buildId: id, status: 'cancelled' });
  }
  await enqueueBuild(ctx, build);
  return { status: 'queued', build, replaced };
}
