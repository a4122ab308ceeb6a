/**
 * Runs of the docs agent (decisions.md section 11, "Docs agent"): asked for through
 * `POST /v1/projects/{id}/agent/runs` or started by a push or pull request delivery from a source
 * repository the project lists in `settings.sourceRepos` (github-webhooks/agent-deliveries.ts), done
 * by the `agent` job (jobs/agent-runner.ts, the work in agent-review.ts).
 *
 * - One run per (project, repository, head commit): the unique index of `AgentRun`. A head given as
 *   a commit id finds an existing run at once (that run is answered, nothing new is queued); a head
 *   given as a branch is resolved by the job, which marks its run a duplicate of the first one.
 * - Rate-limited per organization by plan ({@link agentRunsPerMinute}: a twentieth of the plan's
 *   request rate per minute, at least 1), counted in `ctx.rateLimits` like every other limit. Only
 *   runs that are created count: asking again for a head commit already run answers that run and
 *   uses none of the allowance.
 * - Audited as `agent_run.created` (actor: the caller; none for deliveries).
 */
import { ApiError, invalidField } from '@quire/shared/errors';
import { newId } from '@quire/shared/ids';
import type { AgentFinding, AgentRun, AgentRunStatus, AgentRunTrigger, CreateAgentRunBody } from '@quire/shared/api/agent-runs';
import type { SourceRepo } from '@quire/shared/api/source-repos';
import { COMMIT_SHA_PATTERN } from '@quire/shared/repo/git-ref';
import { repoIdentity, sameRepository } from '@quire/shared/repo/repo-identity';
import type { AppContext } from '../context';
import type { RequestAuth } from '../access/request-auth';
import type { Models } from '../db/client';
import { isUniqueViolation } from '../db/errors';
import { recordAudit } from './audit';
import { planLimits } from './organizations';
import { getProjectForCaller, type ProjectRecord } from './projects';
import { rateLimitedError } from './rate-limiter';

/** A stored run. */
export type AgentRunRow = Models.AgentRunModel;

/** Share of the plan's request rate (per minute) that agent runs may use: one twentieth. */
const RUN_RATE_SHARE = 20;

/** Agent runs an organization may start per minute: its plan's request rate / {@link RUN_RATE_SHARE}, at least 1 (free 5, pro 50). */
export function agentRunsPerMinute(rateLimit: number): number {
  return Math.max(1, Math.floor(rateLimit / RUN_RATE_SHARE));
}

/** The REST form of a run. */
export function toAgentRunDto(row: AgentRunRow): AgentRun {
  return {
    id: row.id,
    status: row.status as AgentRunStatus,
    trigger: row.trigger as AgentRunTrigger,
    repoUrl: row.repoUrl,
    baseRef: row.baseRef,
    headRef: row.headRef,
    baseCommit: row.baseCommit,
    headCommit: row.headCommit,
    reviewId: row.reviewId,
    duplicateOf: row.duplicateOf,
    summary: row.summary,
    findings: JSON.parse(row.findings) as AgentFinding[],
    error: row.error,
    createdAt: row.createdAt.toISOString(),
    startedAt: row.startedAt?.toISOString() ?? null,
    finishedAt: row.finishedAt?.toISOString() ?? null,
  };
}

/**
 * The source repository of `project` that `url` names (any URL form of it: repo-identity.ts; a local
 * repository, which has no identity, by its exact URL or path), if listed.
 */
export function sourceRepoOf(project: ProjectRecord, url: string): SourceRepo | undefined {
  return project.settings.sourceRepos.find((r) => r.url === url || sameRepository(r.url, url));
}

/** What {@link queueAgentRun} needs. */
export interface AgentRunRequest {
  project: Pick<ProjectRecord, 'id' | 'orgId'>;
  source: SourceRepo;
  baseRef: string;
  headRef: string;
  trigger: AgentRunTrigger;
  deliveryId?: string;
  /** the caller (audit actor, `requestedById`); null for deliveries */
  auth: RequestAuth | null;
}

/**
 * Counts one run against the organization's agent limit.
 * @throws ApiError rate_limited (429, `Retry-After`) past {@link agentRunsPerMinute}.
 */
async function checkAgentRunRate(ctx: AppContext, orgId: string): Promise<void> {
  const org = await ctx.db.prisma.organization.findUniqueOrThrow({ where: { id: orgId } });
  const state = await ctx.rateLimits.hit(`agent:${orgId}`, agentRunsPerMinute(planLimits(org, ctx.config).rateLimit));
  if (state.exceeded) throw rateLimitedError(state, 'docs agent runs');
}

