/**
 * Reviews (decisions.md section 9; interface-spec.md "Collaboration", reviews): a review wraps a
 * change set (file changes on a base commit of the project's branch, from the desktop app or an
 * integration) or a branch (its difference to the project's branch head, taken as a change set when
 * the review is opened), with a title, description, author, requested reviewers, comments
 * (review-comments.ts) and a status moved only through the shared state machine
 * (`@quire/shared/collab/review-status`). Opening a review, or replacing its change set, queues a
 * preview build of base + change set (builds.ts `queueReviewBuild`; the runner lays the change set
 * over the checkout, jobs/build-runner.ts) served at `review-<id>--<slug>-docs.<sites domain>`
 * (decisions.md section 4). Merging applies the change set to the branch head by three-way merge,
 * pushes it (git/merge-change-set.ts) and queues the production build of the merge commit.
 *
 * Who may do what (decisions.md section 2: collaboration reads `projects:read`, writes
 * `projects:write`): opening, editing and merging need `projects:write`. Reviewing (moving a review
 * to `approved` or `changes_requested`) follows the one rule of deciding
 * (`@quire/shared/collab/decision-rights`, services/decision-rights.ts): the person's current role is
 * reviewer or above, and an API key also holds `projects:write`. Commenting needs `projects:write`, a
 * reviewing role (`REVIEWING_ROLES`: a viewer only reads), or being the review's author or one of its
 * requested reviewers. The actor is `auth.userId` (the key's creator, or the signed-in user).
 *
 * A preview that cannot be queued because the organization's monthly build limit is reached leaves
 * `previewBuildId` null; the next change set update tries again. A preview queued while another
 * build of the project runs waits for it (it never makes opening a review fail).
 */
import { createHash } from 'node:crypto';
import { ApiError, invalidField } from '@quire/shared/errors';
import { newId } from '@quire/shared/ids';
import { hasPermission } from '@quire/shared/api/api-keys';
import { REVIEWING_ROLES, type Role } from '@quire/shared/api/members';
import type { CreateReviewBody, FileChangeKind, ListReviewsFilters, Review, UpdateReviewBody } from '@quire/shared/api/reviews';
import { bytesAsText, changeEntryBytes, checkChangeSet, type ChangeSetEntry, type FileChange } from '@quire/shared/collab/change-set';
import { encodeBase64 } from '@quire/shared/base64';
import { checkReviewMove, type ReviewStatus } from '@quire/shared/collab/review-status';
import { unresolvedThreadsReason } from '@quire/shared/collab/review-threads';
import type { AppContext } from '../context';
import { lockKey } from '../db/locks';
import type { RequestAuth } from '../access/request-auth';
import type { PageRequest } from '@quire/shared/api/common';
import { changedPaths, listFiles, readFileBytesAt, resolveRef, type ProjectRepo } from '../git/repo-reader';
import { mergeChangeSet } from '../git/merge-change-set';
import { loadGitCredential } from './git-credentials';
import { recordAudit } from './audit';
import { requireDecisionRight } from './decision-rights';
import { queueReviewBuild } from './builds';
import { getProjectForCaller, type ProjectRecord } from './projects';
import { getUsage } from './usage';
import { recordReviewUpdatedEvent } from './webhook-events';
import { peopleById, REVIEW_INCLUDE, toReviewDtos, type ReviewRow } from './review-dto';

/**
 * The change set of a review as the build lays it over its checkout (`content` null: delete the
 * file). No access check: for the build runner, which acts for the project itself.
 */
export async function reviewOverlay(db: AppContext['db'], reviewId: string): Promise<FileChange[]> {
  return asFileChanges(await db.prisma.reviewFile.findMany({ where: { reviewId }, select: FILE_CHANGE_SELECT, orderBy: { path: 'asc' } }));
}

/** The columns of a stored change (`ReviewFile`, `BuildOverlayFile`) that make a {@link FileChange}. */
export const FILE_CHANGE_SELECT = { path: true, content: true, encoding: true } as const;

