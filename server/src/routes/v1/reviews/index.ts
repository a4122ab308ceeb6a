/**
 * Reviews of a project (interface-spec.md "Collaboration": `GET/POST /reviews`, `PATCH
 * /reviews/{reviewId}`; decisions.md section 9), plus `GET /reviews/{reviewId}` and its comments
 * (`GET/POST /reviews/{reviewId}/comments`) and its pre-merge report (`GET /reviews/{reviewId}/report`). Reads need `projects:read`; opening a review
 * `projects:write`; `PATCH` and commenting need `projects:read` at the door and the service decides
 * (editing and merging need `projects:write`; approving, requesting changes and commenting need
 * `projects:write` or being a requested reviewer; services/reviews.ts).
 * Change sets may be larger than the API's 1 MiB body limit (up to 10 MiB of content): these
 * routes take bodies up to {@link REVIEW_BODY_LIMIT}.
 */
import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { dataEnvelope, errorResponses, PaginationSchema } from '@quire/shared/api/common';
import { ProjectParamsSchema } from '@quire/shared/api/projects';
import {
  ApplySuggestionsBodySchema,
  CreateReviewBodySchema,
  CreateReviewCommentBodySchema,
  ReviewCommentParamsSchema,
  ReviewRevisionSchema,
  UpdateReviewCommentBodySchema,
  ListReviewsFiltersSchema,
  ReviewCommentSchema,
  ReviewParamsSchema,
  ReviewSchema,
  UpdateReviewBodySchema,
} from '@quire/shared/api/reviews';
import { CHANGE_SET_BODY_LIMIT, CHANGE_SET_LIMITS } from '@quire/shared/collab/change-set';
import { PageQuerySchema, pagination, resolvePage } from '../../../http/pagination';
import { createReview, getReview, listReviews, updateReview } from '../../../services/reviews';
import { createReviewComment, listReviewComments, setThreadResolved } from '../../../services/review-comments';
import { applyReviewSuggestions } from '../../../services/review-suggestions';
import { listReviewRevisions } from '../../../services/review-revisions';
import { getReviewReport } from '../../../services/review-report';
import { ReviewReportSchema } from '@quire/shared/api/review-report';

/** Largest body of `POST /reviews` and `PATCH /reviews/{id}`: the change set limit plus room for JSON escaping. */
export const REVIEW_BODY_LIMIT = CHANGE_SET_BODY_LIMIT;

