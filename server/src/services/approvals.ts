/**
 * Approvals (decisions.md section 9; interface-spec.md "Collaboration", `/approvals`): a build that
 * deploys to the production host (a production build, or a documentation version build served under
 * `/<label>/` of the production site) whose changed paths match approval gates
 * (services/approval-gates.ts), or for which an approval was requested by hand, pauses after
 * rendering and before its deploy step: the build stays `building` with `step:
 * "waiting_for_approval"`, holding no worker; its output stays published but not live. Distinct
 * eligible people approve (never the change's author); once enough have, an `approval` job
 * (queue/job-queue.ts) deploys it in whichever process works jobs; one rejection fails it with the
 * reason. The moves are decided by shared/src/collab/approval-status.ts.
 *
 * Who may decide: the one rule of deciding (services/decision-rights.ts: a person whose current
 * organization role is reviewer or above; an API key also needs `projects:write`); when the matched
 * gates name eligible users or roles, only those listed (or holding a listed role) in at least one
 * of them approve (the change's author may still reject their own). Reads need `projects:read`.
 * Every decision is audited (`approval.approved` for each approval, `approval.rejected`).
 */
import { ApiError } from '@quire/shared/errors';
import { newId } from '@quire/shared/ids';
import type { Role } from '@quire/shared/api/members';
import type { CreateApprovalBody, ListApprovalsFilters } from '@quire/shared/api/approvals';
import { approvalStatusAfter, checkApprovalMove, type ApprovalAction, type ApprovalStatus } from '@quire/shared/collab/approval-status';
import type { AppContext } from '../context';
import type { Models } from '../db/client';
import { lockKey } from '../db/locks';
import type { RequestAuth } from '../access/request-auth';
import type { PageRequest } from '@quire/shared/api/common';
import { changedPaths, listFiles } from '../git/repo-reader';
import { recordAudit } from './audit';
import { requireDecisionRight } from './decision-rights';
import { matchApprovalGates, toGateRecord, type GateRecord } from './approval-gates';
import { getProjectForCaller } from './projects';
import { parseStringList } from '../db/json-columns';
import { recordApprovalUpdatedEvent } from './webhook-events';


/** `Build.step` of a build paused before its deploy step until its approval is decided. */
export const WAITING_FOR_APPROVAL = 'waiting_for_approval';

/** The reason recorded when a waiting build is cancelled (its approval is closed as rejected). */
export const CANCELLED_REASON = 'The build was cancelled while it waited for approval.';


type ApprovalRow = Models.ApprovalModel & { decisions: Models.ApprovalDecisionModel[] };

/** A stored JSON `string[]` column; an unreadable one counts as empty. */
const parseList = (json: string): string[] => parseStringList(json) ?? [];

/**
 * A project's approvals, newest first, optionally of one `status`.
 * @throws ApiError not_found (project unknown or not the caller's).
 */
export async function listApprovals(
  ctx: AppContext,
  auth: RequestAuth,
  projectId: string,
  filters: ListApprovalsFilters,
  page: PageRequest,
): Promise<{ items: ApprovalRow[]; total: number }> {
  await getProjectForCaller(ctx, auth, projectId);
  const where = { projectId, ...(filters.status ? { status: filters.status } : {}) };
  const [items, total] = await Promise.all([
    ctx.db.prisma.approval.findMany({ where, include: { decisions: true }, orderBy: [{ createdAt: 'desc' }, { id: 'desc' }], skip: page.skip, take: page.take }),
    ctx.db.prisma.approval.count({ where }),
  ]);
  return { items, total };
}

/** One approval. @throws ApiError not_found (project or approval unknown, or not the caller's). */
export async function getApproval(ctx: AppContext, auth: RequestAuth, projectId: string, approvalId: string): Promise<ApprovalRow> {
  await getProjectForCaller(ctx, auth, projectId);
  const row = await ctx.db.prisma.approval.findUnique({ where: { id: approvalId }, include: { decisions: true } });
  if (!row || row.projectId !== projectId) throw new ApiError('not_found', `No approval ${approvalId} in this project.`);
  return row;
}