/**
 * Stores a queued run and enqueues its job, or finds the run of the same head commit. Only a run
 * about to be created counts against the organization's agent rate (a found one is answered first).
 * @returns the run, and whether it is new (false: an earlier run of this head commit; nothing queued).
 * @throws ApiError rate_limited (429, `Retry-After`) when a new run would pass {@link agentRunsPerMinute}; nothing stored.
 */
export async function queueAgentRun(ctx: AppContext, input: AgentRunRequest): Promise<{ run: AgentRunRow; created: boolean }> {
  const repoKey = repoIdentity(input.source.url) ?? input.source.url;
  const projectId = input.project.id;
  const asCommit = (ref: string) => (COMMIT_SHA_PATTERN.test(ref) ? ref : null);
  const headCommit = asCommit(input.headRef);
  const existing = async () =>
    headCommit ? ctx.db.prisma.agentRun.findUnique({ where: { projectId_repoKey_headCommit: { projectId, repoKey, headCommit } } }) : null;
  const found = await existing();
  if (found) return { run: found, created: false };
  await checkAgentRunRate(ctx, input.project.orgId);
  const id = newId('agentRun');
  let run: AgentRunRow;
  try {
    run = await ctx.db.prisma.$transaction(async (tx) => {
      const row = await tx.agentRun.create({
        data: {
          id,
          projectId,
          repoKey,
          repoUrl: input.source.url,
          baseRef: input.baseRef,
          headRef: input.headRef,
          baseCommit: asCommit(input.baseRef),
          headCommit,
          trigger: input.trigger,
          deliveryId: input.deliveryId ?? null,
          status: 'queued',
          requestedById: input.auth?.userId ?? null,
        },
      });
      await recordAudit(tx, {
        orgId: input.project.orgId,
        projectId,
        auth: input.auth,
        action: 'agent_run.created',
        resource: { type: 'agent_run', id },
        metadata: {
          repoUrl: input.source.url,
          baseRef: input.baseRef,
          headRef: input.headRef,
          trigger: input.trigger,
          ...(input.deliveryId ? { deliveryId: input.deliveryId } : {}),
        },
      });
      return row;
    });
  } catch (err) {
    if (!isUniqueViolation(err)) throw err;
    // A concurrent copy of the same delivery stored its run first.
    const other = await existing();
    if (!other) throw err;
    return { run: other, created: false };
  }
  await enqueueAgentRun(ctx, run);
  return { run, created: true };
}

/** Enqueues the job of a run (deduplicated by the run id while it waits or runs). */
export async function enqueueAgentRun(ctx: AppContext, run: Pick<AgentRunRow, 'id' | 'projectId'>): Promise<void> {
  await ctx.jobs.enqueue('agent', { runId: run.id, projectId: run.projectId }, { jobId: run.id });
}

/**
 * `POST /v1/projects/{projectId}/agent/runs`: a run comparing `baseRef` and `headRef` of a listed
 * source repository (202). A head commit already run answers that run again and queues nothing.
 * @throws ApiError not_found (project); forbidden (no `projects:write`, checked by the route);
 *   invalid_request (field `repoUrl`: not in `settings.sourceRepos`); rate_limited when a new run would pass the plan's agent rate.
 */
export async function createAgentRun(
  ctx: AppContext,
  auth: RequestAuth,
  projectId: string,
  body: CreateAgentRunBody,
): Promise<{ run: AgentRun; created: boolean }> {
  const project = await getProjectForCaller(ctx, auth, projectId);
  const source = sourceRepoOf(project, body.repoUrl);
  if (!source) {
    throw invalidField('repoUrl', "is not one of the project's source repositories", "repoUrl names no repository of the project's settings.sourceRepos; add it there first (PATCH /v1/projects/{projectId}).");
  }
  const { run, created } = await queueAgentRun(ctx, { project, source, baseRef: body.baseRef, headRef: body.headRef, trigger: 'api', auth });
  return { run: toAgentRunDto(run), created };
}

/**
 * `GET /v1/projects/{projectId}/agent/runs/{runId}`.
 * @throws ApiError not_found for an unknown run, or one of another project (or organization).
 */
export async function getAgentRun(ctx: AppContext, auth: RequestAuth, projectId: string, runId: string): Promise<AgentRun> {
  await getProjectForCaller(ctx, auth, projectId);
  const row = await ctx.db.prisma.agentRun.findUnique({ where: { id: runId } });
  if (!row || row.projectId !== projectId) throw new ApiError('not_found', `No agent run ${runId} in this project.`);
  return toAgentRunDto(row);
}