/** Stored changes as {@link FileChange}s (the encoding column holds `utf-8` or `base64`). */
export function asFileChanges(rows: Array<{ path: string; content: string | null; encoding: string }>): FileChange[] {
  return rows.map((r) => ({ path: r.path, content: r.content, encoding: r.encoding === 'base64' ? 'base64' : 'utf-8' }));
}

/** The repository of a project. @throws ApiError invalid_request (field `repoUrl`) when it has none. */
export function repoOf(project: ProjectRecord): ProjectRepo {
  if (!project.repoUrl) throw invalidField('repoUrl', 'the project has no repository', 'The project has no repoUrl: connect a repository with PATCH /v1/projects/{projectId} first.');
  return { projectId: project.id, repoUrl: project.repoUrl };
}

/** A repository reader's `invalid_request` about a ref, renamed to the body field the ref came from. */
export function asField(err: unknown, field: string): unknown {
  if (err instanceof ApiError && err.code === 'invalid_request' && (err.details as { field?: string } | undefined)?.field === 'ref') {
    return new ApiError('invalid_request', err.message, { ...err.details, field });
  }
  return err;
}

/** Whether the caller may change what a review holds (open, edit, merge). */
function canWrite(auth: RequestAuth): boolean {
  return hasPermission(auth.permissions, 'projects:write');
}

/** 403 unless the caller has `projects:write`. */
function requireWrite(auth: RequestAuth, what: string): void {
  if (!canWrite(auth)) throw new ApiError('forbidden', `${what} needs the "projects:write" permission.`, { permission: 'projects:write' });
}

/**
 * 403 unless the caller may comment on the review: with `projects:write`, a reviewing role
 * (`REVIEWING_ROLES`), or as its author or one of its requested reviewers. Deciding a review is
 * another rule ({@link requireDecisionRight}).
 */
export function requireReviewAccess(auth: RequestAuth, review: { authorId: string | null; reviewerIds: readonly string[] }, what: string): void {
  if (canWrite(auth)) return;
  if (auth.role && REVIEWING_ROLES.includes(auth.role)) return;
  if (auth.userId && (auth.userId === review.authorId || review.reviewerIds.includes(auth.userId))) return;
  throw new ApiError('forbidden', `${what} needs the "projects:write" permission, or being a requested reviewer of the review.`, { permission: 'projects:write' });
}

/** Whether moving a review to `status` decides it (approves it or requests changes): see {@link requireDecisionRight}. */
export function isDecision(status: ReviewStatus): boolean {
  return status === 'approved' || status === 'changes_requested';
}

/** Throws the state machine's refusal of a move: 409 `conflict` or 403 `forbidden`, naming both states. */
function checkMove(from: ReviewStatus, to: ReviewStatus, isAuthor: boolean): void {
  const refusal = checkReviewMove(from, to, { isAuthor });
  if (refusal) throw new ApiError(refusal.code, refusal.message, { from, to });
}

/**
 * Checks a change set's paths and sizes (`@quire/shared/collab/change-set`); also used by change-set-previews.ts.
 * @throws ApiError invalid_request (field named) or payload_too_large (limit named).
 */
export function checkedChanges(entries: readonly ChangeSetEntry[], field = 'changes'): FileChange[] {
  const checked = checkChangeSet(entries, field);
  if (checked.ok) return checked.changes;
  const p = checked.problem;
  if (p.kind === 'invalid') throw new ApiError('invalid_request', `${p.field}: ${p.issue}.`, { field: p.field, issue: p.issue });
  throw new ApiError('payload_too_large', p.message, { field: p.field, limit: p.limit, max: p.max, actual: p.actual });
}

/** The `ReviewFile` rows of a review's change set. */
function reviewFileRows(reviewId: string, changes: ClassifiedChange[]) {
  return changes.map((c) => ({ reviewId, path: c.path, change: c.change, content: c.content, encoding: c.encoding }));
}

/** A change with how it differs from the base commit. */
export interface ClassifiedChange extends FileChange {
  change: FileChangeKind;
}

/**
 * Tells added from modified files against the base commit's tree; a deletion of a file the base
 * does not have, or a file where the base has a folder (or under a path the base has as a file), is refused.
 * @throws ApiError invalid_request naming `changes.<i>.path`.
 */