/** The change's author: the review's author when the build deploys a review's merge, else whoever started the build. */
async function authorOf(ctx: AppContext, build: Pick<Models.BuildModel, 'reviewId' | 'createdById'>): Promise<string | null> {
  if (build.reviewId) {
    const review = await ctx.db.prisma.review.findUnique({ where: { id: build.reviewId }, select: { authorId: true } });
    if (review?.authorId) return review.authorId;
  }
  return build.createdById;
}

/**
 * Requests an approval by hand (`POST /approvals`): the queued or building production (or version)
 * build waits before its deploy step like a gated one, for `requiredApprovals` (default 1) distinct approvals.
 * A build already past its deploy check when this arrives is not stopped (it deploys). Audited as
 * `approval.requested`.
 * @throws ApiError not_found (project or build unknown); invalid_request (field `buildId`) for a
 *   preview build; conflict when the build already ended or already has an approval.
 */
export async function requestApproval(ctx: AppContext, auth: RequestAuth, projectId: string, body: CreateApprovalBody): Promise<ApprovalRow> {
  await getProjectForCaller(ctx, auth, projectId);
  const build = await ctx.db.prisma.build.findUnique({ where: { id: body.buildId } });
  if (!build || build.projectId !== projectId) throw new ApiError('not_found', `No build ${body.buildId} in this project.`);
  if (build.isPreview) {
    throw new ApiError('invalid_request', `Build ${build.id} is a preview; only deploys to the production site wait for approval.`, { field: 'buildId', issue: 'is a preview build' });
  }
  if (build.status !== 'queued' && build.status !== 'building') throw new ApiError('conflict', `Build ${build.id} is already ${build.status}; only a queued or building build can wait for approval.`);
  const authorId = await authorOf(ctx, build);
  try {
    return await ctx.db.prisma.$transaction(async (tx) => {
      const row = await tx.approval.create({
        data: { id: newId('approval'), projectId, buildId: build.id, status: 'pending', gateIds: '[]', paths: '[]', requiredApprovals: body.requiredApprovals ?? 1, authorId },
        include: { decisions: true },
      });
      await recordAudit(tx, { orgId: auth.orgId, projectId, auth, action: 'approval.requested', resource: { type: 'approval', id: row.id }, metadata: { buildId: build.id, requiredApprovals: row.requiredApprovals } });
      return row;
    });
  } catch (err) {
    if ((err as { code?: string }).code === 'P2002') throw new ApiError('conflict', `Build ${build.id} already has an approval.`, { buildId: build.id });
    throw err;
  }
}

/**
 * Whether gates `gates` let person `userId`, whose current role is `role` (one that may decide:
 * {@link requireDecisionRight}), approve: any such person when no gate lists users or roles, else only
 * those listed (or holding a listed role) in at least one of them.
 */
function gatesAdmit(gates: GateRecord[], userId: string, role: Role): boolean {
  const listing = gates.filter((g) => g.eligibleUsers.length > 0 || g.eligibleRoles.length > 0);
  return listing.length === 0 || listing.some((g) => g.eligibleUsers.includes(userId) || g.eligibleRoles.includes(role));
}

/**
 * Approves or rejects (`POST /approvals/{id}/approve|reject`). An approval that reaches its required
 * count becomes `approved`; a rejection makes it `rejected`; either way an `approval` job then
 * finishes the waiting build (deploys it, or fails it with the reason). Audited as
 * `approval.approved` / `approval.rejected` in the same transaction.
 * @param note the approver's comment, or the rejection's reason (required for `reject`).
 * @throws ApiError not_found; forbidden (a caller who may not decide: {@link requireDecisionRight};
 *   the author approving; a person the gates do not list); conflict (a decided approval, naming
 *   both states; a second approval by the same person).
 */
