/**
 * REST shapes of reviews and their comments (interface-spec.md "Collaboration": `GET/POST
 * /reviews`, `PATCH /reviews/{reviewId}`; decisions.md section 9: a review wraps a change set or a
 * branch; the payloads are Quire's own and are written into the OpenAPI document). The tRPC
 * procedures of the desktop app take the same bodies.
 */
import { z } from 'zod';
import { TimestampSchema } from './common';
import { BranchSchema } from './projects';
import { CommitShaSchema } from './builds';
import { REVIEW_STATUSES } from '../collab/review-status';
import { CHANGE_ENCODINGS, CHANGE_SET_LIMITS } from '../collab/change-set';

/** A review's status (shared/src/collab/review-status.ts). */
export const ReviewStatusSchema = z.enum(REVIEW_STATUSES);

/** A person on a review: its author, a reviewer, a comment's author. */
export const ReviewPersonSchema = z.object({ id: z.string().describe('usr_<id>'), name: z.string(), email: z.string() });
export type ReviewPerson = z.infer<typeof ReviewPersonSchema>;

/** How a file of the change set differs from the base commit. */
export const FileChangeKindSchema = z.enum(['added', 'modified', 'deleted']);
export type FileChangeKind = z.infer<typeof FileChangeKindSchema>;

/** A changed file of a review; pages (`.md`, `.mdx`) that still exist link into the review's preview. */
export const ReviewChangeSchema = z.object({
  path: z.string().describe('Repository path'),
  change: FileChangeKindSchema,
  binary: z.literal(true).optional().describe('The change set holds the file as bytes (encoding base64: an image, a PDF, a download); absent for text'),
  previewUrl: z.string().optional().describe("The page in the review's preview deployment (pages only, not for deletions)"),
});

/** A review as returned. */
export const ReviewSchema = z.object({
  id: z.string().describe('rev_<id>'),
  title: z.string(),
  description: z.string(),
  status: ReviewStatusSchema,
  author: ReviewPersonSchema.nullable().describe('null once the author was deleted'),
  reviewers: z.array(ReviewPersonSchema).describe('Requested reviewers'),
  mentioned: z
    .array(ReviewPersonSchema)
    .describe('Members its comments mention (`@email` or `@display name`); with `reviewers`, the people the review is requested from'),
  baseCommit: z.string().describe('The commit of `branch` the change set was written on'),
  branch: z.string().describe('The branch the review merges into'),
  headBranch: z.string().optional().describe('Branch reviews: the branch under review'),
  revision: z.number().int().describe('1, plus one for each update of the change set; comments are anchored to a revision'),
  changes: z.array(ReviewChangeSchema),
  previewUrl: z.string().describe('Where the preview of base + change set is served (once its build deployed)'),
  previewBuildId: z.string().nullable().describe('The newest preview build; null when none could be queued yet'),
  labels: z.array(z.string()).describe('"agent" when the docs agent opened the review (decisions.md section 11); otherwise empty'),
  commentCount: z.number().int(),
  unresolvedCount: z.number().int().describe('Threads (comments without parentId) not resolved yet'),
  resolvedThreadsRequired: z.boolean().describe("The project's setting requireResolvedThreads: merging waits until every thread is resolved"),
  mergeCommit: z.string().optional().describe('Merged reviews: the commit pushed to `branch`'),
  createdAt: TimestampSchema,
  updatedAt: TimestampSchema,
});
export type Review = z.infer<typeof ReviewSchema>;

/**
 * A suggested change (a comment field): replace lines `lines.start`..`lines.end` (1-based, inclusive;
 * the comment's own lines) of the comment's file with `text` (lines joined by `\n`; empty deletes them).
 */