export async function classify(ctx: AppContext, repo: ProjectRepo, baseCommit: string, changes: FileChange[]): Promise<ClassifiedChange[]> {
  const files = new Set((await listFiles(ctx, repo, baseCommit)).map((f) => f.path));
  const folders = new Set<string>();
  for (const f of files) for (let i = f.indexOf('/'); i !== -1; i = f.indexOf('/', i + 1)) folders.add(f.slice(0, i));
  return changes.map((c, i) => {
    const field = `changes.${i}.path`;
    if (folders.has(c.path)) throw invalidField(field, `"${c.path}" is a folder at the base commit`);
    for (let j = c.path.indexOf('/'); j !== -1; j = c.path.indexOf('/', j + 1)) {
      if (files.has(c.path.slice(0, j))) throw invalidField(field, `"${c.path.slice(0, j)}" is a file at the base commit, not a folder`);
    }
    const exists = files.has(c.path);
    if (c.content === null && !exists) throw invalidField(field, `"${c.path}" does not exist at the base commit, so it cannot be deleted`);
    return { ...c, change: c.content === null ? 'deleted' : exists ? 'modified' : 'added' };
  });
}

/**
 * Checks requested reviewers: members of the caller's organization with a reviewing role
 * (`REVIEWING_ROLES`: a viewer only reads), not the author.
 * @throws ApiError invalid_request (field `reviewers`) naming the ids that are not.
 */
async function checkReviewers(ctx: AppContext, orgId: string, ids: readonly string[], authorId: string | null): Promise<void> {
  if (authorId && ids.includes(authorId)) throw invalidField('reviewers', 'lists the review\'s author, who cannot review their own review');
  if (ids.length === 0) return;
  const members = await ctx.db.prisma.membership.findMany({ where: { orgId, userId: { in: [...ids] } }, select: { userId: true, role: true } });
  const known = new Set(members.map((m) => m.userId));
  const unknown = ids.filter((id) => !known.has(id));
  if (unknown.length > 0) throw invalidField('reviewers', `${unknown.join(', ')} ${unknown.length === 1 ? 'is not a member' : 'are not members'} of the organization`);
  const viewers = members.filter((m) => !REVIEWING_ROLES.includes(m.role as Role)).map((m) => m.userId);
  if (viewers.length > 0) throw invalidField('reviewers', `${viewers.join(', ')} ${viewers.length === 1 ? 'has' : 'have'} the viewer role, which only reads; give them the reviewer role first`);
}

/** A review of the project with its reviewers' ids. */
export interface LoadedReview {
  project: ProjectRecord;
  review: ReviewRow;
  reviewerIds: string[];
}

/**
 * A review of a project the caller can see.
 * @throws ApiError not_found for an unknown project or review, or one of another project or organization.
 */
export async function loadReview(ctx: AppContext, auth: RequestAuth, projectId: string, reviewId: string): Promise<LoadedReview> {
  const project = await getProjectForCaller(ctx, auth, projectId);
  const review = await ctx.db.prisma.review.findUnique({ where: { id: reviewId }, include: { reviewers: { select: { userId: true } } } });
  if (!review || review.projectId !== projectId) throw new ApiError('not_found', `No review ${reviewId} in this project.`);
  const { reviewers, ...row } = review;
  return { project, review: row, reviewerIds: reviewers.map((r) => r.userId) };
}

/**
 * The text of `path` in the current revision of a review: the change set's content when the change
 * set holds it (null when it deletes it), else the file at the base commit (null when missing).
 * A binary file (base64 in the change set) reads as one line naming its size and SHA-256, so a
 * comment on it anchors to line 1 and is outdated once its bytes change.
 * @throws ApiError from the repository reader (unreachable repository, file too large).
 */
export async function reviewFileText(ctx: AppContext, project: ProjectRecord, review: ReviewRow, path: string): Promise<string | null> {
  const where = { reviewId_path: { reviewId: review.id, path } };
  const changed = await ctx.db.prisma.reviewFile.findUnique({ where, select: { content: true, encoding: true } });
  if (changed) return changed.encoding === 'base64' && changed.content !== null ? binaryStandIn(changeEntryBytes({ content: changed.content, encoding: 'base64' })!) : changed.content;
  const bytes = await readFileBytesAt(ctx, repoOf(project), review.baseCommit, path);
  return bytes === null ? null : (bytesAsText(bytes) ?? binaryStandIn(bytes));
}

