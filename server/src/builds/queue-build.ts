/**
 * Queuing a build (decisions.md sections 1 and 4): the one place a Build row is inserted. Every
 * build starts `queued` in a transaction of its caller (a trigger through the API or a schedule,
 * a review, a git event, the version builds after a production deploy), and after that
 * transaction commits its `build` job is enqueued for the build runner (jobs/build-runner.ts),
 * which alone moves it on. Should the enqueue fail, the row stays `queued` and the runner's sweep
 * enqueues it (builds/build-sweep.ts): nothing accepted is lost.
 */
import { newId } from '@quire/shared/ids';
import type { BuildTrigger } from '@quire/shared/api/builds';
import type { AppContext } from '../context';
import type { Models } from '../db/client';
import type { Prisma } from '../db/generated/client';

/** What {@link queueBuild} inserts; absent optional columns are stored as null (or false). */
export interface QueueBuildSpec {
  /** the new build's id (default a new `bld_` id); a caller that records it before the insert passes it */
  id?: string;
  projectId: string;
  trigger: BuildTrigger;
  /** branch to fetch (a version build: its first ref candidate, resolved when it starts) */
  branch: string;
  /** the commit to build; null or absent: the branch's head when the build starts */
  commitSha?: string | null;
  isPreview: boolean;
  /** rebuild every page even when the commit is already deployed */
  force?: boolean;
  /** the user who started it (null for git events) */
  createdById?: string | null;
  /**
   * creation time, strictly after the previous build's of this process (services/builds.ts
   * `nextStamp`), so "newest first" is exact
   */
  createdAt: Date;
  /** the review whose preview or merge it builds */
  reviewId?: string | null;
  /** the documentation version label it deploys under `/<label>/` (versions/version-builds.ts) */
  version?: string | null;
  /** git events: the preview channel (`<branch-slug>`, `pr-<n>`), the pull request, the delivery */
  previewName?: string | null;
  pullRequest?: { number: number; title: string | null } | null;
  deliveryId?: string | null;
  /** git events: changed paths of the pushed commits (stored as a JSON list), null when unknown, and the commit they count from */
  changedFiles?: string[] | null;
  changedSince?: string | null;
}

/**
 * Inserts a `queued` Build from `spec` in transaction `tx` (the caller's: its locks, limits, audit
 * entry and replaced builds commit with it). Call {@link enqueueBuild} with the row once `tx` has
 * committed: a job sent earlier could run before the row is visible.
 * @returns the inserted row.
 * @throws database errors (the caller's transaction rolls back).
 */
export async function queueBuild(tx: Prisma.TransactionClient, spec: QueueBuildSpec): Promise<Models.BuildModel> {
  return tx.build.create({
    data: {
      id: spec.id ?? newId('build'),
      projectId: spec.projectId,
      status: 'queued',
      trigger: spec.trigger,
      branch: spec.branch,
      commitSha: spec.commitSha ?? null,
      isPreview: spec.isPreview,
      force: spec.force ?? false,
      createdById: spec.createdById ?? null,
      createdAt: spec.createdAt,
      reviewId: spec.reviewId ?? null,
      version: spec.version ?? null,
      previewName: spec.previewName ?? null,
      pullRequest: spec.pullRequest?.number ?? null,
      pullRequestTitle: spec.pullRequest?.title ?? null,
      deliveryId: spec.deliveryId ?? null,
      changedFiles: spec.changedFiles == null ? null : JSON.stringify(spec.changedFiles),
      changedSince: spec.changedSince ?? null,
    },
  });
}

/**
 * The second half of {@link queueBuild}, after its transaction committed: announces the build
 * (`build.status` queued: progress streams, outgoing webhooks) and enqueues its `build` job (job id
 * = build id, so a repeat is deduplicated). A failed enqueue is logged, not thrown: the runner's
 * sweep enqueues the queued row.
 */
export async function enqueueBuild(ctx: AppContext, build: Pick<Models.BuildModel, 'id' | 'projectId'>): Promise<void> {
  ctx.events.emit('build.status', { projectId: build.projectId, buildId: build.id, status: 'queued' });
  await ctx.jobs
    .enqueue('build', { buildId: build.id, projectId: build.projectId }, { jobId: build.id })
    .catch((err: unknown) => ctx.log.error({ err, buildId: build.id }, 'enqueuing a build failed; a worker will pick it up from the database'));
}
