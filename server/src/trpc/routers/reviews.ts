import { z } from 'zod';
import {
  ApplySuggestionsBodySchema,
  CreateReviewBodySchema,
  CreateReviewCommentBodySchema,
  ListReviewsFiltersSchema,
  UpdateReviewBodySchema,
  UpdateReviewCommentBodySchema,
  type Review,
  type ReviewComment,
  type ReviewRevision,
} from '@quire/shared/api/reviews';
import type { Pagination } from '@quire/shared/api/common';
import { pagination, resolvePage } from '../../http/pagination';
import { createReview, getReview, listReviews, mergeReview, updateReview } from '../../services/reviews';
import { createReviewComment, listReviewComments, setThreadResolved } from '../../services/review-comments';
import { applyReviewSuggestions } from '../../services/review-suggestions';
import { listReviewRevisions } from '../../services/review-revisions';
import { getReviewReport } from '../../services/review-report';
import type { ReviewReport } from '@quire/shared/api/review-report';
import { permittedProcedure, router } from '../trpc';

const ProjectInput = z.object({ projectId: z.string().max(64) });
const ReviewInput = ProjectInput.extend({ reviewId: z.string().max(64) });
const PageInput = z.object({ page: z.number().int().min(1).default(1), pageSize: z.number().int().min(1).max(100).optional() });

const reader = permittedProcedure('projects:read');
const writer = permittedProcedure('projects:write');

/**
 * `reviews`: reviews and their comments for the desktop app (the REST routes' twins, same services
 * and rules; decisions.md section 9). Sessions act as their user with their org role. Every
 * procedure takes `projectId`; unknown or foreign projects and reviews are NOT_FOUND.
 * - `list({projectId, status?, author?, reviewer?, mentioned?, requestedFrom?, page?, pageSize?})` → `{items, pagination}`, newest first.
 * - `get({projectId, reviewId})` → the review.
 * - `create({projectId, review})` (editor and up) → the review; `review` is the REST create body.
 * - `update({projectId, reviewId, patch})` → the review; `patch` is the REST PATCH body (status
 *   included). Readers reach the service, which lets a reviewer role or above approve or request
 *   changes (services/decision-rights.ts, the role as it is now) and wants `projects:write` for the rest.
 * - `merge({projectId, reviewId})` (editor and up) → `{review, buildId}` (the production build).
 * - `comments.list({projectId, reviewId})`, `comments.create({projectId, reviewId, comment})`
 *   (write roles, the author, or a requested reviewer); `comment` may leave out path and lines (review-level) and carry `suggestion`.
 * - `comments.resolve({projectId, reviewId, commentId, patch: {resolved}})` → the thread's first comment.
 * - `applySuggestions({projectId, reviewId, body: {commentIds}})` → the review (its next revision); CONFLICT for an outdated suggestion.
 * - `revisions({projectId, reviewId})` → every kept revision, oldest first.
 * - `report({projectId, reviewId})` → the pre-merge report of the current revision with the preview URL (REST `GET .../report`).
 */
export const reviewsRouter = router({
  list: reader
    .input(ProjectInput.extend(ListReviewsFiltersSchema.shape).extend({ page: PageInput.shape.page, pageSize: PageInput.shape.pageSize }))
    .query(async ({ ctx, input }): Promise<{ items: Review[]; pagination: Pagination }> => {
      const page = resolvePage({ page: input.page, pageSize: input.pageSize, per_page: undefined });
      const { items, total } = await listReviews(ctx.app, ctx.auth, input.projectId, input, page);
      return { items, pagination: pagination(page, total) };
    }),
  get: reader.input(ReviewInput).query(({ ctx, input }): Promise<Review> => getReview(ctx.app, ctx.auth, input.projectId, input.reviewId)),
  create: writer
    .input(ProjectInput.extend({ review: CreateReviewBodySchema }))
    .mutation(({ ctx, input }): Promise<Review> => createReview(ctx.app, ctx.auth, input.projectId, input.review)),
  update: reader
    .input(ReviewInput.extend({ patch: UpdateReviewBodySchema }))
    .mutation(({ ctx, input }): Promise<Review> => updateReview(ctx.app, ctx.auth, input.projectId, input.reviewId, input.patch)),
  merge: writer.input(ReviewInput).mutation(async ({ ctx, input }): Promise<{ review: Review; buildId: string }> => {
    const { buildId } = await mergeReview(ctx.app, ctx.auth, input.projectId, input.reviewId);
    return { review: await getReview(ctx.app, ctx.auth, input.projectId, input.reviewId), buildId };
  }),
  comments: router({
    list: reader.input(ReviewInput).query(({ ctx, input }): Promise<ReviewComment[]> => listReviewComments(ctx.app, ctx.auth, input.projectId, input.reviewId)),
    create: reader
      .input(ReviewInput.extend({ comment: CreateReviewCommentBodySchema }))
      .mutation(({ ctx, input }): Promise<ReviewComment> => createReviewComment(ctx.app, ctx.auth, input.projectId, input.reviewId, input.comment)),
    resolve: reader
      .input(ReviewInput.extend({ commentId: z.string().max(64), patch: UpdateReviewCommentBodySchema }))
      .mutation(({ ctx, input }): Promise<ReviewComment> =>
        setThreadResolved(ctx.app, ctx.auth, input.projectId, input.reviewId, input.commentId, input.patch.resolved),
      ),
  }),
  applySuggestions: reader
    .input(ReviewInput.extend({ body: ApplySuggestionsBodySchema }))
    .mutation(({ ctx, input }): Promise<Review> => applyReviewSuggestions(ctx.app, ctx.auth, input.projectId, input.reviewId, input.body.commentIds)),
  revisions: reader
    .input(ReviewInput)
    .query(({ ctx, input }): Promise<ReviewRevision[]> => listReviewRevisions(ctx.app, ctx.auth, input.projectId, input.reviewId)),
  report: reader.input(ReviewInput).query(({ ctx, input }): Promise<ReviewReport> => getReviewReport(ctx.app, ctx.auth, input.projectId, input.reviewId)),
});