/**
 * Whether `path` in the review's current revision is a binary file: given as base64 by the change set, or, when the change
 * set leaves it alone, bytes at the base commit that are not UTF-8 text. Suggested changes replace lines, so they take text only.
 */
export async function isBinaryReviewFile(ctx: AppContext, project: ProjectRecord, review: ReviewRow, path: string): Promise<boolean> {
  const changed = await ctx.db.prisma.reviewFile.findUnique({ where: { reviewId_path: { reviewId: review.id, path } }, select: { encoding: true } });
  if (changed) return changed.encoding === 'base64';
  const bytes = await readFileBytesAt(ctx, repoOf(project), review.baseCommit, path);
  return bytes !== null && bytesAsText(bytes) === null;
}

/** The one line a binary file reads as where text is needed (comment anchors): `binary file, <n> bytes, sha256 <hex>`. */
function binaryStandIn(bytes: Uint8Array): string {
  return `binary file, ${bytes.length} bytes, sha256 ${createHash('sha256').update(bytes).digest('hex')}`;
}

/** The REST form of one review. @throws ApiError not_found. */
export async function getReview(ctx: AppContext, auth: RequestAuth, projectId: string, reviewId: string): Promise<Review> {
  const { project } = await loadReview(ctx, auth, projectId, reviewId);
  const row = await ctx.db.prisma.review.findUniqueOrThrow({ where: { id: reviewId }, include: REVIEW_INCLUDE });
  return (await toReviewDtos(ctx, project, [row]))[0]!;
}

/**
 * A project's reviews, newest first, filtered by `status`, `author` (user id), `reviewer` (user
 * id of a requested reviewer), `mentioned` (user id a comment mentions, review-mentions.ts) and
 * `requestedFrom` (a requested reviewer or mentioned: "Requested from me").
 * @throws ApiError not_found for a project the caller cannot see.
 */
export async function listReviews(
  ctx: AppContext,
  auth: RequestAuth,
  projectId: string,
  filters: ListReviewsFilters,
  page: PageRequest,
): Promise<{ items: Review[]; total: number }> {
  const project = await getProjectForCaller(ctx, auth, projectId);
  const where = {
    projectId,
    ...(filters.status ? { status: filters.status } : {}),
    ...(filters.author ? { authorId: filters.author } : {}),
    ...(filters.reviewer ? { reviewers: { some: { userId: filters.reviewer } } } : {}),
    ...(filters.mentioned ? { mentions: { some: { userId: filters.mentioned } } } : {}),
    ...(filters.requestedFrom
      ? { OR: [{ reviewers: { some: { userId: filters.requestedFrom } } }, { mentions: { some: { userId: filters.requestedFrom } } }] }
      : {}),
  };
  const [rows, total] = await Promise.all([
    ctx.db.prisma.review.findMany({ where, include: REVIEW_INCLUDE, orderBy: [{ createdAt: 'desc' }, { id: 'desc' }], skip: page.skip, take: page.take }),
    ctx.db.prisma.review.count({ where }),
  ]);
  return { items: await toReviewDtos(ctx, project, rows), total };
}

/**
 * Queues the preview build of a review's current change set and records it on the review.
 * @returns the build id, or null when the monthly build limit is reached (logged; the next change set update tries again).
 */
async function queuePreview(ctx: AppContext, auth: RequestAuth, project: ProjectRecord, review: ReviewRow): Promise<string | null> {
  try {
    const build = await queueReviewBuild(ctx, auth, {
      projectId: project.id,
      orgId: project.orgId,
      reviewId: review.id,
      branch: review.branch,
      commitSha: review.baseCommit,
      isPreview: true,
    });
    await ctx.db.prisma.review.update({ where: { id: review.id }, data: { previewBuildId: build.id } });
    return build.id;
  } catch (err) {
    if (err instanceof ApiError && err.code === 'usage_limit_exceeded') {
      ctx.log.warn({ reviewId: review.id, projectId: project.id }, 'review preview not queued: the monthly build limit is reached');
      return null;
    }
    throw err;
  }
}

