/**
 * Comments of a review (decisions.md section 9: `{path, lineStart, lineEnd, body, parentId?}`,
 * anchored to a revision, `outdated` once those lines change). A comment is written on lines of a
 * file in the review's current revision (the change set's content, or the base commit's file) and
 * keeps their text (`anchorText`); it is `outdated` when, in a later revision, the same lines read
 * otherwise or the file is gone, as GitHub shows it. An answer joins its parent's thread (an answer to
 * an answer joins the same thread). Listing needs read access; commenting is reviewing
 * (services/reviews.ts `requireReviewAccess`). Audited as `review_comment.created`.
 */
import { ApiError, invalidField } from '@quire/shared/errors';
import { newId } from '@quire/shared/ids';
import type { CreateReviewCommentBody, ReviewComment, ReviewPerson } from '@quire/shared/api/reviews';
import { normaliseChangePath } from '@quire/shared/collab/change-set';
import { isCommentOutdated, linesOf } from '@quire/shared/sync/conflicts';
import type { AppContext } from '../context';
import type { Models } from '../db/client';
import { nextStamp } from '../db/stamps';
import type { RequestAuth } from '../access/request-auth';
import { recordAudit } from './audit';
import { isBinaryReviewFile, loadReview, requireReviewAccess, reviewFileText, type LoadedReview } from './reviews';
import { recordReviewUpdatedEvent } from './webhook-events';
import { mentionsByComment, mentionsIn, storeMentions } from './review-mentions';

type CommentRow = Models.ReviewCommentModel;

function toDto(row: CommentRow, people: Map<string, ReviewPerson>, outdated: boolean, mentions: readonly string[]): ReviewComment {
  return {
    id: row.id,
    reviewId: row.reviewId,
    parentId: row.parentId,
    path: row.path,
    lineStart: row.lineStart,
    lineEnd: row.lineEnd,
    revision: row.revision,
    body: row.body,
    author: (row.authorId && people.get(row.authorId)) || null,
    outdated,
    resolved: row.resolvedAt !== null,
    resolvedBy: (row.resolvedById && people.get(row.resolvedById)) || null,
    suggestion:
      row.suggestionText !== null && row.lineStart !== null && row.lineEnd !== null
        ? {
            lines: { start: row.lineStart, end: row.lineEnd },
            text: row.suggestionText,
            applied: row.appliedAt !== null,
            appliedAt: row.appliedAt?.toISOString() ?? null,
            original: row.anchorText,
          }
        : null,
    mentions: mentions.map((id) => people.get(id)).filter((p): p is ReviewPerson => p !== undefined),
    createdAt: row.createdAt.toISOString(),
  };
}

/** Whether a stored comment is outdated against `text`, the current text of its file (review-level comments and applied suggestions never are). */
function outdatedAgainst(row: CommentRow, text: string | null): boolean {
  // an applied suggestion changed its own lines: it is done, not outdated
  if (row.appliedAt !== null) return false;
  if (row.path === null || row.lineStart === null || row.lineEnd === null || row.anchorText === null) return false;
  return isCommentOutdated(row.anchorText, text, row.lineStart, row.lineEnd);
}

async function people(ctx: AppContext, rows: CommentRow[], mentioned: Iterable<string> = []): Promise<Map<string, ReviewPerson>> {
  const ids = [...new Set([...rows.flatMap((r) => [r.authorId, r.resolvedById]), ...mentioned].filter((id): id is string => id !== null))];
  if (ids.length === 0) return new Map();
  const users = await ctx.db.prisma.user.findMany({ where: { id: { in: ids } }, select: { id: true, name: true, email: true } });
  return new Map(users.map((u) => [u.id, u]));
}

/**
 * Every comment of a review, oldest first (threads: a comment with `parentId` null and its
 * answers), each with `outdated` against the current revision. Not paginated.
 * @throws ApiError not_found for an unknown or foreign review; service_unavailable when the repository cannot be read.
 */
export async function listReviewComments(ctx: AppContext, auth: RequestAuth, projectId: string, reviewId: string): Promise<ReviewComment[]> {
  const { project, review } = await loadReview(ctx, auth, projectId, reviewId);
  const rows = await ctx.db.prisma.reviewComment.findMany({ where: { reviewId }, orderBy: [{ createdAt: 'asc' }, { id: 'asc' }] });
  const texts = new Map<string, string | null>();
  for (const path of new Set(rows.filter((r) => r.revision !== review.revision && r.path !== null).map((r) => r.path!))) {
    texts.set(path, await reviewFileText(ctx, project, review, path));
  }
  const mentions = await mentionsByComment(ctx.db.prisma, reviewId);
  const persons = await people(ctx, rows, [...mentions.values()].flat());
  return rows.map((r) =>
    toDto(r, persons, r.revision !== review.revision && r.path !== null && outdatedAgainst(r, texts.get(r.path) ?? null), mentions.get(r.id) ?? []),
  );
}