export const SuggestionSchema = z
  .object({
    lines: z
      .object({ start: z.number().int().min(1), end: z.number().int().min(1) })
      .strict()
      .refine((l) => l.end >= l.start, { path: ['end'], message: 'must not be before start' })
      .describe('The lines replaced: 1-based, inclusive; the same as the comment\'s lineStart..lineEnd'),
    text: z.string().max(100_000).describe('The replacement text of those lines, joined by \\n; an empty string deletes them'),
  })
  .strict()
  .describe('A suggested change of the commented lines, applied by the author ("Apply suggestion") as a new revision');
export type Suggestion = z.infer<typeof SuggestionSchema>;

/**
 * A comment as returned. `outdated`: the lines it was written on read otherwise now. A review-level
 * comment has `path`, `lineStart` and `lineEnd` null. Thread starts carry `resolved`.
 */
export const ReviewCommentSchema = z.object({
  id: z.string().describe('cmt_<id>'),
  reviewId: z.string(),
  parentId: z.string().nullable().describe('The comment this one answers; null for the start of a thread'),
  path: z.string().nullable().describe('null for a review-level comment (not on lines)'),
  lineStart: z.number().int().nullable(),
  lineEnd: z.number().int().nullable(),
  revision: z.number().int().describe('The revision of the change set the comment was written on'),
  body: z.string(),
  author: ReviewPersonSchema.nullable(),
  outdated: z.boolean().describe('True once the commented lines read otherwise in the current revision (as GitHub shows it)'),
  resolved: z.boolean().describe('Thread starts: the thread was resolved (answers: always false)'),
  resolvedBy: ReviewPersonSchema.nullable().describe('Who resolved the thread; null while unresolved'),
  suggestion: SuggestionSchema.extend({
    applied: z.boolean().describe('The suggestion was applied to the change set'),
    appliedAt: TimestampSchema.nullable().optional().describe('When it was applied; null while not applied'),
    original: z.string().nullable().describe('The lines as they read when the suggestion was written (null when unknown)'),
  })
    .nullable()
    .describe('A suggested change of the commented lines; null for a plain comment'),
  mentions: z
    .array(ReviewPersonSchema)
    .describe('Members the body mentions: `@` then an e-mail address or a display name of a member of the organization (unknown mentions are plain text)'),
  createdAt: TimestampSchema,
});
export type ReviewComment = z.infer<typeof ReviewCommentSchema>;

const TitleSchema = z.string().trim().min(1, 'must not be empty').max(200);
const DescriptionSchema = z.string().max(20_000);
const UserIdSchema = z.string().min(1).max(64);
const ReviewersSchema = z
  .array(UserIdSchema)
  .max(50)
  .refine((ids) => new Set(ids).size === ids.length, 'lists a user twice')
  .describe('User ids (usr_…) of members of the organization');

/** How a change's `content` is written: `utf-8` text (the default) or `base64` bytes (shared/src/collab/change-set.ts). */
export const ChangeEncodingSchema = z
  .enum(CHANGE_ENCODINGS)
  .describe('How content is written: utf-8 text (the default), or base64 bytes (RFC 4648 section 4, padded, no line breaks) for images, PDFs and other binary files');

/**
 * One change of a change set: `{path, content, encoding?}` (new text, or bytes with `encoding:
 * 'base64'`, as GitHub's blob API carries them) or `{path, deleted: true}`. Paths, base64 and
 * sizes (bytes of the file, decoded) are checked by shared/src/collab/change-set.ts (400 naming
 * the field; 413 past a limit).
 */
export const ChangeEntrySchema = z.union([
  z.object({ path: z.string().max(4096), content: z.string(), encoding: ChangeEncodingSchema.optional() }).strict(),
  z.object({ path: z.string().max(4096), deleted: z.literal(true) }).strict(),
]);

const ChangesSchema = z
  .array(ChangeEntrySchema)
  .describe(
    `At most ${CHANGE_SET_LIMITS.maxFiles} files, ${CHANGE_SET_LIMITS.maxFileBytes / 1024 / 1024} MiB a file, ${CHANGE_SET_LIMITS.maxTotalBytes / 1024 / 1024} MiB in all ` +
      '(bytes of the files: base64 counts decoded; 413 payload_too_large beyond)',
  );