/**
 * The change set of a branch review: every file that differs between the base commit and the branch
 * head, with its content there (text, or base64 for a file that is not text: {@link bytesAsText}).
 */
async function branchChanges(ctx: AppContext, repo: ProjectRepo, baseCommit: string, headCommit: string): Promise<ClassifiedChange[]> {
  const diff = await changedPaths(ctx, repo, baseCommit, headCommit);
  const entries: ChangeSetEntry[] = [];
  for (const d of diff) {
    if (d.change === 'deleted') entries.push({ path: d.path, deleted: true });
    else {
      const bytes = await readFileBytesAt(ctx, repo, headCommit, d.path);
      // A symbolic link or submodule the diff lists reads as nothing: not part of a change set.
      if (bytes !== null) {
        const text = bytesAsText(bytes);
        entries.push(text !== null ? { path: d.path, content: text } : { path: d.path, content: encodeBase64(bytes), encoding: 'base64' });
      }
    }
    if (entries.length > 500) break; // checkChangeSet names the file limit
  }
  const changes = checkedChanges(entries, 'branch');
  const kinds = new Map(diff.map((d) => [d.path, d.change]));
  return changes.map((c) => ({ ...c, change: kinds.get(c.path) ?? 'modified' }));
}

/**
 * Opens a review (`POST /reviews`, 201), audited as `review.created`, and queues its preview.
 * A change set review starts on `baseCommit` (default the head of the project's branch); a branch
 * review takes the difference between the head of the project's branch and `branch` as its change set.
 * @throws ApiError not_found; forbidden (no `projects:write`); invalid_request (no repository, a bad
 *   or unknown path/branch/commit, reviewers who are not members, a deletion of a missing file);
 *   payload_too_large past the change set limits; service_unavailable when the repository cannot be read.
 * @param options.id the new review's id, chosen by the caller (the desktop sync derives it from the
 *   client's own id so a re-applied mutation finds its review; services/sync.ts); default a new random id.
 */
export async function createReview(
  ctx: AppContext,
  auth: RequestAuth,
  projectId: string,
  body: CreateReviewBody,
  options: { id?: string } = {},
): Promise<Review> {
  const project = await getProjectForCaller(ctx, auth, projectId);
  requireWrite(auth, 'Opening a review');
  const repo = repoOf(project);
  const pending = body.changes ? checkedChanges(body.changes) : null;
  const reviewers = body.reviewers ?? [];
  await checkReviewers(ctx, auth.orgId, reviewers, auth.userId);

  let baseCommit: string;
  let changes: ClassifiedChange[];
  let headBranch: string | null = null;
  if (pending) {
    baseCommit = await resolveRef(ctx, repo, body.baseCommit ?? project.repoBranch).catch((err: unknown) => {
      throw asField(err, body.baseCommit ? 'baseCommit' : 'repoBranch');
    });
    changes = await classify(ctx, repo, baseCommit, pending);
  } else {
    headBranch = body.branch!;
    if (headBranch === project.repoBranch) throw invalidField('branch', `is the project's branch; a branch review reviews another branch`);
    baseCommit = await resolveRef(ctx, repo, project.repoBranch).catch((err: unknown) => {
      throw asField(err, 'repoBranch');
    });
    const head = await resolveRef(ctx, repo, headBranch).catch((err: unknown) => {
      throw asField(err, 'branch');
    });
    changes = await branchChanges(ctx, repo, baseCommit, head);
  }

  const id = options.id ?? newId('review');
  const row = await ctx.db.prisma.$transaction(async (tx) => {
    const created = await tx.review.create({
      data: {
        id,
        projectId,
        title: body.title,
        description: body.description ?? '',
        status: 'open',
        authorId: auth.userId,
        source: headBranch ? 'branch' : 'changes',
        branch: project.repoBranch,
        headBranch,
        baseCommit,
      },
    });
    if (changes.length > 0) {
      await tx.reviewFile.createMany({ data: reviewFileRows(id, changes) });
    }
    if (reviewers.length > 0) await tx.reviewReviewer.createMany({ data: reviewers.map((userId) => ({ reviewId: id, userId })) });
    await keepRevision(tx, { reviewId: id, revision: 1, baseCommit, changes });
    await recordAudit(tx, {
      orgId: project.orgId,
      projectId,
      auth,
      action: 'review.created',
      resource: { type: 'review', id, name: body.title },
      metadata: { baseCommit, files: changes.length, reviewers, ...(headBranch ? { headBranch } : {}) },
    });
    return created;
  });
  await queuePreview(ctx, auth, project, row);
  return getReview(ctx, auth, projectId, id);
}

