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
import { loadReview, requireReviewAccess, reviewFileText } from './reviews';

type CommentRow = Models.ReviewCommentModel;

function toDto(row: CommentRow, people: Map<string, ReviewPerson>, outdated: boolean): ReviewComment {
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
    createdAt: row.createdAt.toISOString(),
  };
}

async function people(ctx: AppContext, rows: CommentRow[]): Promise<Map<string, ReviewPerson>> {
  const ids = [...new Set(rows.map((r) => r.authorId).filter((id): id is string => id !== null))];
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
  for (const path of new Set(rows.filter((r) => r.revision !== review.revision).map((r) => r.path))) {
    texts.set(path, await reviewFileText(ctx, project, review, path));
  }
  const authors = await people(ctx, rows);
  return rows.map((r) => {
    if (r.revision === review.revision) return toDto(r, authors, false);
    const text = texts.get(r.path) ?? null;
    return toDto(r, authors, isCommentOutdated(r.anchorText, text, r.lineStart, r.lineEnd));
  });
}

/**
 * Adds a comment on lines of a file of the review's current revision (201), audited as
 * `review_comment.created`. `parentId` answers a comment of the same review.
 * @throws ApiError not_found (review, or `parentId` not a comment of it); forbidden (neither
 *   `projects:write` nor the author or a requested reviewer); invalid_request (a bad path, a file
 *   the revision does not have, lines past its end); conflict on a merged review.
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
  const checked = normaliseChangePath(body.path);
  if (!checked.ok) throw invalidField('path', checked.issue);
  let parentId: string | null = null;
  if (body.parentId !== undefined) {
    const parent = await ctx.db.prisma.reviewComment.findUnique({ where: { id: body.parentId }, select: { reviewId: true, parentId: true, id: true } });
    if (!parent || parent.reviewId !== reviewId) throw new ApiError('not_found', `No comment ${body.parentId} in this review.`, { field: 'parentId' });
    parentId = parent.parentId ?? parent.id;
  }
  const older = options.seen !== undefined && options.seen.revision < review.revision ? options.seen : null;
  const revision = older ? older.revision : review.revision;
  let anchorText: string | null = older ? older.anchorText : null;
  if (!older) {
    const text = await reviewFileText(ctx, project, review, checked.path);
    if (text === null) throw invalidField('path', `"${checked.path}" is not a file of the review's current revision`);
    anchorText = linesOf(text, body.lineStart, body.lineEnd);
    if (anchorText === null) throw invalidField('lineEnd', `"${checked.path}" has ${text.split(/\r?\n/).length} lines in revision ${review.revision}`);
  }
  const row = await ctx.db.prisma.$transaction(async (tx) => {
    const created = await tx.reviewComment.create({
      data: {
        id: options.id ?? newId('reviewComment'),
        reviewId,
        parentId,
        path: checked.path,
        lineStart: body.lineStart,
        lineEnd: body.lineEnd,
        revision,
        anchorText: anchorText!,
        body: body.body,
        authorId: auth.userId,
        createdAt: nextStamp(),
      },
    });
    await tx.review.update({ where: { id: reviewId }, data: { updatedAt: new Date() } });
    await recordAudit(tx, {
      orgId: project.orgId,
      projectId,
      auth,
      action: 'review_comment.created',
      resource: { type: 'review_comment', id: created.id },
      metadata: { reviewId, path: checked.path, lineStart: body.lineStart, lineEnd: body.lineEnd, revision, ...(parentId ? { parentId } : {}) },
    });
    return created;
  });
  let outdated = false;
  if (older) {
    const now = await reviewFileText(ctx, project, review, checked.path);
    outdated = isCommentOutdated(older.anchorText, now, body.lineStart, body.lineEnd);
  }
  return toDto(row, await people(ctx, [row]), outdated);
}
