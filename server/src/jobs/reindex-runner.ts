/**
 * Runs reindex jobs (interface-spec.md "Reindex job"; search/reindex-jobs.ts makes them): the
 * handler of the job queue's `reindex` kind, in every process that works jobs.
 *
 * A job is claimed by turning its row `processing` (from `queued`, or from `processing` when a
 * process stopped or died under it: the work is idempotent, it only writes new files under the
 * job's own generation folder). It then rebuilds the search index of the project's production
 * deployment and of the newest deployment of every version channel (`rebuild`, through
 * search/reindex-build.ts: full, or only pages whose content hash changed), writes each new index
 * into its deployment's storage under `_quire/search/reindex/<jobId>/` (search/generations.ts), and
 * finally turns the row `completed` with the pages indexed: that one write swaps the new
 * generation in (`search.reindexed` tells every process at once). Until then the old index answers.
 * A failure turns the row `failed` with the reason; the old index keeps answering.
 *
 * Restarts: on start, and every `sweepMs`, queued rows are enqueued again (deduplicated by job id);
 * on start also rows left `processing` by a stopped process. A job this process is stopping under
 * is left `processing` and offered again ({@link STOPPING_RETRY_MS}), so it is taken again after a
 * restart.
 */
import type { AppContext } from '../context';
import { generationDir } from '../search/generations';
import { rebuildDeploymentIndex, type RebuiltIndex } from '../search/reindex-build';
import { enqueueReindex } from '../search/reindex-jobs';
import type { DeploymentFiles } from '../storage/deployment-store';
import { RowSweepingJobWorker, type SweptRow } from './job-worker';
import type { JobKinds, JobResult } from '../queue/job-queue';

/** Rebuilds one deployment's index (`full`: every page extracted again). */
export type RebuildIndex = (files: DeploymentFiles, full: boolean) => Promise<RebuiltIndex | null>;

/** Options of {@link ReindexRunner}. */
export interface ReindexRunnerOptions {
  /** how often queued jobs are enqueued again, in ms (default 30,000) */
  sweepMs?: number;
  /** the rebuild of one deployment (default search/reindex-build.ts; tests may slow it down) */
  rebuild?: RebuildIndex;
}

/** Delay before a job this runner got while stopping is offered again, in ms. */
const STOPPING_RETRY_MS = 1_000;
/** Longest error text kept on a failed job. */
const MAX_ERROR_LENGTH = 1_000;

/** See the module comment. One per app (`app.reindexRunner`). */
export class ReindexRunner extends RowSweepingJobWorker<'reindex'> {
  private readonly rebuild: RebuildIndex;

  constructor(ctx: AppContext, options: ReindexRunnerOptions = {}) {
    super(ctx, 'reindex', 'processing', 'reindex runner: sweeping queued jobs', options.sweepMs);
    this.rebuild = options.rebuild ?? rebuildDeploymentIndex;
  }

  protected findRows(statuses: string[]): Promise<SweptRow[]> {
    return this.ctx.db.prisma.reindexJob.findMany({ where: { status: { in: statuses } }, select: { id: true, projectId: true }, orderBy: { createdAt: 'asc' } });
  }

  protected enqueueRow(row: SweptRow): Promise<void> {
    return enqueueReindex(this.ctx, row.id, row.projectId);
  }

  protected async handle({ jobId, projectId }: JobKinds['reindex']): Promise<JobResult> {
    if (!this.running) return { retryInMs: STOPPING_RETRY_MS };
    const { prisma } = this.ctx.db;
    const claimed = await prisma.reindexJob.updateMany({ where: { id: jobId, projectId, status: { in: ['queued', 'processing'] } }, data: { status: 'processing', startedAt: new Date() } });
    if (claimed.count === 0) return; // finished, failed or deleted with its project
    const job = await prisma.reindexJob.findUnique({ where: { id: jobId }, select: { full: true } });
    if (!job) return;
    try {
      let pages = 0;
      for (const deployment of await this.liveDeployments(projectId)) {
        if (!this.running) return { retryInMs: STOPPING_RETRY_MS }; // stays processing: taken again
        const rebuilt = await this.rebuild(this.ctx.deploymentStore.open(deployment.dir), job.full);
        if (!rebuilt) continue;
        const dir = generationDir(jobId);
        await this.ctx.deploymentStore.writeFiles(deployment.dir, new Map([...rebuilt.files].map(([name, body]) => [`${dir}${name}`, body])));
        pages += rebuilt.pages;
      }
      const done = await prisma.reindexJob.updateMany({ where: { id: jobId, status: 'processing' }, data: { status: 'completed', pagesIndexed: pages, finishedAt: new Date() } });
      if (done.count > 0) {
        this.ctx.search.generations.forget(projectId);
        this.ctx.events.emit('search.reindexed', { projectId, jobId });
      }
    } catch (err) {
      this.ctx.log.error({ err, jobId, projectId }, 'reindex failed');
      const message = (err instanceof Error ? err.message : String(err)).slice(0, MAX_ERROR_LENGTH);
      await prisma.reindexJob.updateMany({ where: { id: jobId, status: 'processing' }, data: { status: 'failed', error: message, finishedAt: new Date() } });
    }
  }

  /** The production channel's newest deployment and the newest deployment of every version channel. */
  private async liveDeployments(projectId: string): Promise<{ dir: string }[]> {
    const rows = await this.ctx.db.prisma.deployment.findMany({
      where: { projectId, kind: { in: ['production', 'version'] } },
      orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
      select: { dir: true, kind: true, previewName: true },
    });
    const seen = new Set<string>();
    return rows.filter((r) => {
      const channel = `${r.kind}\0${r.previewName}`;
      if (seen.has(channel)) return false;
      seen.add(channel);
      return true;
    });
  }

}