const reviewsRoutes: FastifyPluginAsync = async (base) => {
  const app = base.withTypeProvider<ZodTypeProvider>();
  const tags = ['Reviews'];
  const prefix = '/projects/:projectId/reviews';

  app.get(prefix, {
    config: { permission: 'projects:read' },
    schema: {
      tags,
      summary: 'List reviews',
      description: 'Newest first. Filters: status (open, changes_requested, approved, merged, closed), author (user id), reviewer (user id of a requested reviewer), mentioned (user id mentioned in a comment: `@email` or `@display name`), requestedFrom (user id that is a requested reviewer or mentioned). Pagination: page, pageSize (alias per_page; default 20, above 100 clamped).',
      params: ProjectParamsSchema,
      querystring: PageQuerySchema.extend(ListReviewsFiltersSchema.shape),
      response: { 200: z.object({ data: z.array(ReviewSchema), pagination: PaginationSchema }), ...errorResponses(400, 401, 403, 404, 429) },
    },
  }, async (req) => {
    const page = resolvePage(req.query);
    const { items, total } = await listReviews(app.ctx, req.auth, req.params.projectId, req.query, page);
    return { data: items, pagination: pagination(page, total) };
  });

  app.post(prefix, {
    config: { permission: 'projects:write' },
    bodyLimit: REVIEW_BODY_LIMIT,
    schema: {
      tags,
      summary: 'Open a review',
      description:
        'Either a change set `{title, description?, reviewers?, baseCommit?, changes: [{path, content, encoding?} | {path, deleted: true}]}` on baseCommit (default: the head of the project branch), ' +
        'or a branch review `{title, description?, reviewers?, branch}` whose changes are the difference between the project branch head and `branch`. ' +
        'A change carries text (`encoding` "utf-8", the default) or bytes of an image, a PDF or another binary file as padded standard base64 with `encoding: "base64"` ' +
        "(as GitHub's blob API; 400 naming changes.<i>.content when it is not valid base64); the review's changes mark such files `binary: true`. " +
        `Paths are repository paths (POSIX; no leading "/", no "." or ".." segment, nothing under .git; 400 naming changes.<i>.path otherwise). At most ${CHANGE_SET_LIMITS.maxFiles} files, 2 MiB a file and 10 MiB in all (bytes of the files, base64 counted decoded): 413 payload_too_large naming the limit beyond. ` +
        'Reviewers are user ids of members of the organization (400 naming reviewers otherwise). A preview of base + change set is queued at once (previewBuildId; it waits while another build runs) and served at previewUrl; each changed page links into it. Audited as review.created.',
      params: ProjectParamsSchema,
      body: CreateReviewBodySchema,
      response: { 201: dataEnvelope(ReviewSchema), ...errorResponses(400, 401, 403, 404, 413, 429, 503) },
    },
  }, async (req, reply) => reply.code(201).send({ data: await createReview(app.ctx, req.auth, req.params.projectId, req.body) }));

  app.get(`${prefix}/:reviewId`, {
    config: { permission: 'projects:read' },
    schema: { tags, summary: 'Get a review', description: 'A review with its changed files, preview links and comment count.', params: ReviewParamsSchema, response: { 200: dataEnvelope(ReviewSchema), ...errorResponses(401, 403, 404, 429) } },
  }, async (req) => ({ data: await getReview(app.ctx, req.auth, req.params.projectId, req.params.reviewId) }));

  app.patch(`${prefix}/:reviewId`, {
    config: { permission: 'projects:read' },
    bodyLimit: REVIEW_BODY_LIMIT,
    schema: {
      tags,
      summary: 'Update a review',
      description:
        'Takes `status` and the editable fields title, description, reviewers and changes (with an optional new baseCommit). ' +
        'Status moves: open → changes_requested | approved | closed; changes_requested → open (author) | approved | closed; approved → changes_requested | open (author) | merged | closed; closed → open; merged is final. ' +
        'Approving and requesting changes are a reviewer\'s moves: the author gets 403. A move not in this list gets 409 naming both states. ' +
        'status "merged" (alone) merges: the change set is applied to the head of the branch by three-way merge, committed with the author as git author and pushed, then the production build of the merge commit is queued; a conflict gets 409 with details.paths and changes nothing ' +
        '(a binary file is written byte for byte and never merged by lines: one the branch also changed since baseCommit is a conflict). ' +
        'changes replaces the change set (change set reviews only): the revision goes up by one, the status back to open, and a new preview is queued. ' +
        'Editing and merging need projects:write; approving and requesting changes need a person whose current organization role is reviewer or above, and an API key also needs projects:write (403 forbidden otherwise). Audited as review.updated (review.merged for a merge).',
      params: ReviewParamsSchema,
      body: UpdateReviewBodySchema,
      response: { 200: dataEnvelope(ReviewSchema), ...errorResponses(400, 401, 403, 404, 409, 413, 429, 503) },
    },
  }, async (req) => ({ data: await updateReview(app.ctx, req.auth, req.params.projectId, req.params.reviewId, req.body) }));

  app.get(`${prefix}/:reviewId/comments`, {
    config: { permission: 'projects:read' },
    schema: {
      tags,
      summary: 'List the comments of a review',
      description: 'Oldest first, not paginated. A thread is a comment with parentId null and its answers. outdated: the commented lines read otherwise in the current revision (or the file is gone).',
      params: ReviewParamsSchema,
      response: { 200: z.object({ data: z.array(ReviewCommentSchema) }), ...errorResponses(401, 403, 404, 429, 503) },
    },
  }, async (req) => ({ data: await listReviewComments(app.ctx, req.auth, req.params.projectId, req.params.reviewId) }));

  app.post(`${prefix}/:reviewId/comments`, {
    config: { permission: 'projects:read' },
    schema: {
      tags,
      summary: 'Comment on a review',
      description:
        'Comments lines lineStart..lineEnd (1-based, inclusive) of path in the review\'s current revision (a changed file, or any file of the base commit), ' +
        'or the whole review when path, lineStart and lineEnd are all left out (a review-level comment); parentId answers a comment of the review (an answer without path joins its thread). ' +
        'suggestion `{lines: {start, end}, text}` (lines equal to lineStart..lineEnd) proposes text replacing those lines; the author applies it with POST .../suggestions/apply. ' +
        'Needs projects:write, or being the author or a requested reviewer. 400 naming path or lineEnd when the revision has no such file or lines. Audited as review_comment.created; ' +
        'review.updated webhooks carry event {kind: "comment.created" | "suggestion.created", commentId}.',
      params: ReviewParamsSchema,
      body: CreateReviewCommentBodySchema,
      response: { 201: dataEnvelope(ReviewCommentSchema), ...errorResponses(400, 401, 403, 404, 409, 429, 503) },
    },
  }, async (req, reply) => reply.code(201).send({ data: await createReviewComment(app.ctx, req.auth, req.params.projectId, req.params.reviewId, req.body) }));

  app.patch(`${prefix}/:reviewId/comments/:commentId`, {
    config: { permission: 'projects:read' },
    schema: {
      tags,
      summary: 'Resolve or unresolve a thread',
      description:
        '`{resolved: true}` resolves the thread of the comment (its first comment, when the comment is an answer); `{resolved: false}` opens it again. Resolving twice changes nothing. ' +
        'The review counts unresolvedCount; a project with settings.requireResolvedThreads refuses a merge (409, details.reason "unresolved_threads") while any is unresolved. ' +
        'Same permission as commenting. Audited as review_comment.resolved / review_comment.unresolved; review.updated webhooks carry event {kind: "thread.resolved" | "thread.unresolved", commentId}.',
      params: ReviewCommentParamsSchema,
      body: UpdateReviewCommentBodySchema,
      response: { 200: dataEnvelope(ReviewCommentSchema), ...errorResponses(400, 401, 403, 404, 409, 429, 503) },
    },
  }, async (req) => ({ data: await setThreadResolved(app.ctx, req.auth, req.params.projectId, req.params.reviewId, req.params.commentId, req.body.resolved) }));

  app.post(`${prefix}/:reviewId/suggestions/apply`, {
    config: { permission: 'projects:read' },
    schema: {
      tags,
      summary: 'Apply suggested changes',
      description:
        'Applies the suggestions commentIds (all or none) to the change set as its next revision (revision + 1, status back to open, a new preview) and resolves their threads. ' +
        'A suggestion whose lines read otherwise now than when it was written is outdated: 409 conflict with details.reason "outdated" and details.commentId, nothing changed; ' +
        'two suggestions on the same lines: 409 with reason "overlap". Suggestions already applied are skipped. Needs projects:write. ' +
        'review.updated webhooks carry event {kind: "suggestion.applied", commentId} for each.',
      params: ReviewParamsSchema,
      body: ApplySuggestionsBodySchema,
      response: { 200: dataEnvelope(ReviewSchema), ...errorResponses(400, 401, 403, 404, 409, 413, 429, 503) },
    },
  }, async (req) => ({ data: await applyReviewSuggestions(app.ctx, req.auth, req.params.projectId, req.params.reviewId, req.body.commentIds) }));

  app.get(`${prefix}/:reviewId/revisions`, {
    config: { permission: 'projects:read' },
    schema: {
      tags,
      summary: 'List the revisions of a review',
      description: 'Every kept revision of the change set, oldest first, with its files as they were then (content null: deleted); a file a revision does not list reads as at its baseCommit. Compare any two.',
      params: ReviewParamsSchema,
      response: { 200: z.object({ data: z.array(ReviewRevisionSchema) }), ...errorResponses(401, 403, 404, 429) },
    },
  }, async (req) => ({ data: await listReviewRevisions(app.ctx, req.auth, req.params.projectId, req.params.reviewId) }));

  app.get(`${prefix}/:reviewId/report`, {
    config: { permission: 'projects:read' },
    schema: {
      tags,
      summary: 'Get the pre-merge report of a review',
      description:
        'What merging the current revision would do to the site, computed by the engine the build and the desktop app use: the pages changed (added, modified, deleted, with titles), ' +
        'lint findings added and fixed in the changed files (the project\'s style rules, glossary and settings; a finding counts as the same when its rule and message are), ' +
        'broken internal links and missing images the changed files introduce, pages added to, removed from or moved between groups of the navigation, and redirects added and removed. ' +
        'Only changed files are linted; links of unchanged pages are not checked again. Kept per revision; previewUrl is where the review\'s preview is served.',
      params: ReviewParamsSchema,
      response: { 200: dataEnvelope(ReviewReportSchema), ...errorResponses(400, 401, 403, 404, 429, 503) },
    },
  }, async (req) => ({ data: await getReviewReport(app.ctx, req.auth, req.params.projectId, req.params.reviewId) }));
};
export default reviewsRoutes;
