import { ApiError } from '@quire/shared/errors';
import { hasPermission, type Permission } from '@quire/shared/api/api-keys';
import { ROLE_PERMISSIONS, RoleSchema } from '@quire/shared/api/members';
import { isCommitRef, SCHEDULE_LATE_AFTER_MS } from '@quire/shared/api/schedules';
import type { AppContext } from '../context';
import type { RequestAuth } from '../access/request-auth';
import { recordAudit } from '../services/audit';
import { triggerBuild } from '../services/builds';
import { enqueueSchedule, MAX_JOB_DELAY_MS, type ScheduleRow } from '../services/schedules';
import { SweepingJobWorker } from './job-worker';
import type { JobInfo, JobKinds, JobResult } from '../queue/job-queue';

/**
 * Merges a review as `auth` (services/reviews.ts `mergeReview`) and answers the production build it
 * started. @throws ApiError (e.g. conflict with the conflicting paths, or a review not approved).
 */
export type MergeReviewFn = (ctx: AppContext, auth: RequestAuth, projectId: string, reviewId: string) => Promise<{ buildId: string | null }>;

/** Options of {@link ScheduleRunner}. */
export interface ScheduleRunnerOptions {
  /** How often the database is swept for due, upcoming and abandoned schedules, in ms (default 10,000). */
  sweepMs?: number;
  /** Schedules due within this many ms are (re-)enqueued by each sweep (default 10 minutes; must exceed `sweepMs`). */
  horizonMs?: number;
  /** A schedule `running` for longer than this (ms) was left by a stopped process and is taken over (default 5 minutes). */
  takeoverMs?: number;
  /** Delay before a schedule whose project is busy with another build is tried again, in ms (default 2,000). */
  busyRetryMs?: number;
  /** Delay before a schedule whose repository could not be reached is tried again, in ms (default {@link UNAVAILABLE_RETRY_MS}). */
  unavailableRetryMs?: number;
  /** How a review is merged (default services/reviews.ts `mergeReview`). */
  mergeReview?: MergeReviewFn;
}

/** What running a schedule came to. */
type Outcome = { done: string | null } | { failed: string } | { retryInMs: number };

/** Why a schedule cannot run as its creator (recorded as its error). */
class CreatorUnable extends Error {}

/** A build started this long (ms) after a stopped process claimed a ref schedule counts as that schedule's (takeover). */
const TAKEOVER_MATCH_MS = 60_000;
/** Delay before a schedule whose repository could not be reached is tried again, in ms. */
export const UNAVAILABLE_RETRY_MS = 30_000;
/** How long after `at` (ms) an unreachable repository is retried before the schedule fails with the reason. */
export const UNAVAILABLE_RETRY_WINDOW_MS = 15 * 60_000;
/** Delay before a job this runner got while stopping is offered again, in ms. */
const STOPPING_RETRY_MS = 1_000;
/** The error recorded when running a schedule failed unexpectedly (the cause is logged, not shown). */
export const INTERNAL_SCHEDULE_ERROR = 'The schedule could not run because of an internal error.';

/** The default merge: services/reviews.ts, loaded on the first review schedule. */
const defaultMergeReview: MergeReviewFn = async (ctx, auth, projectId, reviewId) => {
  const { mergeReview } = await import('../services/reviews');
  return mergeReview(ctx, auth, projectId, reviewId);
};