/**
 * Changes a review (`PATCH /reviews/{reviewId}`), audited as `review.updated` (`metadata.changes`
 * lists the fields; a status move adds `from` and `to`). `status: merged` is the merge
 * ({@link mergeReview}) and comes alone. `changes` replaces the change set (change set reviews
 * only): the revision goes up by one, the status back to `open`, and a new preview is queued.
 * @throws ApiError not_found; forbidden (a move that is not the caller's, or missing permission);
 *   conflict (a move the state machine refuses, naming both states; editing a merged review; a merge conflict with `details.paths`);
 *   invalid_request; payload_too_large.
 */
export async function updateReview(ctx: AppContext, auth: RequestAuth, projectId: string, reviewId: string, body: UpdateReviewBody): Promise<Review> {
  const { project, review } = await loadReview(ctx, auth, projectId, reviewId);
  const edits = (['title', 'description', 'reviewers', 'changes'] as const).filter((k) => body[k] !== undefined);
  if (body.status === 'merged') {
    if (edits.length > 0) throw invalidField('status', 'merging takes no other change: send status "merged" alone');
    await mergeReview(ctx, auth, projectId, reviewId);
    return getReview(ctx, auth, projectId, reviewId);
  }
  if (body.status !== undefined && body.changes !== undefined) {
    throw invalidField('status', 'a new change set puts the review back to "open"; change the status in another request');
  }
  const isAuthor = review.authorId !== null && review.authorId === auth.userId;
  const from = review.status as ReviewStatus;
  if (edits.length > 0) {
    requireWrite(auth, 'Editing a review');
    if (from === 'merged') throw new ApiError('conflict', 'A merged review is final; it cannot be edited.', { from });
  }
  if (body.status !== undefined) {
    if (isDecision(body.status)) await requireDecisionRight(ctx, auth, 'Reviewing');
    else requireWrite(auth, `Moving a review to "${body.status}"`);
    checkMove(from, body.status, isAuthor);
  }
  if (body.reviewers) await checkReviewers(ctx, auth.orgId, body.reviewers, review.authorId);

  let changes: ClassifiedChange[] | null = null;
  let baseCommit = review.baseCommit;
  if (body.changes) {
    if (review.source === 'branch') throw invalidField('changes', 'a branch review takes its changes from its branch; open a new review for a change set');
    const pending = checkedChanges(body.changes);
    const repo = repoOf(project);
    if (body.baseCommit) {
      baseCommit = await resolveRef(ctx, repo, body.baseCommit).catch((err: unknown) => {
        throw asField(err, 'baseCommit');
      });
    }
    changes = await classify(ctx, repo, baseCommit, pending);
  }

  const next: ReviewStatus = changes ? 'open' : (body.status ?? from);
  const updated = await ctx.db.prisma.$transaction(async (tx) => {
    // A merge reads the status and the change set under this lock (changeSetToMerge): it sees this write whole or not at all.
    await lockKey(tx, ctx.db.provider, reviewLockKey(reviewId));
    // Only from the status this request saw: a concurrent move wins, and this one is told.
    const { count } = await tx.review.updateMany({
      where: { id: reviewId, status: from },
      data: {
        ...(body.title !== undefined ? { title: body.title } : {}),
        ...(body.description !== undefined ? { description: body.description } : {}),
        ...(changes ? { baseCommit, revision: { increment: 1 } } : {}),
        status: next,
      },
    });
    if (count !== 1) throw new ApiError('conflict', 'The review changed while this request ran; read it again and retry.', { from });
    if (body.reviewers) {
      await tx.reviewReviewer.deleteMany({ where: { reviewId } });
      if (body.reviewers.length > 0) await tx.reviewReviewer.createMany({ data: body.reviewers.map((userId) => ({ reviewId, userId })) });
    }
    if (changes) {
      await tx.reviewFile.deleteMany({ where: { reviewId } });
      if (changes.length > 0) await tx.reviewFile.createMany({ data: reviewFileRows(reviewId, changes) });
    }
    const row = await tx.review.findUniqueOrThrow({ where: { id: reviewId } });
    if (changes) await keepRevision(tx, { reviewId, revision: row.revision, baseCommit, changes });
    await recordAudit(tx, {
      orgId: project.orgId,
      projectId,
      auth,
      action: 'review.updated',
      resource: { type: 'review', id: reviewId, name: row.title },
      metadata: {
        changes: [...edits, ...(body.status !== undefined ? ['status'] : []), ...(body.baseCommit ? ['baseCommit'] : [])],
        ...(next !== from ? { from, to: next } : {}),
        ...(changes ? { revision: row.revision, files: changes.length } : {}),
      },
    });
    return row;
  });
  if (changes) await queuePreview(ctx, auth, project, updated);
  if (changes || next !== from) await recordReviewUpdatedEvent(ctx, updated);
  return getReview(ctx, auth, projectId, reviewId);
}

