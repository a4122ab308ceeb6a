/**
 * What the desktop app's outbox sends to the server and what it gets back (decisions.md section 9:
 * "The desktop app syncs through tRPC `sync.push` (mutations with client id and sequence number,
 * applied exactly once, in order) and `sync.pull` (changes since a cursor); the mutations and
 * conflict rules live in `shared/sync`"). Both the desktop core and the server import these
 * schemas; the field schemas are those of the REST bodies (shared/src/api/reviews.ts) so a
 * mutation is checked exactly as the matching REST call.
 */
import { z } from 'zod';
import {
  ChangeEntrySchema,
  CreateReviewBodySchema,
  CreateReviewCommentBodySchema,
  UpdateReviewBodySchema,
  type Review,
  type ReviewComment,
} from '../api/reviews';

const ProjectIdSchema = z.string().min(1).max(64).describe('prj_<id>');
/** A review named by its server id (rev_…) or by the localId of a `review.create` sent earlier by the same client. */
const ReviewRefSchema = z.string().min(1).max(64).describe('rev_<id>, or the localId of a review created earlier in the outbox');
const LocalIdSchema = z.uuid().describe("The client's id for the object it creates (a UUID); the server derives the object's id from it");
const RevisionSchema = z.number().int().min(1).describe('The revision of the change set the person saw');

const createShape = CreateReviewBodySchema.shape;
const updateShape = UpdateReviewBodySchema.shape;
const commentShape = CreateReviewCommentBodySchema.shape;

/** `review.create`: open a change set review (the body of `POST /reviews` with a change set; baseCommit is required offline). */
export const ReviewCreateMutationSchema = z
  .object({
    type: z.literal('review.create'),
    projectId: ProjectIdSchema,
    localId: LocalIdSchema,
    review: z
      .object({
        title: createShape.title,
        description: createShape.description,
        reviewers: createShape.reviewers,
        baseCommit: createShape.baseCommit.unwrap(),
        changes: z.array(ChangeEntrySchema),
      })
      .strict(),
  })
  .strict();

/** `review.update`: the editable fields of `PATCH /reviews/{id}` (no status: that is `review.setStatus`). */
export const ReviewUpdateMutationSchema = z
  .object({
    type: z.literal('review.update'),
    projectId: ProjectIdSchema,
    reviewId: ReviewRefSchema,
    patch: z
      .object({
        title: updateShape.title,
        description: updateShape.description,
        reviewers: updateShape.reviewers,
        baseCommit: updateShape.baseCommit,
        changes: updateShape.changes,
      })
      .strict()
      .refine((b) => Object.values(b).some((v) => v !== undefined), { message: 'give at least one field to change' })
      .refine((b) => b.baseCommit === undefined || b.changes !== undefined, { path: ['baseCommit'], message: 'baseCommit goes with changes' }),
  })
  .strict();

/** The statuses a person may set from the desktop app (merging happens on the server only). */
export const SyncSettableStatusSchema = z.enum(['approved', 'changes_requested', 'open', 'closed']);
export type SyncSettableStatus = z.infer<typeof SyncSettableStatusSchema>;

/** `review.setStatus`: approve, request changes, reopen or close, as of the revision the person saw. */
export const ReviewSetStatusMutationSchema = z
  .object({
    type: z.literal('review.setStatus'),
    projectId: ProjectIdSchema,
    reviewId: ReviewRefSchema,
    status: SyncSettableStatusSchema,
    revision: RevisionSchema,
  })
  .strict();

/**
 * `review.comment`: a comment on lines of the revision the person saw (the body of `POST
 * /reviews/{id}/comments`). Written on the current revision, it is anchored as over REST; written
 * on an older one and sent with `anchorText`, it keeps that anchor and reads `outdated` when those
 * lines changed since (conflicts.ts, rule 3); without `anchorText` the current revision's lines are used.
 */
export const ReviewCommentMutationSchema = z
  .object({
    type: z.literal('review.comment'),
    projectId: ProjectIdSchema,
    reviewId: ReviewRefSchema,
    localId: LocalIdSchema,
    comment: z
      .object({
        path: commentShape.path,
        lineStart: commentShape.lineStart,
        lineEnd: commentShape.lineEnd,
        body: commentShape.body,
        parentId: commentShape.parentId,
      })
      .strict()
      .refine((c) => c.lineEnd >= c.lineStart, { path: ['lineEnd'], message: 'must not be before lineStart' }),
    revision: RevisionSchema,
    anchorText: z
      .string()
      .max(100_000)
      .optional()
      .describe('Lines lineStart..lineEnd (joined by \\n) as the person saw them; a comment on an older revision is anchored to them, and is outdated when they changed since'),
  })
  .strict();