/**
 * The schedule runner (decisions.md section 9: "Schedules publish a ref or a review's merge at a
 * time, exactly once"): the handler of `schedule` jobs of the app's job queue (`ctx.jobs`,
 * in-process or BullMQ shared by every process). The Schedule row is the truth; it alone moves
 * `scheduled → running → done | failed` (services/schedules.ts cancels).
 *
 * - Exactly once across processes: a job (or a sweep) claims its schedule with one conditional
 *   update `scheduled → running` (with `ranAt`, and `late` when more than
 *   {@link SCHEDULE_LATE_AFTER_MS} after `at`); only the process whose update changed the row runs
 *   it. A job woken before `at` waits again; one for a schedule no longer `scheduled` (cancelled,
 *   already run) does nothing.
 * - Running acts as the schedule's creator with their organization role's permissions (as a tRPC
 *   session does; `builds:write` for a ref, `projects:write` for a review). A ref is built by the
 *   builds service (a production build of the project's branch, or of a commit on it); a review is
 *   merged by `mergeReview`, which starts the production build. Success records `done` and the
 *   build id (audit `schedule.ran`); an error a user can act on (merge conflict, plan limit, the
 *   creator left) records `failed` with its message (audit `schedule.failed`).
 * - A project busy with another build: the claim is undone (`running → scheduled`) and the job
 *   retried after `busyRetryMs`, so the schedule runs behind that build; a rate limit likewise
 *   after its `Retry-After`, and an unreachable repository every `unavailableRetryMs`
 *   for up to {@link UNAVAILABLE_RETRY_WINDOW_MS} after `at`.
 * - Durable: on start and every `sweepMs`, schedules due within `horizonMs` are (re-)enqueued
 *   (deduplicated by id), so past-due ones (missed while no server ran) run at once, and are
 *   marked `late`; a schedule `running` for over `takeoverMs` (its process died) is taken over with
 *   a conditional update, and finished without running twice when its build or merge already
 *   happened.
 */
export class ScheduleRunner extends SweepingJobWorker<'schedule'> {
  private sweepMs = 10_000;
  private horizonMs = 10 * 60_000;
  private takeoverMs = 5 * 60_000;
  private busyRetryMs = 2_000;
  private unavailableRetryMs = UNAVAILABLE_RETRY_MS;
  private merge: MergeReviewFn = defaultMergeReview;
  private sweeping: Promise<void> | undefined;

  constructor(ctx: AppContext, options: ScheduleRunnerOptions = {}) {
    super(ctx, 'schedule');
    this.configure(options);
  }

  /**
   * Changes options before {@link start} (tests shorten the sweep and takeover times this way).
   * @throws Error when the runner is already started.
   */
  configure(options: ScheduleRunnerOptions): void {
    if (this.running) throw new Error('ScheduleRunner.configure: stop the runner first');
    if (options.sweepMs !== undefined) this.sweepMs = options.sweepMs;
    if (options.horizonMs !== undefined) this.horizonMs = options.horizonMs;
    if (options.takeoverMs !== undefined) this.takeoverMs = options.takeoverMs;
    if (options.busyRetryMs !== undefined) this.busyRetryMs = options.busyRetryMs;
    if (options.unavailableRetryMs !== undefined) this.unavailableRetryMs = options.unavailableRetryMs;
    if (options.mergeReview) this.merge = options.mergeReview;
  }

  protected firstSweep(): Promise<void> {
    return this.sweep();
  }

  protected periodicSweep(): Promise<void> {
    return this.sweep();
  }

  protected sweepIntervalMs(): number {
    return this.sweepMs;
  }

  protected override concurrency(): number {
    return 2;
  }

  /** A sweep under way finishes before {@link stop} resolves. */
  protected override async settle(): Promise<void> {
    await this.sweeping;
  }

  /** Enqueues schedules due within the horizon and takes over abandoned ones (errors are logged). */
  sweep(): Promise<void> {
    if (!this.running) return Promise.resolve();
    this.sweeping ??= (async () => {
      const prisma = this.ctx.db.prisma;
      const now = Date.now();
      const abandoned = await prisma.schedule.findMany({ where: { status: 'running', ranAt: { lt: new Date(now - this.takeoverMs) } } });
      for (const row of abandoned) await this.track(this.takeOver(row));
      const due = await prisma.schedule.findMany({
        where: { status: 'scheduled', runAt: { lte: new Date(now + this.horizonMs) } },
        orderBy: [{ runAt: 'asc' }, { id: 'asc' }],
        select: { id: true, projectId: true, runAt: true },
      });
      for (const row of due) await enqueueSchedule(this.ctx, row, now);
    })()
      .catch((err: unknown) => this.ctx.log.error({ err }, 'schedule runner: sweeping schedules failed'))
      .finally(() => {
        this.sweeping = undefined;
      });
    return this.sweeping;
  }


