/**
 * Runs docs agent runs (decisions.md section 11; services/agent-runs.ts queues them, the work is
 * services/agent-review.ts): the handler of the job queue's `agent` kind, in every process that works jobs.
 *
 * A run is claimed by turning it `running` (from `queued`, or from `running` when a process stopped or
 * died under it: the work finds the review it opened by its id, so taking it again opens nothing
 * twice). It ends `succeeded` (with its review, summary and findings, or as a duplicate of the run
 * that had its head commit) or `failed` with the reason (messages of ApiError are safe to show; other
 * errors are logged and reported as an internal failure).
 *
 * Restarts: on start, queued and running runs are enqueued again (deduplicated by run id); every
 * `sweepMs` queued ones are.
 */
import { ApiError } from '@quire/shared/errors';
import type { AppContext } from '../context';
import type { JobKinds, JobResult } from '../queue/job-queue';
import { enqueueAgentRun } from '../services/agent-runs';
import { performAgentRun } from '../services/agent-review';
import { RowSweepingJobWorker, type SweptRow } from './job-worker';

/** Options of {@link AgentRunner}. */
export interface AgentRunnerOptions {
  /** how often queued runs are enqueued again, in ms (default 30,000) */
  sweepMs?: number;
}

/** Delay before a run this runner got while stopping is offered again, in ms. */
const STOPPING_RETRY_MS = 1_000;
/** Longest error text kept on a failed run. */
const MAX_ERROR_LENGTH = 1_000;

/** See the module comment. One per app (`app.agentRunner`). */
export class AgentRunner extends RowSweepingJobWorker<'agent'> {
  constructor(ctx: AppContext, options: AgentRunnerOptions = {}) {
    super(ctx, 'agent', 'running', 'agent runner: sweeping queued runs', options.sweepMs);
  }

  protected findRows(statuses: string[]): Promise<SweptRow[]> {
    return this.ctx.db.prisma.agentRun.findMany({ where: { status: { in: statuses } }, select: { id: true, projectId: true }, orderBy: { createdAt: 'asc' } });
  }

  protected enqueueRow(row: SweptRow): Promise<void> {
    return enqueueAgentRun(this.ctx, row);
  }

  protected async handle({ runId, projectId }: JobKinds['agent']): Promise<JobResult> {
    if (!this.running) return { retryInMs: STOPPING_RETRY_MS };
    const { prisma } = this.ctx.db;
    const claimed = await prisma.agentRun.updateMany({ where: { id: runId, projectId, status: { in: ['queued', 'running'] } }, data: { status: 'running', startedAt: new Date() } });
    if (claimed.count === 0) return; // finished, or deleted with its project
    const run = await prisma.agentRun.findUnique({ where: { id: runId } });
    if (!run) return;
    try {
      const outcome = await performAgentRun(this.ctx, run);
      await prisma.agentRun.updateMany({
        where: { id: runId, status: 'running' },
        data: {
          status: 'succeeded',
          baseCommit: outcome.baseCommit,
          reviewId: outcome.reviewId,
          duplicateOf: outcome.duplicateOf,
          summary: outcome.summary,
          findings: JSON.stringify(outcome.findings),
          finishedAt: new Date(),
        },
      });
    } catch (err) {
      if (!(err instanceof ApiError) || err.status >= 500) this.ctx.log.error({ err, runId, projectId }, 'docs agent run failed');
      const message = err instanceof ApiError ? err.message : 'The run failed on an internal error (logged).';
      await prisma.agentRun.updateMany({ where: { id: runId, status: 'running' }, data: { status: 'failed', error: message.slice(0, MAX_ERROR_LENGTH), finishedAt: new Date() } });
    }
  }
}
