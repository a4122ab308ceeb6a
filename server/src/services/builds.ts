/**
 * Builds (interface-spec.md "Builds"; decisions.md sections 2 and 4): trigger, list, get, log.
 * Triggering inserts a `queued` build and its `build.triggered` audit entry in one transaction
 * and enqueues a `build` job (builds/queue-build.ts); every later status change belongs to the build runner (server/src/jobs).
 */
import { ApiError, invalidField } from '@quire/shared/errors';
import { checkBranchName } from '@quire/shared/repo/git-ref';
import { IN_PROGRESS_STATUSES, type Build, type BuildTrigger, type BuildDetail, type ListBuildsFilters, type TriggerBuildBody } from '@quire/shared/api/builds';
import type { AppContext } from '../context';
import type { Models } from '../db/client';
import type { Prisma } from '../db/generated/client';
import { lockKey } from '../db/locks';
import { nextStamp } from '../db/stamps';
import { apiBaseUrl, type Config } from '../env';
import type { RequestAuth } from '../access/request-auth';
import type { PageRequest } from '@quire/shared/api/common';
import { recordAudit } from './audit';
import { consumeUsage } from './usage';
import { getProjectForCaller } from './projects';
import { parseStringList } from '../db/json-columns';
import { enqueueBuild, queueBuild } from '../builds/queue-build';

/** Builds a project may start per rolling hour (decisions.md section 4: the 31st gets 429). */
export const TRIGGERS_PER_HOUR = 30;

/**
 * Refuses a build past {@link TRIGGERS_PER_HOUR} builds of the project (version builds aside) in
 * the last hour, inside the caller's transaction (which holds the project's build lock).
 * @throws ApiError rate_limited with `Retry-After` (seconds until the oldest counted build is an hour old)
 */
export async function checkHourlyTriggers(tx: Prisma.TransactionClient, projectId: string): Promise<void> {
  const since = new Date(Date.now() - HOUR_MS);
  const recent = await tx.build.findMany({ where: { projectId, createdAt: { gte: since }, version: null }, orderBy: { createdAt: 'asc' }, select: { createdAt: true } });
  if (recent.length < TRIGGERS_PER_HOUR) return;
  const freeAt = recent[recent.length - TRIGGERS_PER_HOUR]!.createdAt.getTime() + HOUR_MS;
  const retryAfter = Math.max(1, Math.ceil((freeAt - Date.now()) / 1000));
  throw new ApiError('rate_limited', `At most ${TRIGGERS_PER_HOUR} builds per project per hour; retry in ${retryAfter} s.`, { limit: TRIGGERS_PER_HOUR }, { 'Retry-After': String(retryAfter) });
}
const HOUR_MS = 60 * 60 * 1000;

type BuildRow = Models.BuildModel;

/**
 * Queues a build of a project (`POST /v1/projects/{projectId}/builds`, answered 202).
 * Branch defaults to the project's `repoBranch`. The build is a preview when `preview` is true,
 * when the branch is not `repoBranch`, or when the caller uses a test key (decisions.md 2 and 4).
 * @throws ApiError not_found (project unknown or not the caller's); invalid_request (no repoUrl,
 *   bad branch); conflict with `details.buildId` while a build of the project is queued or
 *   building (a production build waiting for approval blocks only production builds); rate_limited with `Retry-After` past
 *   {@link TRIGGERS_PER_HOUR} builds in an hour;
 *   usage_limit_exceeded past the organization's monthly build limit (services/usage.ts).
 * @param trigger what started it: `api` (a REST or tRPC call) or `schedule` (scheduled publishing).
 */
