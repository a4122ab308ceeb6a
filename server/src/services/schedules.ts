/**
 * Scheduled publishing (interface-spec.md "Collaboration": `/schedules`; decisions.md section 9:
 * "Schedules publish a ref or a review's merge at a time, exactly once"): create, list, get and
 * cancel. The Schedule row is the truth; a delayed `schedule` job of the job queue (queue/job-queue.ts)
 * wakes the schedule runner (jobs/schedule-runner.ts) at its time, which claims the row
 * (`scheduled → running`, one conditional update) and runs it as the schedule's creator.
 * Reads need `projects:read`, changes `projects:write` (decisions.md section 2); a ref schedule
 * also needs `builds:write`, as the build it starts would.
 */
import { ApiError, invalidField } from '@quire/shared/errors';
import { newId } from '@quire/shared/ids';
import { hasPermission } from '@quire/shared/api/api-keys';
import {
  isCommitRef,
  SCHEDULE_MAX_AHEAD_MS,
  SCHEDULE_PAST_TOLERANCE_MS,
  type CreateScheduleBody,
  type ListSchedulesFilters,
  type Schedule,
} from '@quire/shared/api/schedules';
import type { AppContext } from '../context';
import type { Models } from '../db/client';
import type { RequestAuth } from '../access/request-auth';
import type { PageRequest } from '@quire/shared/api/common';
import { recordAudit } from './audit';
import { getProjectForCaller } from './projects';

/** A Schedule row. */
export type ScheduleRow = Models.ScheduleModel;
/** A Schedule row with the user who made it (null once that account was deleted). */
export type ScheduleWithCreator = ScheduleRow & { createdBy: { id: string; name: string; email: string } | null };

/** Longest delay one in-process timer can wait (2^31 - 1 ms, about 24.8 days); a job woken early waits again. */
export const MAX_JOB_DELAY_MS = 2 ** 31 - 1;

/** Review statuses a merge can no longer come from (shared/src/collab review states). */
const ENDED_REVIEW_STATUSES = ['merged', 'closed'];

/**
 * Enqueues the `schedule` job that runs `row` at its time (deduplicated by the schedule id; a delay
 * over {@link MAX_JOB_DELAY_MS} is cut, the runner re-delays a job woken early). Errors are logged:
 * the runner's sweep enqueues due schedules from the database anyway.
 */
export async function enqueueSchedule(ctx: AppContext, row: Pick<ScheduleRow, 'id' | 'projectId' | 'runAt'>, now = Date.now()): Promise<void> {
  const delayMs = Math.min(Math.max(0, row.runAt.getTime() - now), MAX_JOB_DELAY_MS);
  await ctx.jobs
    .enqueue('schedule', { scheduleId: row.id, projectId: row.projectId }, { jobId: row.id, delayMs })
    .catch((err: unknown) => ctx.log.error({ err, scheduleId: row.id }, 'enqueuing a schedule failed; the schedule runner will pick it up from the database'));
}

/** `at` as a Date, checked against now: at most {@link SCHEDULE_PAST_TOLERANCE_MS} ago and {@link SCHEDULE_MAX_AHEAD_MS} ahead. */
function dueTime(at: string, now: number): Date {
  const when = new Date(at);
  if (Number.isNaN(when.getTime())) throw invalidField('at', 'is not a valid date and time');
  if (when.getTime() < now - SCHEDULE_PAST_TOLERANCE_MS) throw invalidField('at', 'must be in the future', `at: ${at} is in the past; give a time in the future.`);
  if (when.getTime() > now + SCHEDULE_MAX_AHEAD_MS) throw invalidField('at', 'must be at most a year ahead', `at: ${at} is more than a year ahead.`);
  return when;
}

