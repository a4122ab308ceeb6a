/**
 * Reindex jobs as the API sees them (interface-spec.md "Reindex job", "States and transitions >
 * Reindex job", "Search": `POST .../search/reindex` answers `{data: job}`, 404 `not_found`, 409
 * `conflict` while one is in progress; decisions.md section 7: 202 and `GET .../reindex/{jobId}`).
 *
 * A job is a `ReindexJob` row (`idx_`): `queued` when requested, `processing` while a worker runs it
 * (jobs/reindex-runner.ts, through the job queue's `reindex` kind), then `completed` with the pages
 * indexed, or `failed` with the reason. At most one job per project is `queued` or `processing`:
 * the check and the insert are one transaction under the project's reindex lock (db/locks.ts), so
 * this holds across server processes.
 */
import { ApiError } from '@quire/shared/errors';
import { newId } from '@quire/shared/ids';
import type { ReindexBody, ReindexJob } from '@quire/shared/api/search';
import type { AppContext } from '../context';
import type { Models } from '../db/client';
import { lockKey } from '../db/locks';
import type { RequestAuth } from '../access/request-auth';
import { getProjectForCaller } from '../services/projects';

/** States in which a job counts as in progress (a new one is refused). */
export const ACTIVE_REINDEX = ['queued', 'processing'];

/** The response form of a job row (`startedAt`: when it was requested). */
export function toReindexJobDto(row: Models.ReindexJobModel): ReindexJob {
  return {
    jobId: row.id,
    status: row.status as ReindexJob['status'],
    full: row.full,
    ...(row.status === 'completed' && row.pagesIndexed !== null ? { pagesIndexed: row.pagesIndexed } : {}),
    startedAt: row.createdAt.toISOString(),
    ...(row.finishedAt ? { finishedAt: row.finishedAt.toISOString() } : {}),
    ...(row.status === 'failed' && row.error ? { error: row.error } : {}),
  };
}

/**
 * Requests a reindex of the project's search (production and every live version): a `queued` job,
 * handed to the job queue.
 * @throws ApiError not_found (unknown or foreign project), conflict (409) while another job of the
 *   project is queued or processing.
 */
export async function requestReindex(ctx: AppContext, auth: RequestAuth, projectId: string, body: ReindexBody): Promise<ReindexJob> {
  await getProjectForCaller(ctx, auth, projectId);
  const row = await ctx.db.prisma.$transaction(async (tx) => {
    await lockKey(tx, ctx.db.provider, `reindex:${projectId}`);
    const running = await tx.reindexJob.findFirst({ where: { projectId, status: { in: ACTIVE_REINDEX } }, select: { id: true, status: true } });
    if (running) throw new ApiError('conflict', `A reindex of this project is already ${running.status} (${running.id}).`, { jobId: running.id });
    return tx.reindexJob.create({ data: { id: newId('reindexJob'), projectId, status: 'queued', full: body.full, createdById: auth.userId ?? null } });
  });
  await enqueueReindex(ctx, row.id, projectId);
  return toReindexJobDto(row);
}

/**
 * Hands a job to the queue (deduplicated by its id), to run no earlier than `delayMs` from now. A failure is logged, not thrown: the job row
 * stays `queued` and the runner's sweep enqueues it again.
 */
export async function enqueueReindex(ctx: AppContext, jobId: string, projectId: string, delayMs = 0): Promise<void> {
  await ctx.jobs.enqueue('reindex', { jobId, projectId }, { jobId, ...(delayMs > 0 ? { delayMs } : {}) }).catch((err: unknown) => ctx.log.error({ err, jobId }, 'a reindex job could not be queued; the sweep will queue it'));
}

/** One job of the project. @throws ApiError not_found for an unknown project or job. */
export async function getReindexJob(ctx: AppContext, auth: RequestAuth, projectId: string, jobId: string): Promise<ReindexJob> {
  await getProjectForCaller(ctx, auth, projectId);
  const row = await ctx.db.prisma.reindexJob.findFirst({ where: { id: jobId, projectId } });
  if (!row) throw new ApiError('not_found', `No reindex job ${jobId} in this project.`);
  return toReindexJobDto(row);
}