export async function triggerBuild(ctx: AppContext, auth: RequestAuth, projectId: string, body: TriggerBuildBody = {}, trigger: Extract<BuildTrigger, 'api' | 'schedule'> = 'api'): Promise<BuildRow> {
  const project = await getProjectForCaller(ctx, auth, projectId);
  if (!project.repoUrl) throw invalidField('repoUrl', 'the project has no repository', 'The project has no repoUrl: connect a repository with PATCH /v1/projects/{projectId} first.');
  const branch = body.branch ?? project.repoBranch;
  const branchCheck = checkBranchName(branch);
  if (!branchCheck.ok) throw invalidField('branch', branchCheck.issue);
  const isPreview = body.preview === true || branch !== project.repoBranch || auth.mode === 'test';
  const build = await ctx.db.prisma.$transaction(async (tx) => {
    // One build per project at a time, also with several server processes (db/locks.ts).
    await lockKey(tx, ctx.db.provider, `build:${projectId}`);
    // A production build waiting for approval blocks production builds only: previews may run meanwhile.
    // Documentation version builds (versions/version-builds.ts) follow a deploy and queue behind each other: they never block a trigger.
    const running = await tx.build.findFirst({
      where: { projectId, status: { in: [...IN_PROGRESS_STATUSES] }, version: null, ...(isPreview ? { OR: [{ step: null }, { step: { not: 'waiting_for_approval' } }] } : {}) },
      select: { id: true, status: true, step: true },
    });
    if (running?.step === 'waiting_for_approval') {
      throw new ApiError('conflict', `Build ${running.id} is waiting for approval before it deploys; approve or reject it (GET /v1/projects/${projectId}/approvals), or cancel it.`, { buildId: running.id });
    }
    if (running) throw new ApiError('conflict', `Build ${running.id} is already ${running.status}; wait for it to finish or cancel it.`, { buildId: running.id });
    await checkHourlyTriggers(tx, projectId);
    // Monthly plan limit (decisions.md section 2): counted with the build, refused before it exists.
    const org = await tx.organization.findUniqueOrThrow({ where: { id: project.orgId }, select: { id: true, plan: true } });
    await consumeUsage(tx, ctx.config, org, 'builds');
    const row = await queueBuild(tx, {
      projectId,
      trigger,
      branch,
      commitSha: body.commitSha ?? null,
      isPreview,
      force: body.force ?? false,
      createdById: auth.userId,
      createdAt: nextStamp(),
    });
    await recordAudit(tx, {
      orgId: project.orgId,
      projectId,
      auth,
      action: 'build.triggered',
      resource: { type: 'build', id: row.id },
      metadata: { branch, isPreview, ...(body.commitSha ? { commitSha: body.commitSha } : {}), ...(body.force ? { force: true } : {}) },
    });
    return row;
  });
  // After the commit. Should the enqueue fail, the row stays queued and a worker's sweep enqueues it.
  await enqueueBuild(ctx, build);
  return build;
}

/** What {@link queueReviewBuild} builds. */
export interface ReviewBuildInput {
  projectId: string;
  orgId: string;
  reviewId: string;
  /** the branch the review merges into */
  branch: string;
  /** preview: the review's base commit (the runner lays the change set over it); production: the merge commit */
  commitSha: string;
  isPreview: boolean;
}

/**
 * Queues the build of a review (decisions.md section 9), trigger `review`: the preview of base +
 * change set, or the production build of its merge commit. Unlike {@link triggerBuild} it never
 * answers 409 while another build of the project runs (the runner starts it once that one ended,
 * jobs/build-runner.ts) and has no hourly trigger limit: it follows a review's change, not a
 * button. A newer preview of the same review replaces an older one still queued (that one ends
 * `cancelled`). Counted against the monthly build limit; audited as `build.triggered`.
 * @throws ApiError usage_limit_exceeded past the organization's monthly build limit (nothing queued).
 */