/**
 * Adds a comment (201), audited as `review_comment.created`: on lines of a file of the review's
 * current revision, or review-level (no path and no lines). `parentId` answers a comment of the same
 * review; an answer without a path takes its thread's anchor. `suggestion` (on lines) proposes their
 * replacement text, kept with the lines as they read now so that applying it later can tell whether
 * they changed (review-suggestions.ts). Members the body mentions (`@email`, `@display name`;
 * shared/src/collab/mentions.ts) are stored with it (review-mentions.ts) and listed in `mentions`.
 * @throws ApiError not_found (review, or `parentId` not a comment of it); forbidden (neither
 *   `projects:write` nor the author or a requested reviewer); invalid_request (a bad path, a file
 *   the revision does not have, lines past its end, a suggestion on an answer); conflict on a merged review.
 * @param options.id the new comment's id, chosen by the caller (the desktop sync derives it from the
 *   client's own id so a re-applied mutation finds its comment; services/sync.ts); default a new random id.
 * @param options.seen a comment written offline on an older revision (the desktop sync): anchored to
 *   that revision and the lines' text as the person saw them, so it reads `outdated` when those lines
 *   changed since (shared/src/sync/conflicts.ts, rule 3); the current revision's lines are not checked.
 * The review's `updatedAt` moves to now, so `sync.pull` counts the review as changed.
 */
export async function createReviewComment(
  ctx: AppContext,
  auth: RequestAuth,
  projectId: string,
  reviewId: string,
  body: CreateReviewCommentBody,
  options: { id?: string; seen?: { revision: number; anchorText: string } } = {},
): Promise<ReviewComment> {
  const { project, review, reviewerIds } = await loadReview(ctx, auth, projectId, reviewId);
  requireReviewAccess(auth, { authorId: review.authorId, reviewerIds }, 'Commenting on a review');
  if (review.status === 'merged') throw new ApiError('conflict', 'A merged review is final; it takes no more comments.', { from: 'merged' });
  let parent: CommentRow | null = null;
  if (body.parentId !== undefined) {
    const found = await ctx.db.prisma.reviewComment.findUnique({ where: { id: body.parentId } });
    if (!found || found.reviewId !== reviewId) throw new ApiError('not_found', `No comment ${body.parentId} in this review.`, { field: 'parentId' });
    parent = found.parentId ? await ctx.db.prisma.reviewComment.findUniqueOrThrow({ where: { id: found.parentId } }) : found;
    if (body.suggestion) throw invalidField('suggestion', 'a suggestion starts a thread; it cannot answer a comment');
  }
  if (body.suggestion && body.path !== undefined && (await isBinaryReviewFile(ctx, project, review, body.path))) {
    throw invalidField('suggestion', `${body.path} is a binary file; a suggestion replaces lines of text`);
  }
  const anchor = await anchorOf(ctx, project, review, body, parent, options.seen);
  const mentioned = await mentionsIn(ctx.db.prisma, project.orgId, body.body);
  const row = await ctx.db.prisma.$transaction(async (tx) => {
    const created = await tx.reviewComment.create({
      data: {
        id: options.id ?? newId('reviewComment'),
        reviewId,
        parentId: parent?.id ?? null,
        ...anchor,
        body: body.body,
        authorId: auth.userId,
        createdAt: nextStamp(),
        suggestionText: body.suggestion?.text ?? null,
      },
    });
    await storeMentions(tx, { reviewId, commentId: created.id, userIds: mentioned, at: created.createdAt });
    await tx.review.update({ where: { id: reviewId }, data: { updatedAt: new Date() } });
    await recordAudit(tx, {
      orgId: project.orgId,
      projectId,
      auth,
      action: 'review_comment.created',
      resource: { type: 'review_comment', id: created.id },
      metadata: {
        reviewId,
        ...(anchor.path !== null ? { path: anchor.path, lineStart: anchor.lineStart, lineEnd: anchor.lineEnd } : {}),
        revision: anchor.revision,
        ...(parent ? { parentId: parent.id } : {}),
        ...(body.suggestion ? { suggestion: true } : {}),
        ...(mentioned.length > 0 ? { mentions: mentioned } : {}),
      },
    });
    return created;
  });
  await recordReviewUpdatedEvent(ctx, await ctx.db.prisma.review.findUniqueOrThrow({ where: { id: reviewId } }), {
    kind: body.suggestion ? 'suggestion.created' : 'comment.created',
    commentId: row.id,
  });
  let outdated = false;
  if (options.seen && row.revision < review.revision && row.path !== null) {
    outdated = outdatedAgainst(row, await reviewFileText(ctx, project, review, row.path));
  }
  return toDto(row, await people(ctx, [row], mentioned), outdated, mentioned);
}

/** Where a new comment sits: its file, lines, revision and the lines' text (all null but the revision for a review-level comment). */
interface Anchor {
  path: string | null;
  lineStart: number | null;
  lineEnd: number | null;
  revision: number;
  anchorText: string | null;
}