/**
 * Keeps a revision of a review's change set (`ReviewRevision`; every revision is kept so that any
 * two can be compared, review-revisions.ts). A revision kept before is left as it is.
 */
async function keepRevision(
  tx: Pick<AppContext['db']['prisma'], 'reviewRevision'>,
  input: { reviewId: string; revision: number; baseCommit: string; changes: ClassifiedChange[] },
): Promise<void> {
  const files = JSON.stringify(input.changes.map((c) => ({ path: c.path, change: c.change, content: c.content, encoding: c.encoding })));
  await tx.reviewRevision.upsert({
    where: { reviewId_revision: { reviewId: input.reviewId, revision: input.revision } },
    create: { reviewId: input.reviewId, revision: input.revision, baseCommit: input.baseCommit, files },
    update: {},
  });
}

/** The key of a review's lock (db/locks.ts), held by a change to its status or change set and by a merge reading them. */
const reviewLockKey = (reviewId: string) => `review:${reviewId}`;

/** The key of a project's merge lock, in memory (`ctx.locks`) and in the database (`ctx.db.sessionLock`). */
const mergeLockKey = (projectId: string) => `merge:${projectId}`;

/**
 * Merges an approved review (decisions.md section 9): applies its change set to the head of its
 * branch by three-way merge, commits with the review's author as git author (the merging user when
 * the author was deleted), pushes without force using the project's git credential, marks the review
 * `merged` with `mergeCommit` and `mergedAt` (audited as `review.merged`), and queues the production
 * build of the merge commit (trigger `review`, `reviewId` set). Used by `PATCH {status: "merged"}`,
 * tRPC `reviews.merge` and scheduled publishing. Merges of one project run one at a time, across every
 * server process on the database: a second merge of a review waits, then finds it `merged` (409).
 * @throws ApiError not_found; forbidden (no `projects:write`, or a test key: test keys never change
 *   production); conflict (not `approved`, naming both states; unresolved threads in a project with
 *   `settings.requireResolvedThreads`, `details.reason` "unresolved_threads"; or a merge conflict, nothing changed,
 *   `details.paths` listing the conflicting paths); usage_limit_exceeded (the monthly build limit is
 *   reached: nothing is pushed); service_unavailable when the repository cannot be reached.
 */
export async function mergeReview(ctx: AppContext, auth: RequestAuth, projectId: string, reviewId: string): Promise<{ review: ReviewRow; buildId: string }> {
  const key = mergeLockKey(projectId);
  return ctx.locks.run(key, () => ctx.db.sessionLock(key, () => mergeNow(ctx, auth, projectId, reviewId)));
}

/**
 * The review and its change set as one consistent snapshot, read under the review's lock (which
 * {@link updateReview} holds while it writes), after checking that the caller may merge it now:
 * the files are those of the status checked, so an approval always covers what is pushed.
 * @throws ApiError conflict (the state machine's refusal, naming both states) or forbidden.
 */
