/**
 * Applying suggested changes of a review (a comment with a suggestion, review-comments.ts): the
 * suggestions' replacement texts are laid over the current revision's files by the one shared rule
 * (`@quire/shared/collab/suggestions`), the result becomes the review's next revision through the
 * same update as any new change set (reviews.ts `updateReview`: revision + 1, status back to `open`,
 * a new preview), and the suggestions' threads are resolved. A suggestion whose lines read otherwise
 * now than when it was written is outdated: applying it is refused (409 conflict with the reason),
 * and nothing changes. Applying several is all or nothing.
 */
import { ApiError } from '@quire/shared/errors';
import { applySuggestions as applyEdits, type SuggestionEdit } from '@quire/shared/collab/suggestions';
import type { ChangeSetEntry } from '@quire/shared/collab/change-set';
import type { Review } from '@quire/shared/api/reviews';
import type { AppContext } from '../context';
import type { RequestAuth } from '../access/request-auth';
import { getReview, isBinaryReviewFile, loadReview, reviewFileText, updateReview } from './reviews';
import { markResolved } from './review-comments';
import { recordReviewUpdatedEvent } from './webhook-events';

/**
 * Applies the suggestions `commentIds` (thread starts with a suggestion) of a change set review as
 * its next revision and resolves their threads; audited as `review.updated` (the new change set)
 * and `review_comment.resolved`; `review.updated` webhooks carry `suggestion.applied`.
 * Suggestions already applied are skipped; when all are, nothing changes.
 * @returns the review after the change.
 * @throws ApiError not_found (review, or a comment not of it); invalid_request (field `commentIds`: a
 *   comment that is no suggestion; a branch review); forbidden (editing the change set needs
 *   `projects:write`); conflict (`details.reason` "outdated": the lines changed since, naming the
 *   comment; "overlap": two suggestions on the same lines; "missing": the file is gone; a merged review).
 */
export async function applyReviewSuggestions(ctx: AppContext, auth: RequestAuth, projectId: string, reviewId: string, commentIds: string[]): Promise<Review> {
  const { project, review } = await loadReview(ctx, auth, projectId, reviewId);
  if (review.source === 'branch') throw new ApiError('invalid_request', 'commentIds: a branch review takes its changes from its branch; suggestions are applied there.', { field: 'commentIds' });
  const rows = await ctx.db.prisma.reviewComment.findMany({ where: { id: { in: commentIds } } });
  for (const id of commentIds) {
    const row = rows.find((r) => r.id === id);
    if (!row || row.reviewId !== reviewId) throw new ApiError('not_found', `No comment ${id} in this review.`, { field: 'commentIds' });
    if (row.suggestionText === null || row.path === null || row.lineStart === null || row.lineEnd === null || row.anchorText === null) {
      throw new ApiError('invalid_request', `commentIds: ${id} is a comment, not a suggestion.`, { field: 'commentIds' });
    }
  }
  const todo = rows.filter((r) => r.appliedAt === null);
  if (todo.length === 0) return getReview(ctx, auth, projectId, reviewId);
  const edits: SuggestionEdit[] = todo.map((r) => ({
    id: r.id,
    path: r.path!,
    start: r.lineStart!,
    end: r.lineEnd!,
    anchorText: r.anchorText!,
    text: r.suggestionText!,
  }));
  const texts = new Map<string, string | null>();
  for (const path of new Set(edits.map((e) => e.path))) {
    if (await isBinaryReviewFile(ctx, project, review, path)) {
      throw new ApiError('invalid_request', `commentIds: ${path} is a binary file; a suggestion replaces lines of text.`, { field: 'commentIds' });
    }
    texts.set(path, await reviewFileText(ctx, project, review, path));
  }
  const applied = applyEdits(edits, texts);
  if (!applied.ok) throw new ApiError('conflict', applied.refusal.message, { reason: applied.refusal.reason, commentId: applied.refusal.id });

  // the other files of the change set go back as they are: binary ones keep their base64 encoding
  const files = await ctx.db.prisma.reviewFile.findMany({ where: { reviewId }, select: { path: true, content: true, encoding: true }, orderBy: { path: 'asc' } });
  const changes: ChangeSetEntry[] = files.map((f): ChangeSetEntry => {
    if (f.content === null) return { path: f.path, deleted: true as const };
    const text = applied.texts.get(f.path);
    if (text !== undefined) return { path: f.path, content: text };
    return f.encoding === 'base64' ? { path: f.path, content: f.content, encoding: 'base64' } : { path: f.path, content: f.content };
  });
  for (const [path, content] of applied.texts) if (!files.some((f) => f.path === path)) changes.push({ path, content });
  await updateReview(ctx, auth, projectId, reviewId, { changes });
  await ctx.db.prisma.reviewComment.updateMany({ where: { id: { in: todo.map((r) => r.id) } }, data: { appliedAt: new Date() } });
  await markResolved(ctx.db.prisma, { project, auth, reviewId, commentIds: todo.map((r) => r.id), resolved: true });
  const row = await ctx.db.prisma.review.findUniqueOrThrow({ where: { id: reviewId } });
  for (const r of todo) await recordReviewUpdatedEvent(ctx, row, { kind: 'suggestion.applied', commentId: r.id });
  return getReview(ctx, auth, projectId, reviewId);
}
