/**
 * The build runner's sweep (jobs/build-runner.ts; decisions.md section 1: nothing accepted is lost):
 * queued builds whose enqueue failed or that another process inserted are enqueued again, lost
 * `approval` jobs are sent again, and, with a shared queue (BullMQ), builds whose worker died are
 * settled.
 */
import type { AppContext } from '../context';
import { enqueueApprovalJob, WAITING_FOR_APPROVAL } from '../services/approvals';
import { logBuildLine, NOT_WAITING, setBuildStatus } from './build-status';

/**
 * A `building` build started longer ago than this (ms) whose queue job is failed or gone is an
 * orphan (see {@link settleOrphans}); younger ones are left alone while their claim settles.
 */
export const ORPHAN_AFTER_MS = 30_000;
/** The error of a build whose job the queue gave up after its workers died too often. */
export const WORKERS_DIED_ERROR =
  'The build stopped because the worker processes running it kept stopping (out of memory, or a crash); it was not tried again. The previous deployment keeps serving.';

/**
 * Enqueues every queued build, oldest first (deduplicated by build id: the job id is the build
 * id), and the `approval` job of every build waiting for an approval already decided (its job was
 * lost: the enqueue failed, or the server stopped before it ran).
 * @throws database and queue errors (the sweep logs them).
 */
export async function enqueueQueuedBuilds(ctx: AppContext): Promise<void> {
  const queued = await ctx.db.prisma.build.findMany({
    where: { status: 'queued' },
    orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
    select: { id: true, projectId: true },
  });
  for (const b of queued) await ctx.jobs.enqueue('build', { buildId: b.id, projectId: b.projectId }, { jobId: b.id });
  // Waiting builds whose approval was decided but whose job was lost (enqueue failed, server stopped).
  const waiting = await ctx.db.prisma.build.findMany({ where: { status: 'building', step: WAITING_FOR_APPROVAL }, select: { id: true } });
  if (waiting.length > 0) {
    const decided = await ctx.db.prisma.approval.findMany({
      where: { buildId: { in: waiting.map((b) => b.id) }, status: { not: 'pending' } },
      select: { id: true, buildId: true, projectId: true },
    });
    for (const a of decided) await enqueueApprovalJob(ctx, a);
  }
}

/**
 * Settles orphans of a shared queue: a build `building` for over {@link ORPHAN_AFTER_MS} (not
 * waiting for approval, not running in this process) whose job the queue failed (its workers died
 * more than `MAX_STALLED_COUNT` times, queue/bullmq-queue.ts) ends `failed` with
 * {@link WORKERS_DIED_ERROR}; one whose job is gone (Redis lost it) goes back to `queued`.
 * @param runsHere whether this process runs the build (those are never orphans).
 * @throws database and queue errors (the sweep logs them).
 */
export async function settleOrphans(ctx: AppContext, runsHere: (buildId: string) => boolean): Promise<void> {
  const building = await ctx.db.prisma.build.findMany({
    where: { status: 'building', ...NOT_WAITING, startedAt: { lt: new Date(Date.now() - ORPHAN_AFTER_MS) } },
    select: { id: true, startedAt: true },
  });
  for (const b of building) {
    if (runsHere(b.id)) continue;
    const job = await ctx.jobs.state('build', b.id);
    if (job.state === 'failed') {
      if (await setBuildStatus(ctx, b.id, 'building', 'failed', { error: WORKERS_DIED_ERROR, finishedAt: new Date() })) {
        ctx.log.error({ buildId: b.id, reason: job.reason }, 'build failed: the queue gave up its job');
        logBuildLine(ctx, b.id, `✗ failed: ${WORKERS_DIED_ERROR} (queue: ${job.reason})`);
        ctx.metrics.observeBuild('failed', (Date.now() - (b.startedAt?.getTime() ?? Date.now())) / 1000);
      }
    } else if (job.state === 'gone') {
      if (await setBuildStatus(ctx, b.id, 'building', 'queued', { startedAt: null })) {
        ctx.log.warn({ buildId: b.id }, 'build requeued: its job was missing from the queue');
        logBuildLine(ctx, b.id, 'requeued: its job was missing from the queue (was Redis restarted without persistence?)');
      }
    }
  }
}