async function changeSetToMerge(
  ctx: AppContext,
  auth: RequestAuth,
  project: ProjectRecord,
  reviewId: string,
): Promise<{ review: ReviewRow; files: FileChange[] }> {
  return ctx.db.prisma.$transaction(async (tx) => {
    await lockKey(tx, ctx.db.provider, reviewLockKey(reviewId));
    const review = await tx.review.findUniqueOrThrow({ where: { id: reviewId } });
    checkMove(review.status as ReviewStatus, 'merged', review.authorId !== null && review.authorId === auth.userId);
    if (project.settings.requireResolvedThreads) {
      const unresolved = await tx.reviewComment.count({ where: { reviewId, parentId: null, resolvedAt: null } });
      const reason = unresolvedThreadsReason(true, unresolved);
      if (reason) throw new ApiError('conflict', reason, { reason: 'unresolved_threads', unresolved });
    }
    const files = asFileChanges(await tx.reviewFile.findMany({ where: { reviewId }, select: FILE_CHANGE_SELECT, orderBy: { path: 'asc' } }));
    return { review, files };
  });
}

async function mergeNow(ctx: AppContext, auth: RequestAuth, projectId: string, reviewId: string): Promise<{ review: ReviewRow; buildId: string }> {
  const { project } = await loadReview(ctx, auth, projectId, reviewId);
  requireWrite(auth, 'Merging a review');
  if (auth.mode === 'test') throw new ApiError('forbidden', 'A test key never changes a production site, so it cannot merge a review.');
  const repo = repoOf(project);
  const builds = (await getUsage(ctx, project.orgId)).metrics.find((m) => m.metric === 'builds');
  if (builds && builds.used >= builds.limit) {
    throw new ApiError('usage_limit_exceeded', `The monthly build limit (${builds.limit}) is reached, so the merge could not be deployed; nothing was merged.`, { metric: 'builds', limit: builds.limit, used: builds.used });
  }
  const { review, files } = await changeSetToMerge(ctx, auth, project, reviewId);
  const people = await peopleById(ctx, [review.authorId, auth.userId]);
  const person = (review.authorId && people.get(review.authorId)) || (auth.userId && people.get(auth.userId)) || { name: 'Quire', email: 'quire@localhost' };
  const result = await mergeChangeSet({
    ctx,
    projectId,
    repoUrl: repo.repoUrl,
    branch: review.branch,
    baseCommit: review.baseCommit,
    changes: files,
    author: { name: person.name, email: person.email },
    message: `${review.title}\n\n${review.description ? `${review.description}\n\n` : ''}Review: ${reviewId}`,
    credential: await loadGitCredential(ctx, projectId),
  });
  if (result.status === 'conflict') {
    throw new ApiError('conflict', `The review's changes conflict with ${review.branch} in ${result.paths.join(', ')}; nothing was merged.`, { paths: result.paths });
  }
  const merged = await ctx.db.prisma.$transaction(async (tx) => {
    const { count } = await tx.review.updateMany({
      where: { id: reviewId, status: 'approved', revision: review.revision },
      data: { status: 'merged', mergeCommit: result.commitSha, mergedAt: new Date() },
    });
    if (count !== 1) {
      throw new ApiError('conflict', `The review changed while it was being merged: its approved revision ${review.revision} was pushed as ${result.commitSha}, and the review was not marked merged.`, {
        from: review.status,
        to: 'merged',
        mergeCommit: result.commitSha,
      });
    }
    await recordAudit(tx, {
      orgId: project.orgId,
      projectId,
      auth,
      action: 'review.merged',
      resource: { type: 'review', id: reviewId, name: review.title },
      metadata: { from: 'approved', to: 'merged', mergeCommit: result.commitSha, branch: review.branch, files: files.length },
    });
    return tx.review.findUniqueOrThrow({ where: { id: reviewId } });
  });
  await recordReviewUpdatedEvent(ctx, merged);
  const build = await queueReviewBuild(ctx, auth, {
    projectId,
    orgId: project.orgId,
    reviewId,
    branch: review.branch,
    commitSha: result.commitSha,
    isPreview: false,
  });
  return { review: merged, buildId: build.id };
}