/** One mutation of the outbox, discriminated by `type`. */
export const SyncMutationSchema = z.discriminatedUnion('type', [
  ReviewCreateMutationSchema,
  ReviewUpdateMutationSchema,
  ReviewSetStatusMutationSchema,
  ReviewCommentMutationSchema,
]);
export type SyncMutation = z.infer<typeof SyncMutationSchema>;
export type SyncMutationType = SyncMutation['type'];

/** The most mutations one `sync.push` takes. */
export const SYNC_PUSH_MAX_MUTATIONS = 100;

/**
 * `sync.push` input: the client's id (a UUID it keeps for its life) and mutations numbered 1, 2, 3…
 * in the order they were made. The server applies `seq === lastSeq + 1` only, answers stored results
 * for `seq <= lastSeq` and stops at a gap.
 */
export const SyncPushInputSchema = z.object({
  clientId: z.uuid(),
  mutations: z
    .array(z.object({ seq: z.number().int().min(1), mutation: SyncMutationSchema }))
    .min(1)
    .max(SYNC_PUSH_MAX_MUTATIONS),
});
export type SyncPushInput = z.infer<typeof SyncPushInputSchema>;

/**
 * The answer for one mutation: applied (`ok: true`, with the server ids it made or touched) or
 * refused by a rule (`ok: false`, an error code of the catalogue such as `conflict`, `forbidden`,
 * `not_found`, `validation_error`, and a message to show on the item). Both are final: the client
 * drops the mutation from its outbox and keeps the answer.
 */
export type SyncMutationResult =
  | { seq: number; ok: true; result: { reviewId?: string; commentId?: string; status?: string } }
  | { seq: number; ok: false; code: string; message: string };

/** `sync.push` answer: the last sequence number the server has applied for this client, and an answer for each mutation up to it (in the batch). */
export interface SyncPushResult {
  lastSeq: number;
  results: SyncMutationResult[];
}

/** `sync.pull` input: the cursor of the previous pull (null: everything), and optionally only these projects. */
export const SyncPullInputSchema = z.object({
  cursor: z.string().max(100).nullable(),
  projectIds: z.array(z.string().min(1).max(64)).max(200).optional(),
});
export type SyncPullInput = z.infer<typeof SyncPullInputSchema>;

/** `sync.pull` answer: the next cursor, the reviews changed since the given one, and the ids of reviews the user can no longer see. */
export interface SyncPullResult {
  cursor: string;
  reviews: ReviewSnapshot[];
  removedReviewIds: string[];
}

/**
 * One changed file of a snapshot; `truncated` when a side was over the size cap and left null.
 * A binary file (the change set holds it as base64, or its base version is not UTF-8 text) has
 * `binary: true` and `encoding: 'base64'`: `before` and `after` are then base64 of the bytes, and
 * `beforeSize`/`afterSize` give each side's bytes, so a diff shows "binary, N → M bytes" (and an
 * image) rather than lines. Text files have neither member.
 */
export interface ReviewSnapshotFile {
  path: string;
  change: 'added' | 'modified' | 'deleted';
  /** Content at the review's baseCommit (null when added, or past the cap). */
  before: string | null;
  /** Content in the change set (null when deleted, or past the cap). */
  after: string | null;
  truncated?: boolean;
  /** The file is bytes, not text. */
  binary?: true;
  /** How `before` and `after` are written when the file is binary. */
  encoding?: 'base64';
  /** Binary files: bytes at the base commit (null when added). */
  beforeSize?: number | null;
  /** Binary files: bytes in the change set (null when deleted). */
  afterSize?: number | null;
}

/**
 * A review as the desktop keeps it offline: the server's review object, its comments, and the
 * content of each changed file before (at baseCommit) and after (the change set).
 */
export interface ReviewSnapshot {
  review: Review;
  comments: ReviewComment[];
  files: ReviewSnapshotFile[];
}