/**
 * `POST /reviews`: a branch review `{title, description?, reviewers?, branch}` (the changes are
 * the difference between the project's branch head and `branch`), or a change set `{title,
 * description?, reviewers?, baseCommit?, changes}` (baseCommit defaults to the project's branch head).
 */
export const CreateReviewBodySchema = z
  .object({
    title: TitleSchema,
    description: DescriptionSchema.optional(),
    reviewers: ReviewersSchema.optional(),
    branch: BranchSchema.optional().describe('Branch review: the branch to review (not with changes)'),
    baseCommit: CommitShaSchema.optional().describe("Change set review: the commit of the project's branch the changes were written on (default its head)"),
    changes: ChangesSchema.optional(),
  })
  .strict()
  .superRefine((body, ctx) => {
    if ((body.branch === undefined) === (body.changes === undefined)) {
      ctx.addIssue({ code: 'custom', path: [body.branch === undefined ? 'changes' : 'branch'], message: 'give either branch (a branch review) or changes (a change set), not both' });
    }
    if (body.branch !== undefined && body.baseCommit !== undefined) {
      ctx.addIssue({ code: 'custom', path: ['baseCommit'], message: 'a branch review starts from the head of the project branch; baseCommit goes with changes' });
    }
  });
export type CreateReviewBody = z.infer<typeof CreateReviewBodySchema>;

/**
 * `PATCH /reviews/{reviewId}`: `status` (a move of the review state machine) and the editable
 * fields. `changes` replaces the change set (optionally on a new `baseCommit`): the revision goes
 * up by one, the status back to `open` and a new preview is built. Branch reviews take no `changes`.
 */
export const UpdateReviewBodySchema = z
  .object({
    status: ReviewStatusSchema.optional(),
    title: TitleSchema.optional(),
    description: DescriptionSchema.optional(),
    reviewers: ReviewersSchema.optional(),
    changes: ChangesSchema.optional(),
    baseCommit: CommitShaSchema.optional().describe('With changes: the commit the new change set was written on (default: unchanged)'),
  })
  .strict()
  .refine((b) => Object.values(b).some((v) => v !== undefined), { message: 'give at least one field to change' })
  .superRefine((b, ctx) => {
    if (b.baseCommit !== undefined && b.changes === undefined) ctx.addIssue({ code: 'custom', path: ['baseCommit'], message: 'baseCommit goes with changes' });
  });
export type UpdateReviewBody = z.infer<typeof UpdateReviewBodySchema>;

/** Filters of `GET /reviews` (pagination members come from the server's page query). */
export const ListReviewsFiltersSchema = z.object({
  status: ReviewStatusSchema.optional(),
  author: UserIdSchema.optional().describe('User id of the author'),
  reviewer: UserIdSchema.optional().describe('User id of a requested reviewer'),
  mentioned: UserIdSchema.optional().describe('User id of a member mentioned in a comment of the review'),
  requestedFrom: UserIdSchema.optional().describe('User id of a person the review is requested from: a requested reviewer, or mentioned in a comment ("Requested from me")'),
});
export type ListReviewsFilters = z.infer<typeof ListReviewsFiltersSchema>;

/**
 * `POST /reviews/{reviewId}/comments`: a comment on lines `lineStart`..`lineEnd` (1-based, inclusive)
 * of `path` in the current revision, or a review-level comment (no path, no lines). An answer
 * (`parentId`) without path joins its thread where it is. `suggestion` (with path and lines) proposes
 * replacement text for those lines.
 */
export const CreateReviewCommentBodySchema = z
  .object({
    path: z.string().min(1).max(4096).optional().describe('The file commented on; absent for a review-level comment'),
    lineStart: z.number().int().min(1).optional(),
    lineEnd: z.number().int().min(1).optional(),
    body: z
      .string()
      .trim()
      .min(1, 'must not be empty')
      .max(20_000)
      .describe('The text; `@<email>` or `@<display name>` of a member of the organization mentions them (shared/src/collab/mentions.ts)'),
    parentId: z.string().min(1).max(64).optional().describe('Answer this comment (its thread)'),
    suggestion: SuggestionSchema.optional(),
  })
  .strict()
  .superRefine((c, ctx) => checkCommentAnchor(c, ctx));
