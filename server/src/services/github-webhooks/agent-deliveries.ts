/**
 * Docs agent runs started by GitHub deliveries (decisions.md section 11: "A push/pull_request
 * delivery from a listed source repo triggers a run"): the projects that list the delivery's
 * repository in `settings.sourceRepos` (any URL form: repo-identity.ts) get a run of
 * services/agent-runs.ts, one per (repository, head commit), so a redelivery opens nothing new.
 *
 * | event | condition | run |
 * |---|---|---|
 * | push | to the source's `branch`, `before` and `after` full commit ids (not a new or deleted branch) | `before`..`after` |
 * | pull_request | `opened`, `synchronize`, `reopened` | `base.sha` (else `base.ref`, else the source's branch)..`head.sha` |
 * | anything else | - | none |
 *
 * Trust: the repository webhook's delivery counts only for projects whose `webhookSecret` signed it;
 * the app receiver's (its one secret verified) for every listing project. Over the organization's
 * agent rate a run is skipped and logged, never failing the delivery. What happened for each project
 * is returned ({@link AgentDeliveryRun}) for the delivery's record in that project's debug list.
 */
import type { GithubRepository } from '@quire/shared/api/git-webhooks';
import type { SourceRepo } from '@quire/shared/api/source-repos';
import { ApiError } from '@quire/shared/errors';
import { checkCommitSha } from '@quire/shared/repo/git-ref';
import { repoIdentity } from '@quire/shared/repo/repo-identity';
import type { AppContext } from '../../context';
import { queueAgentRun } from '../agent-runs';
import { toProjectRecord, type ProjectRecord } from '../projects';
import type { GitEvent } from './payload';
import { repositoryIdentities } from './repository-projects';

const PR_RUN_ACTIONS = new Set(['opened', 'synchronize', 'reopened']);
const BRANCH_PREFIX = 'refs/heads/';

/** The refs a delivery asks the agent to compare for `source`, or null when it asks for nothing. */
export function agentRefsOf(event: GitEvent, source: Pick<SourceRepo, 'branch'>): { baseRef: string; headRef: string; trigger: 'push' | 'pull_request' } | null {
  if (event.kind === 'push') {
    const { ref, before, after, deleted } = event.payload;
    if (ref !== `${BRANCH_PREFIX}${source.branch}` || deleted === true) return null;
    const [base, head] = [before.toLowerCase(), after.toLowerCase()];
    if (!checkCommitSha(base).ok || !checkCommitSha(head).ok || /^0+$/.test(base) || /^0+$/.test(head)) return null;
    return { baseRef: base, headRef: head, trigger: 'push' };
  }
  if (event.kind === 'pull_request') {
    const { action, pull_request: pr } = event.payload;
    const head = pr.head.sha.toLowerCase();
    if (!PR_RUN_ACTIONS.has(action) || !checkCommitSha(head).ok) return null;
    const baseSha = pr.base?.sha.toLowerCase();
    const baseRef = baseSha && checkCommitSha(baseSha).ok ? baseSha : (pr.base?.ref ?? source.branch);
    return { baseRef, headRef: head, trigger: 'pull_request' };
  }
  return null;
}

/**
 * Projects listing `repository` among their source repositories, with the entry. The database
 * narrows to settings containing the repository's name (case-insensitively); the identity rule decides.
 */
async function projectsWatching(ctx: AppContext, repository: GithubRepository): Promise<Array<{ project: ProjectRecord; source: SourceRepo }>> {
  const identities = repositoryIdentities(repository);
  if (identities.size === 0) return [];
  const names = new Set([...identities].map((id) => id.slice(id.lastIndexOf('/') + 1)));
  const ids = new Set<string>();
  for (const name of names) {
    const pattern = `%${name.replaceAll('\\', '_')}%`;
    const rows = await ctx.db.prisma.$queryRaw<{ id: string }[]>`SELECT "id" FROM "Project" WHERE lower("settings") LIKE ${pattern}`;
    for (const r of rows) ids.add(r.id);
  }
  if (ids.size === 0) return [];
  const rows = await ctx.db.prisma.project.findMany({ where: { id: { in: [...ids] } }, orderBy: [{ createdAt: 'asc' }, { id: 'asc' }] });
  return rows.flatMap((row) => {
    const project = toProjectRecord(row);
    const source = project.settings.sourceRepos.find((s) => identities.has(repoIdentity(s.url) ?? ''));
    return source ? [{ project, source }] : [];
  });
}

/** What a delivery did for one project listing its repository: a run started or found, or skipped (over the agent rate). */
export interface AgentDeliveryRun {
  projectId: string;
  /** the run started, or the earlier run of the same head commit; null when skipped */
  runId: string | null;
  /** true: a new run was queued */
  created: boolean;
}

/** The delivery-record detail for {@link AgentDeliveryRun} (after the event's name), e.g. `docs agent run run_… started for project prj_…`. */
export function agentRunDetail(run: AgentDeliveryRun): string {
  if (run.runId === null) return `docs agent run skipped for project ${run.projectId}: the organization is over its agent rate`;
  if (run.created) return `docs agent run ${run.runId} started for project ${run.projectId}`;
  return `docs agent run ${run.runId} of project ${run.projectId} already covers this head commit; nothing new started`;
}

/**
 * Starts the runs a verified delivery asks for (see the module comment).
 * @param secret the project webhook secret that signed the delivery; null for the app receiver.
 * @returns per project that got a run (new, found, or skipped over the rate), in project creation order.
 */
export async function startAgentRuns(
  ctx: AppContext,
  event: GitEvent,
  repository: GithubRepository | null,
  secret: string | null,
  deliveryId: string,
): Promise<AgentDeliveryRun[]> {
  if (!repository || (event.kind !== 'push' && event.kind !== 'pull_request')) return [];
  const runs: AgentDeliveryRun[] = [];
  for (const { project, source } of await projectsWatching(ctx, repository)) {
    if (secret !== null && project.webhookSecret !== secret) continue;
    const refs = agentRefsOf(event, source);
    if (!refs) continue;
    try {
      const { run, created } = await queueAgentRun(ctx, { project, source, ...refs, deliveryId, auth: null });
      runs.push({ projectId: project.id, runId: run.id, created });
    } catch (err) {
      if (!(err instanceof ApiError && err.code === 'rate_limited')) throw err;
      ctx.log.warn({ projectId: project.id, deliveryId }, 'docs agent run skipped: the organization is over its agent rate');
      runs.push({ projectId: project.id, runId: null, created: false });
    }
  }
  return runs;
}
