import { FilePath, procedure, ProjectId, t } from './trpc';
import { z } from 'zod';
import { checkCommentAnchor, SuggestionSchema } from '@quire/shared/api/reviews';
import { localReviewReport } from './review-report';

const ReviewId = z.string().min(1).max(64);
const Ids = z.object({ projectId: ProjectId, reviewId: ReviewId });

/**
 * The core's `reviews` procedures (reviews.ts), registered in router.ts. They work offline: reads
 * come from the local store, actions are queued in the outbox and shown at once (`pending`).
 * - `list({projectId})` → `{items: LocalReview[]}` (Review + `{pending, localOnly, problem}`)
 * - `get({projectId, reviewId})` → LocalReview + `{comments, files: [{path, change, before, after}], mergeBlock, mergeBuildId, revisions}`
 * - `propose({projectId, title, description?, reviewers?, paths})` → LocalReview (the local edits of `paths`)
 * - `inReview({projectId})` → `[{path, reviewId, title, same}]`: local edits an open review of mine carries (`same`: with this text)
 * - `updateChanges({projectId, reviewId})` → LocalReview
 * - `comment({projectId, reviewId, path?, lineStart?, lineEnd?, body, parentId?, suggestion?})` → the local comment (no path and
 *   lines: a review-level comment; `suggestion: {lines: {start, end}, text}` a suggested change of those lines)
 * - `resolveThread({projectId, reviewId, commentId, resolved})` → the thread's first comment
 * - `applySuggestions({projectId, reviewId, commentIds})` → LocalReview (its next revision, pending); CONFLICT when outdated here already
 * - `approve({projectId, reviewId})`, `requestChanges({projectId, reviewId})` → LocalReview
 * - `merge({projectId, reviewId})` → `{merged: true, review, buildId}` or `{merged: false, conflict: {paths, branch, message}}`:
 *   needs the server (UNAVAILABLE offline, never queued); FORBIDDEN for a role that cannot merge
 * - `visit({projectId, reviewId})` → `{previous: {revision, seenUpTo} | null}`: records that I opened it now (clears its news)
 * - `news({projectId})` → `{count, items: [{reviewId, title, reasons}]}`: what is new for me since my last visits (review-news.ts)
 * - `people({projectId})` → `[{id, name, email, role}]`: members who may review, other than me
 * - `report({projectId, reviewId})` → the pre-merge report (review-report.ts), computed here, offline, by the server's engine
 * - `viewed({projectId, reviewId, revision})` → the paths I marked "Viewed" in that revision (review-viewed.ts, local only)
 * - `setViewed({projectId, reviewId, revision, path, viewed})` → the viewed paths of that revision afterwards
 * Errors: UNAUTHORIZED signed out (actions), NOT_FOUND unknown review or project not open,
 * BAD_REQUEST naming the field, CONFLICT / FORBIDDEN when the review rules refuse the move here already.
 */
export const reviewsRouter = t.router({
  list: procedure.input(z.object({ projectId: ProjectId })).query(({ ctx, input }) => ctx.reviews.list(input.projectId)),
  get: procedure.input(Ids).query(({ ctx, input }) => ctx.reviews.get(input.projectId, input.reviewId)),
  propose: procedure
    .input(
      z.object({
        projectId: ProjectId,
        title: z.string().trim().min(1, 'must not be empty').max(200),
        description: z.string().max(20_000).optional(),
        reviewers: z.array(z.string().min(1).max(64)).max(50).optional(),
        paths: z.array(FilePath).min(1).max(1000),
      }),
    )
    .mutation(({ ctx, input }) => ctx.reviews.propose(input)),
  inReview: procedure.input(z.object({ projectId: ProjectId })).query(({ ctx, input }) => ctx.reviews.inReview(input.projectId)),
  updateChanges: procedure.input(Ids).mutation(({ ctx, input }) => ctx.reviews.updateChanges(input.projectId, input.reviewId)),
  comment: procedure
    .input(
      Ids.extend({
        path: FilePath.optional(),
        lineStart: z.number().int().min(1).optional(),
        lineEnd: z.number().int().min(1).optional(),
        body: z.string().trim().min(1, 'must not be empty').max(20_000),
        parentId: z.string().min(1).max(64).optional(),
        suggestion: SuggestionSchema.optional(),
      }).superRefine((c, refine) => checkCommentAnchor(c, refine)),
    )
    .mutation(({ ctx, input }) => ctx.reviews.comment(input)),
  resolveThread: procedure
    .input(Ids.extend({ commentId: z.string().min(1).max(64), resolved: z.boolean() }))
    .mutation(({ ctx, input }) => ctx.reviews.resolveThread(input.projectId, input.reviewId, input.commentId, input.resolved)),
  applySuggestions: procedure
    .input(Ids.extend({ commentIds: z.array(z.string().min(1).max(64)).min(1).max(50) }))
    .mutation(({ ctx, input }) => ctx.reviews.applySuggestions(input.projectId, input.reviewId, input.commentIds)),
  approve: procedure.input(Ids).mutation(({ ctx, input }) => ctx.reviews.setStatus(input.projectId, input.reviewId, 'approved')),
  requestChanges: procedure.input(Ids).mutation(({ ctx, input }) => ctx.reviews.setStatus(input.projectId, input.reviewId, 'changes_requested')),
  merge: procedure.input(Ids).mutation(({ ctx, input }) => ctx.reviews.merge(input.projectId, input.reviewId)),
  viewed: procedure
    .input(Ids.extend({ revision: z.number().int().min(1) }))
    .query(({ ctx, input }) => ctx.reviewViewed.paths(input.reviewId, input.revision)),
  setViewed: procedure
    .input(Ids.extend({ revision: z.number().int().min(1), path: FilePath, viewed: z.boolean() }))
    .mutation(({ ctx, input }) => ctx.reviewViewed.set(input.reviewId, input.revision, input.path, input.viewed)),
  visit: procedure.input(Ids).mutation(({ ctx, input }) => ctx.reviews.visit(input.projectId, input.reviewId)),
  news: procedure.input(z.object({ projectId: ProjectId })).query(({ ctx, input }) => ctx.reviews.news(input.projectId)),
  people: procedure.input(z.object({ projectId: ProjectId })).query(({ ctx }) => ctx.reviews.people()),
  report: procedure
    .input(Ids)
    .query(({ ctx, input }) =>
      localReviewReport(input.projectId, {
        store: ctx.store,
        review: ctx.reviews.get(input.projectId, input.reviewId),
        lintOptions: ctx.core.lintOptions(input.projectId),
      }),
    ),
});
