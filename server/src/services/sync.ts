/**
 * `sync.push`: the desktop app's outbox applied on the server (decisions.md section 9: mutations
 * with client id and sequence number, applied exactly once, in order; the mutations and conflict
 * rules live in `shared/sync`). Each mutation goes through the same services as the REST routes
 * (reviews.ts, review-comments.ts), as the session's user with their role, so every permission,
 * rule and audit entry is the same.
 *
 * Exactly once, in order, per client (`SyncClient.lastSeq`, `SyncResult` answers; a client id is a UUID,
 * read in any case: sync-ids.ts `syncClientKey`):
 * - `seq <= lastSeq`: already applied; the stored answer is given again (a batch sent again after a
 *   lost answer gets the same answers and changes nothing).
 * - `seq === lastSeq + 1`: applied, then its answer and the new `lastSeq` are recorded in one
 *   transaction (compare-and-set on `lastSeq`, so two pushes of one client never both record).
 * - `seq > lastSeq + 1`: a gap; the batch stops there (the client sends the missing ones first).
 * A crash between applying and recording is made harmless by idempotent application: created
 * reviews and comments get ids derived from (clientId, localId) (sync-ids.ts), so applying again
 * finds the existing row; a status move that finds the review already in the target status, and an
 * update whose fields already hold the given values, count as applied.
 *
 * A mutation refused by a rule (400, 403, 404, 409, 413, 422: permissions, the state machine, the
 * conflict rules of `@quire/shared/sync/conflicts`) is recorded as `{ok: false, code, message}`
 * and the batch goes on: the refusal is final and the desktop shows it on the item. Any other error
 * (the repository unreachable, the database down) stops the batch unrecorded; the client retries.
 */
import { ApiError } from '@quire/shared/errors';
import { checkChangeSet } from '@quire/shared/collab/change-set';
import type { ReviewStatus } from '@quire/shared/collab/review-status';
import type { SyncMutation, SyncMutationResult, SyncPushInput, SyncPushResult } from '@quire/shared/sync/mutations';
import { actionOfStatus, checkReviewAction, endedReviewRefusal, type SyncRefusal } from '@quire/shared/sync/conflicts';
import type { AppContext } from '../context';
import type { RequestAuth } from '../access/request-auth';
import { isUniqueViolation } from '../db/errors';
import { createReview, isDecision, loadReview, updateReview } from './reviews';
import type { ReviewRow } from './review-dto';
import { requireDecisionRight } from './decision-rights';
import { createReviewComment } from './review-comments';
import { resolveSyncRef, syncClientKey, syncDerivedId } from './sync-ids';

type Outcome = { ok: true; result: { reviewId?: string; commentId?: string; status?: string } } | { ok: false; code: string; message: string };

/** HTTP statuses of refusals by a rule: recorded as the mutation's final answer. */
const RULE_STATUSES = new Set([400, 403, 404, 409, 413, 422]);

/** Whether an error is a refusal by a rule (recorded) rather than a failure to retry. */
function isRuleRefusal(err: unknown): err is ApiError {
  return err instanceof ApiError && RULE_STATUSES.has(err.status) && err.code !== 'usage_limit_exceeded';
}

function refused(refusal: SyncRefusal): Outcome {
  return { ok: false, code: refusal.code, message: refusal.message };
}

/**
 * Applies a batch of a client's mutations (see the module comment). A second push of the same
 * client in this process waits for the first (`ctx.locks`, key `sync:<clientId>`); across processes
 * the compare-and-set on `lastSeq` decides.
 * @returns `lastSeq` after the batch and an answer for each mutation up to the first gap, in seq order.
 * @throws ApiError forbidden when the client id belongs to another user (or organization), or the
 *   caller is not a person; conflict when another push of the same client recorded first (retry);
 *   any unexpected error of a mutation (nothing recorded for it).
 */
export async function pushSyncMutations(ctx: AppContext, auth: RequestAuth, input: SyncPushInput): Promise<SyncPushResult> {
  const clientId = syncClientKey(input.clientId);
  return ctx.locks.run(`sync:${clientId}`, () => pushNow(ctx, auth, clientId, input.mutations));
}