export type CreateReviewCommentBody = z.infer<typeof CreateReviewCommentBodySchema>;

/**
 * The anchor rules of a comment body (REST, tRPC and the sync mutation): path, lineStart and lineEnd
 * come together or not at all, lineEnd is not before lineStart, and a suggestion needs lines equal to
 * its own `lines`.
 */
export function checkCommentAnchor(
  c: { path?: string | undefined; lineStart?: number | undefined; lineEnd?: number | undefined; suggestion?: Suggestion | undefined },
  ctx: z.RefinementCtx,
): void {
  const given = [c.path, c.lineStart, c.lineEnd].filter((v) => v !== undefined).length;
  if (given !== 0 && given !== 3) {
    const missing = c.path === undefined ? 'path' : c.lineStart === undefined ? 'lineStart' : 'lineEnd';
    ctx.addIssue({ code: 'custom', path: [missing], message: 'path, lineStart and lineEnd come together (or none, for a review-level comment)' });
  }
  if (c.lineStart !== undefined && c.lineEnd !== undefined && c.lineEnd < c.lineStart) ctx.addIssue({ code: 'custom', path: ['lineEnd'], message: 'must not be before lineStart' });
  if (c.suggestion && (c.suggestion.lines.start !== c.lineStart || c.suggestion.lines.end !== c.lineEnd)) {
    ctx.addIssue({ code: 'custom', path: ['suggestion', 'lines'], message: 'a suggestion replaces the commented lines: lines.start and lines.end equal lineStart and lineEnd' });
  }
}

/** `PATCH /reviews/{reviewId}/comments/{commentId}`: resolve (`true`) or unresolve (`false`) the comment's thread. */
export const UpdateReviewCommentBodySchema = z.object({ resolved: z.boolean().describe('true resolves the thread, false opens it again') }).strict();
export type UpdateReviewCommentBody = z.infer<typeof UpdateReviewCommentBodySchema>;

/** Path parameters of one comment of a review. */
export const ReviewCommentParamsSchema = z.object({
  projectId: z.string().min(1).max(64),
  reviewId: z.string().min(1).max(64),
  commentId: z.string().min(1).max(64).describe('cmt_<id>'),
});

/** `POST /reviews/{reviewId}/suggestions/apply`: the suggestions (comment ids) to apply together as the next revision. */
export const ApplySuggestionsBodySchema = z
  .object({
    commentIds: z
      .array(z.string().min(1).max(64))
      .min(1)
      .max(50)
      .refine((ids) => new Set(ids).size === ids.length, 'lists a comment twice')
      .describe('Comments with a suggestion (cmt_…), applied all or none'),
  })
  .strict();
export type ApplySuggestionsBody = z.infer<typeof ApplySuggestionsBodySchema>;

/** One kept revision of a review's change set; a file it does not list reads as at its `baseCommit`. */
export const ReviewRevisionSchema = z.object({
  revision: z.number().int(),
  baseCommit: z.string(),
  files: z.array(
    z.object({
      path: z.string(),
      change: FileChangeKindSchema,
      content: z.string().nullable().describe('null when deleted; base64 when encoding is base64'),
      encoding: z.enum(['utf-8', 'base64']).optional().describe('base64 for a binary file (revisions kept before binary files were stored carry none: utf-8)'),
    }),
  ),
  createdAt: TimestampSchema,
});
export type ReviewRevision = z.infer<typeof ReviewRevisionSchema>;

/** Path parameters of one review. */
export const ReviewParamsSchema = z.object({ projectId: z.string().min(1).max(64), reviewId: z.string().min(1).max(64).describe('rev_<id>') });