/**
 * The anchor of a new comment: the lines given (checked against the current revision, or as seen
 * offline on an older one), its thread's when it answers without a path, or none (review-level).
 * @throws ApiError invalid_request naming path or lineEnd.
 */
async function anchorOf(
  ctx: AppContext,
  project: LoadedReview['project'],
  review: LoadedReview['review'],
  body: CreateReviewCommentBody,
  parent: CommentRow | null,
  seen: { revision: number; anchorText: string } | undefined,
): Promise<Anchor> {
  if (body.path === undefined || body.lineStart === undefined || body.lineEnd === undefined) {
    if (parent) return { path: parent.path, lineStart: parent.lineStart, lineEnd: parent.lineEnd, revision: parent.revision, anchorText: parent.anchorText };
    return { path: null, lineStart: null, lineEnd: null, revision: review.revision, anchorText: null };
  }
  const checked = normaliseChangePath(body.path);
  if (!checked.ok) throw invalidField('path', checked.issue);
  const lines = { path: checked.path, lineStart: body.lineStart, lineEnd: body.lineEnd };
  if (seen !== undefined && seen.revision < review.revision) return { ...lines, revision: seen.revision, anchorText: seen.anchorText };
  const text = await reviewFileText(ctx, project, review, checked.path);
  if (text === null) throw invalidField('path', `"${checked.path}" is not a file of the review's current revision`);
  const anchorText = linesOf(text, body.lineStart, body.lineEnd);
  if (anchorText === null) throw invalidField('lineEnd', `"${checked.path}" has ${text.split(/\r?\n/).length} lines in revision ${review.revision}`);
  return { ...lines, revision: review.revision, anchorText };
}

/**
 * Resolves (`resolved: true`) or opens again (`false`) the thread of a comment (its thread start,
 * when the comment is an answer), audited as `review_comment.resolved` / `review_comment.unresolved`.
 * Resolving a resolved thread changes nothing (idempotent, so the desktop outbox may send it again).
 * Who may: whoever may comment (services/reviews.ts `requireReviewAccess`).
 * @throws ApiError not_found (review or comment); forbidden; conflict on a merged review.
 */
export async function setThreadResolved(
  ctx: AppContext,
  auth: RequestAuth,
  projectId: string,
  reviewId: string,
  commentId: string,
  resolved: boolean,
): Promise<ReviewComment> {
  const { project, review, reviewerIds } = await loadReview(ctx, auth, projectId, reviewId);
  requireReviewAccess(auth, { authorId: review.authorId, reviewerIds }, resolved ? 'Resolving a thread' : 'Opening a thread again');
  if (review.status === 'merged') throw new ApiError('conflict', 'A merged review is final; its threads stay as they are.', { from: 'merged' });
  const found = await ctx.db.prisma.reviewComment.findUnique({ where: { id: commentId } });
  if (!found || found.reviewId !== reviewId) throw new ApiError('not_found', `No comment ${commentId} in this review.`);
  const rootId = found.parentId ?? found.id;
  const root = await ctx.db.prisma.reviewComment.findUniqueOrThrow({ where: { id: rootId } });
  if ((root.resolvedAt !== null) === resolved) return (await listReviewComments(ctx, auth, projectId, reviewId)).find((c) => c.id === rootId)!;
  await markResolved(ctx.db.prisma, { project, auth, reviewId, commentIds: [rootId], resolved });
  await recordReviewUpdatedEvent(ctx, await ctx.db.prisma.review.findUniqueOrThrow({ where: { id: reviewId } }), {
    kind: resolved ? 'thread.resolved' : 'thread.unresolved',
    commentId: rootId,
  });
  return (await listReviewComments(ctx, auth, projectId, reviewId)).find((c) => c.id === rootId)!;
}

/**
 * Marks threads resolved or unresolved and audits it; also used when suggestions are applied
 * (review-suggestions.ts). Moves the review's `updatedAt` so `sync.pull` brings the change.
 */
export async function markResolved(
  db: Pick<AppContext['db']['prisma'], 'reviewComment' | 'review' | 'auditEntry'>,
  input: { project: LoadedReview['project']; auth: RequestAuth; reviewId: string; commentIds: string[]; resolved: boolean },
): Promise<void> {
  const { project, auth, reviewId, commentIds, resolved } = input;
  await db.reviewComment.updateMany({
    where: { id: { in: commentIds }, reviewId },
    data: resolved ? { resolvedAt: new Date(), resolvedById: auth.userId } : { resolvedAt: null, resolvedById: null },
  });
  await db.review.update({ where: { id: reviewId }, data: { updatedAt: new Date() } });
  for (const id of commentIds) {
    await recordAudit(db as Parameters<typeof recordAudit>[0], {
      orgId: project.orgId,
      projectId: project.id,
      auth,
      action: resolved ? 'review_comment.resolved' : 'review_comment.unresolved',
      resource: { type: 'review_comment', id },
      metadata: { reviewId },
    });
  }
}