/**
 * Schedules a ref's production build or a review's merge (`POST /schedules`, 201); audited as
 * `schedule.created`. A ref is the project's production branch (`repoBranch`: its head when the
 * schedule runs) or a full commit SHA (built on that branch); another branch is refused, since its
 * builds are previews (decisions.md section 4). A review must be in the project and not merged or
 * closed, with no other pending schedule. The schedule later acts as the caller's user.
 * @param now the current time in ms (tests); `at` is checked against it.
 * @throws ApiError not_found (project, review); invalid_request naming `at` (past, over a year
 *   ahead), `ref` (another branch) or `repoUrl` (none); forbidden (a test key, which never changes
 *   a production site; a key without a user; a ref schedule without `builds:write`); conflict
 *   (the review ended or is already scheduled).
 */
export async function createSchedule(ctx: AppContext, auth: RequestAuth, projectId: string, body: CreateScheduleBody, now = Date.now()): Promise<ScheduleRow> {
  const project = await getProjectForCaller(ctx, auth, projectId);
  const runAt = dueTime(body.at, now);
  if (auth.mode === 'test') throw new ApiError('forbidden', 'Test keys never change a production site, so they cannot schedule publishing; use a live key.');
  if (!auth.userId) throw new ApiError('forbidden', "A schedule runs as the user who made it, and this key's user no longer exists; use a key of an existing user.");
  const prisma = ctx.db.prisma;
  if (body.ref !== undefined) {
    if (!hasPermission(auth.permissions, 'builds:write')) throw new ApiError('forbidden', 'Scheduling a ref starts a production build: the key needs the "builds:write" permission.');
    if (!project.repoUrl) throw invalidField('repoUrl', 'the project has no repository', 'The project has no repoUrl: connect a repository with PATCH /v1/projects/{projectId} first.');
    if (!isCommitRef(body.ref) && body.ref !== project.repoBranch) {
      throw invalidField('ref', `must be the project's production branch (${project.repoBranch}) or a full commit SHA`, `ref: "${body.ref}" is not the project's production branch (${project.repoBranch}); builds of other branches are previews. Schedule the branch ${project.repoBranch} or a full commit SHA.`);
    }
  } else if (body.reviewId !== undefined) {
    const review = await prisma.review.findFirst({ where: { id: body.reviewId, projectId }, select: { id: true, status: true } });
    if (!review) throw new ApiError('not_found', `No review ${body.reviewId} in project ${projectId}.`);
    if (ENDED_REVIEW_STATUSES.includes(review.status)) throw new ApiError('conflict', `Review ${review.id} is ${review.status}; only a review that is not merged or closed can be scheduled to merge.`, { status: review.status });
    const pending = await prisma.schedule.findFirst({ where: { projectId, reviewId: review.id, status: { in: ['scheduled', 'running'] } }, select: { id: true } });
    if (pending) throw new ApiError('conflict', `Review ${review.id} is already scheduled to merge by ${pending.id}; cancel that schedule first.`, { scheduleId: pending.id });
  }
  const row = await prisma.$transaction(async (tx) => {
    const created = await tx.schedule.create({
      data: {
        id: newId('schedule'),
        projectId,
        kind: body.ref !== undefined ? 'ref' : 'review',
        ref: body.ref ?? null,
        reviewId: body.reviewId ?? null,
        runAt,
        status: 'scheduled',
        createdById: auth.userId,
      },
    });
    await recordAudit(tx, {
      orgId: project.orgId,
      projectId,
      auth,
      action: 'schedule.created',
      resource: { type: 'schedule', id: created.id },
      metadata: {
        kind: created.kind,
        at: runAt.toISOString(),
        ...(created.ref ? { ref: created.ref } : {}),
        ...(created.reviewId ? { reviewId: created.reviewId } : {}),
      },
    });
    return created;
  });
  await enqueueSchedule(ctx, row, now);
  return row;
}