export async function decideApproval(
  ctx: AppContext,
  auth: RequestAuth,
  projectId: string,
  approvalId: string,
  action: Exclude<ApprovalAction, 'close'>,
  note?: string,
): Promise<ApprovalRow> {
  const current = await getApproval(ctx, auth, projectId, approvalId);
  const role = await requireDecisionRight(ctx, auth, action === 'approve' ? 'Approving a deploy' : 'Rejecting a deploy');
  const gates = (await ctx.db.prisma.approvalGate.findMany({ where: { id: { in: parseList(current.gateIds) } } })).map(toGateRecord);
  const eligible = gatesAdmit(gates, auth.userId!, role);
  const decided = await ctx.db.prisma.$transaction(async (tx) => {
    await lockKey(tx, ctx.db.provider, `approval:${approvalId}`);
    const row = await tx.approval.findUniqueOrThrow({ where: { id: approvalId }, include: { decisions: true } });
    const refusal = checkApprovalMove(row.status as ApprovalStatus, action, {
      isAuthor: auth.userId !== null && row.authorId === auth.userId,
      isEligible: eligible,
      hasApproved: row.decisions.some((d) => d.userId === auth.userId && d.decision === 'approve'),
    });
    if (refusal) throw new ApiError(refusal.code, refusal.message, { status: row.status });
    const userId = auth.userId!;
    const now = new Date();
    await tx.approvalDecision.upsert({
      where: { approvalId_userId: { approvalId, userId } },
      create: { approvalId, userId, decision: action, reason: note ?? null, createdAt: now },
      update: { decision: action, reason: note ?? null, createdAt: now },
    });
    const approvals = row.decisions.filter((d) => d.decision === 'approve' && d.userId !== userId).length + (action === 'approve' ? 1 : 0);
    const status = approvalStatusAfter(action, approvals, row.requiredApprovals);
    if (status !== 'pending') {
      await tx.approval.update({ where: { id: approvalId }, data: { status, decidedAt: now, ...(action === 'reject' ? { reason: note ?? null } : {}) } });
    }
    await recordAudit(tx, {
      orgId: auth.orgId,
      projectId,
      auth,
      action: action === 'approve' ? 'approval.approved' : 'approval.rejected',
      resource: { type: 'approval', id: approvalId },
      metadata: { buildId: row.buildId, status, approvals, requiredApprovals: row.requiredApprovals, ...(action === 'reject' ? { reason: note } : {}) },
    });
    return tx.approval.findUniqueOrThrow({ where: { id: approvalId }, include: { decisions: true } });
  });
  if (decided.status !== 'pending') await enqueueApprovalJob(ctx, decided);
  await recordApprovalUpdatedEvent(ctx, { id: decided.id });
  return decided;
}

/** Enqueues the job that finishes a decided approval's build (errors logged: the runner's sweep enqueues it again). */
export async function enqueueApprovalJob(ctx: AppContext, row: Pick<Models.ApprovalModel, 'id' | 'buildId' | 'projectId'>): Promise<void> {
  await ctx.jobs
    .enqueue('approval', { approvalId: row.id, buildId: row.buildId, projectId: row.projectId }, { jobId: row.id })
    .catch((err: unknown) => ctx.log.error({ err, approvalId: row.id }, 'enqueuing an approval job failed; the build runner will pick it up from the database'));
}

/**
 * The deployment channel a non-preview build deploys to: production, or its documentation
 * version's channel (`kind: version`, `previewName`: the label; versions/version-builds.ts).
 */
export function channelOf(build: Pick<Models.BuildModel, 'version'>): { kind: 'production' | 'version'; previewName: string } {
  return build.version ? { kind: 'version', previewName: build.version } : { kind: 'production', previewName: '' };
}

/** What the deploy check of a production or version build decided (see {@link checkDeployGates}). */
export type GateDecision = { kind: 'deploy' } | { kind: 'wait'; approvalId: string; gates: GateRecord[]; paths: string[]; requiredApprovals: number } | { kind: 'rejected'; reason: string };