  /** The `schedule` job handler: claims a due schedule and runs it here (see the class comment). */
  protected async handle({ scheduleId }: JobKinds['schedule'], _job: JobInfo): Promise<JobResult> {
    if (!this.running) return { retryInMs: STOPPING_RETRY_MS };
    const prisma = this.ctx.db.prisma;
    const row = await prisma.schedule.findUnique({ where: { id: scheduleId } });
    if (!row || row.status !== 'scheduled') return;
    const now = Date.now();
    if (row.runAt.getTime() > now) return { retryInMs: Math.min(row.runAt.getTime() - now, MAX_JOB_DELAY_MS) };
    const ranAt = new Date(now);
    const late = now - row.runAt.getTime() > SCHEDULE_LATE_AFTER_MS;
    const { count } = await prisma.schedule.updateMany({ where: { id: row.id, status: 'scheduled' }, data: { status: 'running', ranAt, late } });
    if (count !== 1) return;
    return this.run({ ...row, status: 'running', ranAt, late }, ranAt, null);
  }

  /** Takes over a schedule left `running` by a process that stopped (one conditional update decides who). */
  private async takeOver(row: ScheduleRow): Promise<void> {
    const ranAt = new Date();
    const { count } = await this.ctx.db.prisma.schedule.updateMany({ where: { id: row.id, status: 'running', ranAt: row.ranAt }, data: { ranAt } });
    if (count !== 1) return;
    this.ctx.log.warn({ scheduleId: row.id }, 'schedule runner: taking over a schedule its process left running');
    const result = await this.run({ ...row, ranAt }, ranAt, row.ranAt);
    if (result) await enqueueSchedule(this.ctx, row);
  }

  /**
   * Runs a claimed schedule and records its outcome (only while the claim `ranAt` is still ours).
   * @param previousRun the claim time of a process that stopped mid-run (takeover), else null.
   */
  private async run(row: ScheduleRow, ranAt: Date, previousRun: Date | null): Promise<JobResult> {
    let outcome: Outcome;
    try {
      outcome = row.kind === 'review' ? await this.mergeReview(row, previousRun) : await this.publishRef(row, previousRun);
    } catch (err) {
      if (err instanceof CreatorUnable) outcome = { failed: err.message };
      else {
        this.ctx.log.error({ err, scheduleId: row.id }, 'schedule failed unexpectedly');
        outcome = { failed: INTERNAL_SCHEDULE_ERROR };
      }
    }
    const prisma = this.ctx.db.prisma;
    if ('retryInMs' in outcome) {
      await prisma.schedule.updateMany({ where: { id: row.id, status: 'running', ranAt }, data: { status: 'scheduled', ranAt: null, late: false } });
      return { retryInMs: outcome.retryInMs };
    }
    const project = await prisma.project.findUnique({ where: { id: row.projectId }, select: { orgId: true } });
    if (!project) return;
    const done = 'done' in outcome;
    const data = 'done' in outcome ? { status: 'done', buildId: outcome.done, error: null } : { status: 'failed', error: outcome.failed };
    const details = 'done' in outcome ? { buildId: outcome.done } : { error: outcome.failed };
    await prisma.$transaction(async (tx) => {
      const { count } = await tx.schedule.updateMany({ where: { id: row.id, status: 'running', ranAt }, data });
      if (count !== 1) return;
      await recordAudit(tx, {
        orgId: project.orgId,
        projectId: row.projectId,
        auth: row.createdById ? { userId: row.createdById, keyId: null } : null,
        action: done ? 'schedule.ran' : 'schedule.failed',
        resource: { type: 'schedule', id: row.id },
        metadata: { kind: row.kind, at: row.runAt.toISOString(), late: row.late, ...details },
      });
    });
    return;
  }

  /**
   * The creator as the services' caller: their user with their current organization role's
   * permissions (trpc/session-auth.ts does the same for sessions), which must grant `needed`.
   * @throws CreatorUnable when the user was deleted, left the organization or lacks `needed`.
   */
  private async creatorAuth(row: ScheduleRow, orgId: string, needed: Permission): Promise<RequestAuth> {
    const userId = row.createdById;
    const membership = userId ? await this.ctx.db.prisma.membership.findUnique({ where: { orgId_userId: { orgId, userId } } }) : null;
    const role = RoleSchema.safeParse(membership?.role);
    if (!userId || !membership || !role.success) throw new CreatorUnable('The user who made this schedule is no longer a member of the organization; it runs as them, so it did not run.');
    const permissions = [...ROLE_PERMISSIONS[role.data]];
    if (!hasPermission(permissions, needed)) throw new CreatorUnable(`The role of the user who made this schedule (${role.data}) no longer grants "${needed}", so it did not run.`);
    return { orgId, userId, keyId: null, permissions, projectId: null, mode: 'live' };
  }