/** The client's record (`clientId` as {@link syncClientKey} gives it), created on first use for the caller; another user's client is refused. */
async function claimClient(ctx: AppContext, auth: RequestAuth, clientId: string): Promise<{ lastSeq: number }> {
  if (!auth.userId) throw new ApiError('forbidden', 'Syncing needs a signed-in person.');
  let client = await ctx.db.prisma.syncClient.findUnique({ where: { clientId } });
  if (!client) {
    try {
      client = await ctx.db.prisma.syncClient.create({ data: { clientId, userId: auth.userId, orgId: auth.orgId, lastSeq: 0 } });
    } catch (err) {
      if (!isUniqueViolation(err)) throw err;
      client = await ctx.db.prisma.syncClient.findUniqueOrThrow({ where: { clientId } });
    }
  }
  if (client.userId !== auth.userId || client.orgId !== auth.orgId) {
    throw new ApiError('forbidden', 'This sync client id belongs to another user; a desktop app picks a new one for each person and server.', { field: 'clientId' });
  }
  return client;
}

async function pushNow(ctx: AppContext, auth: RequestAuth, clientId: string, mutations: SyncPushInput['mutations']): Promise<SyncPushResult> {
  let { lastSeq } = await claimClient(ctx, auth, clientId);
  const results: SyncMutationResult[] = [];
  const batch = [...mutations].sort((a, b) => a.seq - b.seq);
  for (const { seq, mutation } of batch) {
    if (seq <= lastSeq) {
      const stored = await ctx.db.prisma.syncResult.findUnique({ where: { clientId_seq: { clientId, seq } } });
      results.push(stored ? { seq, ...(JSON.parse(stored.result) as Outcome) } : { seq, ok: false, code: 'conflict', message: `Mutation ${seq} was applied before; its answer is no longer kept.` });
      continue;
    }
    if (seq > lastSeq + 1) break;
    let outcome: Outcome;
    try {
      outcome = await applyMutation(ctx, auth, clientId, mutation);
    } catch (err) {
      if (!isRuleRefusal(err)) throw err;
      outcome = { ok: false, code: err.code, message: err.message };
    }
    await ctx.db.prisma.$transaction(async (tx) => {
      const { count } = await tx.syncClient.updateMany({ where: { clientId, lastSeq: seq - 1 }, data: { lastSeq: seq } });
      if (count !== 1) throw new ApiError('conflict', 'Another push of this sync client recorded first; send the batch again.');
      await tx.syncResult.create({ data: { clientId, seq, result: JSON.stringify(outcome) } });
    });
    lastSeq = seq;
    results.push({ seq, ...outcome });
  }
  return { lastSeq, results };
}

/** Applies one mutation through the services. @throws ApiError refusals (recorded by the caller) and unexpected errors. */
async function applyMutation(ctx: AppContext, auth: RequestAuth, clientId: string, m: SyncMutation): Promise<Outcome> {
  switch (m.type) {
    case 'review.create': {
      const id = syncDerivedId('review', clientId, m.localId);
      const existing = await ctx.db.prisma.review.findUnique({ where: { id }, select: { projectId: true, status: true } });
      if (existing && existing.projectId === m.projectId) return { ok: true, result: { reviewId: id, status: existing.status } };
      try {
        const review = await createReview(ctx, auth, m.projectId, m.review, { id });
        return { ok: true, result: { reviewId: review.id, status: review.status } };
      } catch (err) {
        if (!isUniqueViolation(err)) throw err;
        const row = await ctx.db.prisma.review.findUniqueOrThrow({ where: { id }, select: { status: true } });
        return { ok: true, result: { reviewId: id, status: row.status } };
      }
    }
    case 'review.update': {
      const reviewId = resolveSyncRef('review', clientId, m.reviewId);
      const loaded = await loadReview(ctx, auth, m.projectId, reviewId);
      if (await alreadyHolds(ctx, loaded.review, loaded.reviewerIds, m.patch)) return { ok: true, result: { reviewId, status: loaded.review.status } };
      const review = await updateReview(ctx, auth, m.projectId, reviewId, m.patch);
      return { ok: true, result: { reviewId, status: review.status } };
    }
    case 'review.setStatus': {
      const reviewId = resolveSyncRef('review', clientId, m.reviewId);
      const { review } = await loadReview(ctx, auth, m.projectId, reviewId);
      // A decision is refused to whoever may not decide, whatever the review's state (no "already applied" answer for them).
      if (isDecision(m.status)) await requireDecisionRight(ctx, auth, 'Reviewing');
      const action = actionOfStatus(m.status);
      if (action) {
        const refusal = checkReviewAction(action, m.revision, await reviewState(ctx, review));
        if (refusal) return refused(refusal);
      }
      if (review.status === m.status) return { ok: true, result: { reviewId, status: m.status } };
      const updated = await updateReview(ctx, auth, m.projectId, reviewId, { status: m.status });
      return { ok: true, result: { reviewId, status: updated.status } };
    }
    case 'review.comment': {
      const reviewId = resolveSyncRef('review', clientId, m.reviewId);
      const commentId = syncDerivedId('reviewComment', clientId, m.localId);
      const { review } = await loadReview(ctx, auth, m.projectId, reviewId);
      const existing = await ctx.db.prisma.reviewComment.findUnique({ where: { id: commentId }, select: { reviewId: true } });
      if (existing && existing.reviewId === reviewId) return { ok: true, result: { reviewId, commentId } };
      const refusal = endedReviewRefusal('comment', await reviewState(ctx, review));
      if (refusal) return refused(refusal);
      const comment = { ...m.comment, ...(m.comment.parentId ? { parentId: resolveSyncRef('reviewComment', clientId, m.comment.parentId) } : {}) };
      try {
        const seen = m.anchorText !== undefined ? { revision: m.revision, anchorText: m.anchorText } : undefined;
        const created = await createReviewComment(ctx, auth, m.projectId, reviewId, comment, { id: commentId, ...(seen ? { seen } : {}) });
        return { ok: true, result: { reviewId, commentId: created.id } };
      } catch (err) {
        if (!isUniqueViolation(err)) throw err;
        return { ok: true, result: { reviewId, commentId } };
      }
    }
  }
}