export async function queueReviewBuild(ctx: AppContext, auth: RequestAuth, input: ReviewBuildInput): Promise<BuildRow> {
  let replaced: string[] = [];
  const build = await ctx.db.prisma.$transaction(async (tx) => {
    if (input.isPreview) {
      const older = await tx.build.findMany({
        where: { projectId: input.projectId, reviewId: input.reviewId, isPreview: true, status: 'queued' },
        select: { id: true },
      });
      replaced = older.map((b) => b.id);
      if (replaced.length > 0) {
        await tx.build.updateMany({
          where: { id: { in: replaced }, status: 'queued' },
          data: { status: 'cancelled', cancelRequested: true, finishedAt: new Date() },
        });
      }
    }
    const org = await tx.organization.findUniqueOrThrow({ where: { id: input.orgId }, select: { id: true, plan: true } });
    await consumeUsage(tx, ctx.config, org, 'builds');
    const row = await queueBuild(tx, {
      projectId: input.projectId,
      trigger: 'review',
      branch: input.branch,
      commitSha: input.commitSha,
      isPreview: input.isPreview,
      reviewId: input.reviewId,
      createdById: auth.userId,
      createdAt: nextStamp(),
    });
    await recordAudit(tx, {
      orgId: input.orgId,
      projectId: input.projectId,
      auth,
      action: 'build.triggered',
      resource: { type: 'build', id: row.id },
      metadata: { branch: input.branch, isPreview: input.isPreview, commitSha: input.commitSha, reviewId: input.reviewId },
    });
    return row;
  });
  // Progress streams and outgoing webhooks hear that the replaced previews ended.
  for (const id of replaced) ctx.events.emit('build.status', { projectId: input.projectId, buildId: id, status: 'cancelled' });
  await enqueueBuild(ctx, build);
  return build;
}

/**
 * Lists a project's builds, newest first, filtered by `status` and `branch`.
 * @throws ApiError not_found for a project the caller cannot see.
 */
export async function listBuilds(
  ctx: AppContext,
  auth: RequestAuth,
  projectId: string,
  filters: ListBuildsFilters,
  page: PageRequest,
): Promise<{ items: BuildRow[]; total: number }> {
  await getProjectForCaller(ctx, auth, projectId);
  const where = { projectId, ...(filters.status ? { status: filters.status } : {}), ...(filters.branch ? { branch: filters.branch } : {}) };
  const [items, total] = await Promise.all([
    ctx.db.prisma.build.findMany({ where, orderBy: [{ createdAt: 'desc' }, { id: 'desc' }], skip: page.skip, take: page.take }),
    ctx.db.prisma.build.count({ where }),
  ]);
  return { items, total };
}

/**
 * One build of a project.
 * @throws ApiError not_found when the project is not the caller's or the build is not in it.
 */
export async function getBuild(ctx: AppContext, auth: RequestAuth, projectId: string, buildId: string): Promise<BuildRow> {
  await getProjectForCaller(ctx, auth, projectId);
  const row = await ctx.db.prisma.build.findFirst({ where: { id: buildId, projectId } });
  if (!row) throw new ApiError('not_found', `No build ${buildId} in project ${projectId}.`);
  return row;
}

/** The response form of a build (spec "Build"). */
export function toBuildDto(row: BuildRow): Build {
  return {
    id: row.id,
    projectId: row.projectId,
    status: row.status as Build['status'],
    trigger: row.trigger as Build['trigger'],
    branch: row.branch,
    commitSha: row.commitSha,
    commitMessage: row.commitMessage,
    isPreview: row.isPreview,
    url: row.url,
    duration: row.duration,
    step: row.status === 'building' && row.step === 'waiting_for_approval' ? 'waiting_for_approval' : null,
    createdAt: row.createdAt.toISOString(),
    deployedAt: row.deployedAt?.toISOString() ?? null,
  };
}

/** The detail form: {@link toBuildDto} plus `error`, `changedFiles` and `logUrl`. */
export function toBuildDetailDto(row: BuildRow, config: Config): BuildDetail {
  const changedFiles = row.changedFiles ? parseStringList(row.changedFiles) : null;
  return {
    ...toBuildDto(row),
    error: row.error,
    changedFiles,
    logUrl: `${apiBaseUrl(config)}/v1/projects/${row.projectId}/builds/${row.id}/logs`,
  };
}