  /** Starts the production build of a ref schedule (its branch, or its commit on the project's branch). */
  private async publishRef(row: ScheduleRow, previousRun: Date | null): Promise<Outcome> {
    const prisma = this.ctx.db.prisma;
    const project = await prisma.project.findUnique({ where: { id: row.projectId }, select: { orgId: true, repoBranch: true } });
    if (!project) return { failed: 'The project no longer exists.' };
    const ref = row.ref ?? '';
    const commit = isCommitRef(ref);
    if (!commit && ref !== project.repoBranch) {
      return { failed: `The ref ${ref} is no longer the project's production branch (${project.repoBranch}); builds of other branches are previews, so it did not run.` };
    }
    const branch = project.repoBranch;
    if (previousRun) {
      // Taken over: the stopped process may have started the build (within moments of its claim)
      // before it could record it; a build another schedule recorded is not this one's.
      const recorded = await prisma.schedule.findMany({ where: { projectId: row.projectId, buildId: { not: null } }, select: { buildId: true } });
      const started = await prisma.build.findFirst({
        where: {
          projectId: row.projectId,
          createdById: row.createdById,
          isPreview: false,
          branch,
          // a branch build's commit is filled in once it has run: match the commit only for a commit ref
          ...(commit ? { commitSha: ref } : {}),
          createdAt: { gte: previousRun, lte: new Date(previousRun.getTime() + TAKEOVER_MATCH_MS) },
          id: { notIn: recorded.map((r) => r.buildId!) },
        },
        orderBy: { createdAt: 'asc' },
        select: { id: true },
      });
      if (started) return { done: started.id };
    }
    const auth = await this.creatorAuth(row, project.orgId, 'builds:write');
    try {
      const build = await triggerBuild(this.ctx, auth, row.projectId, commit ? { commitSha: ref } : { branch }, 'schedule');
      return { done: build.id };
    } catch (err) {
      return this.afterError(err, row.runAt);
    }
  }

  /** Merges a review schedule's review (which starts its production build). */
  private async mergeReview(row: ScheduleRow, previousRun: Date | null): Promise<Outcome> {
    const prisma = this.ctx.db.prisma;
    const project = await prisma.project.findUnique({ where: { id: row.projectId }, select: { orgId: true } });
    if (!project || !row.reviewId) return { failed: 'The project no longer exists.' };
    if (previousRun) {
      const review = await prisma.review.findFirst({ where: { id: row.reviewId, projectId: row.projectId }, select: { status: true } });
      if (review?.status === 'merged') {
        const build = await prisma.build.findFirst({ where: { projectId: row.projectId, reviewId: row.reviewId, isPreview: false }, orderBy: { createdAt: 'desc' }, select: { id: true } });
        return { done: build?.id ?? null };
      }
    }
    const auth = await this.creatorAuth(row, project.orgId, 'projects:write');
    try {
      const { buildId } = await this.merge(this.ctx, auth, row.projectId, row.reviewId);
      return { done: buildId };
    } catch (err) {
      return this.afterError(err, row.runAt);
    }
  }

  /**
   * A service's refusal as an outcome: another build of the project in progress (409 with
   * `details.buildId`) or a rate limit (429) waits and tries again, and so does an unreachable
   * repository (503) until {@link UNAVAILABLE_RETRY_WINDOW_MS} after `at`; any other ApiError
   * fails the schedule with its message. @throws what is not an ApiError.
   */
  private afterError(err: unknown, runAt: Date): Outcome {
    if (!(err instanceof ApiError)) throw err;
    if (err.code === 'conflict' && typeof err.details?.buildId === 'string') return { retryInMs: this.busyRetryMs };
    if (err.code === 'service_unavailable' && Date.now() - runAt.getTime() < UNAVAILABLE_RETRY_WINDOW_MS) return { retryInMs: this.unavailableRetryMs };
    if (err.code === 'rate_limited') {
      const seconds = Number(err.headers?.['Retry-After'] ?? 60);
      return { retryInMs: Math.max(1, Number.isFinite(seconds) ? seconds : 60) * 1000 };
    }
    return { failed: err.message };
  }
}