/**
 * The deploy check of a build that reaches the production host (build runner, after rendering and
 * before the deploy step): a production build, or a documentation version build, served under
 * `/<label>/` of the same site. The paths changed between the commit its channel now serves (the
 * production deployment, or the version's own latest deployment) and `commitSha` (every file of
 * `commitSha` on the channel's first deploy) are matched against the project's gates; with a match,
 * or an approval requested by hand, a pending approval is written (gates, matched paths, the
 * largest required count, the change's author) and the build gets `step: waiting_for_approval`, in
 * one transaction. An approval decided already is followed.
 * @returns `deploy` (no gate matched, or approved already), `wait` (the build now waits; the
 *   caller leaves it `building`), or `rejected` with the reason.
 * @throws Error when the changed paths cannot be read (the build then fails rather than deploying unchecked).
 */
export async function checkDeployGates(
  ctx: AppContext,
  build: Pick<Models.BuildModel, 'id' | 'projectId' | 'reviewId' | 'createdById' | 'version'>,
  repoUrl: string,
  commit: { sha: string; message: string },
): Promise<GateDecision> {
  const prisma = ctx.db.prisma;
  const existing = await prisma.approval.findUnique({ where: { buildId: build.id } });
  if (existing?.status === 'approved') return { kind: 'deploy' };
  if (existing?.status === 'rejected') return { kind: 'rejected', reason: existing.reason ?? 'The deploy was rejected.' };
  const gateCount = await prisma.approvalGate.count({ where: { projectId: build.projectId } });
  let match = null;
  if (gateCount > 0) {
    const served = await prisma.deployment.findFirst({
      where: { projectId: build.projectId, ...channelOf(build) },
      orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
      select: { build: { select: { commitSha: true } } },
    });
    const repo = { projectId: build.projectId, repoUrl };
    const fromSha = served?.build.commitSha ?? null;
    const changed = fromSha
      ? fromSha === commit.sha
        ? []
        : (await changedPaths(ctx, repo, fromSha, commit.sha)).map((c) => c.path)
      : (await listFiles(ctx, repo, commit.sha)).map((f) => f.path);
    match = await matchApprovalGates(prisma, build.projectId, changed);
  }
  if (!match && !existing) return { kind: 'deploy' };
  const authorId = existing?.authorId ?? (await authorOf(ctx, build));
  const gates = match?.gates ?? [];
  const paths = match?.paths ?? [];
  const requiredApprovals = Math.max(match?.requiredApprovals ?? 1, existing?.requiredApprovals ?? 1);
  const approvalId = await prisma.$transaction(async (tx) => {
    await lockKey(tx, ctx.db.provider, `approval-build:${build.id}`);
    const data = { gateIds: JSON.stringify(gates.map((g) => g.id)), paths: JSON.stringify(paths), requiredApprovals };
    const row = existing
      ? await tx.approval.update({ where: { id: existing.id }, data })
      : await tx.approval.create({ data: { id: newId('approval'), projectId: build.projectId, buildId: build.id, status: 'pending', authorId, ...data } });
    const { count } = await tx.build.updateMany({
      where: { id: build.id, status: 'building', cancelRequested: false },
      data: { step: WAITING_FOR_APPROVAL, commitSha: commit.sha, commitMessage: commit.message },
    });
    return count === 1 ? row.id : null;
  });
  if (!approvalId) return { kind: 'deploy' }; // cancelled meanwhile: the runner's deploy finds it no longer building
  // Decided while this ran (a hand-requested approval): its job finishes the build.
  const now = await prisma.approval.findUnique({ where: { id: approvalId } });
  if (now && now.status !== 'pending') await enqueueApprovalJob(ctx, now);
  return { kind: 'wait', approvalId, gates, paths, requiredApprovals };
}

/**
 * Closes the pending approval of a build that ended without deploying (cancelled, or failed
 * before its deploy check) as `rejected` with `reason` (default {@link CANCELLED_REASON}): the
 * system's `close` move, no person decided it. Nothing happens when it has none pending.
 */
export async function closeApprovalOfBuild(ctx: AppContext, buildId: string, reason = CANCELLED_REASON): Promise<void> {
  const { count } = await ctx.db.prisma.approval.updateMany({ where: { buildId, status: 'pending' }, data: { status: 'rejected', reason, decidedAt: new Date() } });
  if (count > 0) await recordApprovalUpdatedEvent(ctx, { buildId });
}