/**
 * A review's state for the conflict rules: status, revision, and for a merged or closed review who
 * ended it and when (from the audit log: `review.merged`, or the `review.updated` entry that moved it to `closed`).
 */
async function reviewState(
  ctx: AppContext,
  review: ReviewRow,
): Promise<{ status: ReviewStatus; revision: number; endedBy: string | null; endedAt: string | null }> {
  const status = review.status as ReviewStatus;
  const base = { status, revision: review.revision, endedBy: null, endedAt: null };
  if (status !== 'merged' && status !== 'closed') return base;
  const entries = await ctx.db.prisma.auditEntry.findMany({
    where: { resourceType: 'review', resourceId: review.id, action: status === 'merged' ? 'review.merged' : 'review.updated' },
    orderBy: { createdAt: 'desc' },
    take: 20,
    select: { metadata: true, createdAt: true, actor: { select: { name: true } } },
  });
  const entry = entries.find((e) => status === 'merged' || (JSON.parse(e.metadata) as { to?: string }).to === 'closed');
  if (!entry) return { ...base, endedAt: status === 'merged' && review.mergedAt ? review.mergedAt.toISOString() : null };
  return { status, revision: review.revision, endedBy: entry.actor?.name ?? null, endedAt: entry.createdAt.toISOString() };
}

/**
 * Whether a review already holds every field of an update (the update was applied before a crash
 * kept it from being recorded): title, description, the set of reviewers, the base commit and the
 * change set (paths normalised as the service does, contents and their encodings equal).
 */
async function alreadyHolds(
  ctx: AppContext,
  review: ReviewRow,
  reviewerIds: string[],
  patch: Extract<SyncMutation, { type: 'review.update' }>['patch'],
): Promise<boolean> {
  if (patch.title !== undefined && patch.title !== review.title) return false;
  if (patch.description !== undefined && patch.description !== review.description) return false;
  if (patch.reviewers !== undefined && (patch.reviewers.length !== reviewerIds.length || patch.reviewers.some((id) => !reviewerIds.includes(id)))) return false;
  if (patch.baseCommit !== undefined && patch.baseCommit !== review.baseCommit) return false;
  if (patch.changes !== undefined) {
    const checked = checkChangeSet(patch.changes);
    if (!checked.ok) return false;
    const files = await ctx.db.prisma.reviewFile.findMany({ where: { reviewId: review.id }, select: { path: true, content: true, encoding: true } });
    if (files.length !== checked.changes.length) return false;
    const stored = new Map(files.map((f) => [f.path, f]));
    const same = (c: (typeof checked.changes)[number]) => {
      const f = stored.get(c.path);
      return f !== undefined && f.content === c.content && (c.content === null || f.encoding === c.encoding);
    };
    if (!checked.changes.every(same)) return false;
  }
  return true;
}