/** Adds each row's creator (one query for all). */
export async function withCreators(ctx: AppContext, rows: ScheduleRow[]): Promise<ScheduleWithCreator[]> {
  const ids = [...new Set(rows.map((r) => r.createdById).filter((id): id is string => id !== null))];
  const users = ids.length ? await ctx.db.prisma.user.findMany({ where: { id: { in: ids } }, select: { id: true, name: true, email: true } }) : [];
  const byId = new Map(users.map((u) => [u.id, u]));
  return rows.map((r) => ({ ...r, createdBy: (r.createdById && byId.get(r.createdById)) || null }));
}

/**
 * A project's schedules, soonest first, optionally of one `status`.
 * @throws ApiError not_found for a project the caller cannot see.
 */
export async function listSchedules(
  ctx: AppContext,
  auth: RequestAuth,
  projectId: string,
  filters: ListSchedulesFilters,
  page: PageRequest,
): Promise<{ items: ScheduleWithCreator[]; total: number }> {
  await getProjectForCaller(ctx, auth, projectId);
  const where = { projectId, ...(filters.status ? { status: filters.status } : {}) };
  const [rows, total] = await Promise.all([
    ctx.db.prisma.schedule.findMany({ where, orderBy: [{ runAt: 'asc' }, { id: 'asc' }], skip: page.skip, take: page.take }),
    ctx.db.prisma.schedule.count({ where }),
  ]);
  return { items: await withCreators(ctx, rows), total };
}

/**
 * One schedule of a project.
 * @throws ApiError not_found when the project is not the caller's or the schedule is not in it.
 */
export async function getSchedule(ctx: AppContext, auth: RequestAuth, projectId: string, scheduleId: string): Promise<ScheduleWithCreator> {
  await getProjectForCaller(ctx, auth, projectId);
  const row = await ctx.db.prisma.schedule.findFirst({ where: { id: scheduleId, projectId } });
  if (!row) throw new ApiError('not_found', `No schedule ${scheduleId} in project ${projectId}.`);
  return (await withCreators(ctx, [row]))[0]!;
}

/**
 * Cancels a schedule that has not run (`scheduled → cancelled`, one conditional update, so it
 * cannot race the runner's claim); audited as `schedule.cancelled`. Its queued job finds the row
 * cancelled and does nothing.
 * @throws ApiError not_found; conflict naming the state when it is already running, done, failed
 *   or cancelled.
 */
export async function cancelSchedule(ctx: AppContext, auth: RequestAuth, projectId: string, scheduleId: string): Promise<void> {
  const row = await getSchedule(ctx, auth, projectId, scheduleId);
  const cancelled = await ctx.db.prisma.$transaction(async (tx) => {
    const { count } = await tx.schedule.updateMany({ where: { id: row.id, status: 'scheduled' }, data: { status: 'cancelled' } });
    if (count !== 1) return false;
    await recordAudit(tx, { orgId: auth.orgId, projectId, auth, action: 'schedule.cancelled', resource: { type: 'schedule', id: row.id }, metadata: { kind: row.kind, at: row.runAt.toISOString() } });
    return true;
  });
  if (!cancelled) {
    const now = await ctx.db.prisma.schedule.findUnique({ where: { id: row.id }, select: { status: true } });
    const status = now?.status ?? row.status;
    throw new ApiError('conflict', `Schedule ${row.id} is already ${status}; only a scheduled one can be cancelled.`, { status });
  }
}

/** The response form of a schedule (`ref` only for kind ref, `reviewId` only for kind review). */
export function toScheduleDto(row: ScheduleWithCreator): Schedule {
  return {
    id: row.id,
    kind: row.kind as Schedule['kind'],
    ...(row.ref !== null ? { ref: row.ref } : {}),
    ...(row.reviewId !== null ? { reviewId: row.reviewId } : {}),
    at: row.runAt.toISOString(),
    status: row.status as Schedule['status'],
    late: row.late,
    ranAt: row.ranAt?.toISOString() ?? null,
    buildId: row.buildId,
    error: row.error,
    createdBy: row.createdBy ?? { id: '', name: '', email: '' },
    createdAt: row.createdAt.toISOString(),
  };
}
