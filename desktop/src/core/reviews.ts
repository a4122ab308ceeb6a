/**
 * Offline review work of the desktop core (desktop-look.md "Reviews" and "Feel": propose,
 * review also offline; decisions.md section 9). Two layers:
 * - the server state as last pulled (`review_cache`, `review_comment_cache`, `review_file_cache`;
 *   review-cache.ts, written by the sync client from `sync.pull` snapshots), and
 * - the outbox (outbox.ts): what this person did and the server has not applied or not sent back yet.
 * What the renderer sees is the server state with the outbox laid over it (pending items as they will
 * be, refused ones with the server's reason, applied ones until the pull brings the server's copy),
 * the way PowerSync keeps local writes visible until the server confirms them.
 * Every action writes its mutation durably before it answers and then asks the sync client to push.
 */
import { randomUUID } from 'node:crypto';
import type { Review, ReviewComment, ReviewPerson } from '@quire/shared/api/reviews';
import { REVIEWING_ROLES, type Member, type Role } from '@quire/shared/api/members';
import { checkReviewMove, type ReviewStatus } from '@quire/shared/collab/review-status';
import { isCommentOutdated, linesOf } from '@quire/shared/sync/conflicts';
import type { SyncMutation } from '@quire/shared/sync/mutations';
import type { ChangeSetEntry } from '@quire/shared/collab/change-set';
import { CoreError } from './core-error';
import type { Outbox, OutboxItem } from './outbox';
import type { ReviewCache, ReviewFileTexts } from './review-cache';
import { isUnreachable, type ServerClient } from './server-client';
import type { LocalStore, SessionRecord } from './store';

/** A review as the core keeps it: the server's Review plus `pending` (a change of it waits in the outbox), `localOnly` (proposed here, not on the server yet: its id is the client's localId) and `problem` (the server's reason for refusing the latest change of it, else null). */
export type LocalReview = Review & { pending: boolean; localOnly: boolean; problem: string | null };

/** A comment as the core keeps it: `pending` until the server holds it; `problem` the refusal reason (the text is kept). */
export type LocalComment = ReviewComment & { pending: boolean; problem: string | null };

export type { ReviewFileTexts } from './review-cache';

/** What `reviews.get` answers. */
export type ReviewDetail = LocalReview & { comments: LocalComment[]; files: ReviewFileTexts[] };

/** A member who may be asked to review (`reviews.people`): a role of REVIEWING_ROLES (shared/src/api/members.ts). */
export interface Person {
  id: string;
  name: string;
  email: string;
  role: Role;
}

/** What an outbox item of a review.create or review.update shows until the server's copy is pulled. */
interface ChangeSetView {
  review?: Review;
  changes: Review['changes'];
  files: ReviewFileTexts[];
}

/** What an outbox item of a review.comment shows: the comment, and the text of its lines when written (rule 3). */
interface CommentView {
  comment: ReviewComment;
  anchorText: string | null;
}

/** What the review actions need, given by the composition root (compose.ts). */
export interface ReviewsDeps {
  store: LocalStore;
  /** the durable outbox the actions enqueue into (the sync client pushes it) */
  outbox: Outbox;
  /** the reviews as last pulled (the sync client writes it) */
  cache: ReviewCache;
  /** the signed-in session, or null */
  session(): SessionRecord | null;
  /** a client of the signed-in session's server, or null when signed out */
  client(): ServerClient | null;
  /** called after each queued mutation (the sync client pushes soon) */
  queued(): void;
}

const STATUS_VERB: Partial<Record<ReviewStatus, string>> = { approved: 'Approve', changes_requested: 'Request changes on', open: 'Reopen', closed: 'Close' };

/** The local review store and the review actions (the `reviews` procedures of reviews-router.ts). */
export class Reviews {
  private readonly outbox: Outbox;
  private readonly cache: ReviewCache;

  constructor(private readonly deps: ReviewsDeps) {
    this.outbox = deps.outbox;
    this.cache = deps.cache;
  }

  private get store(): LocalStore {
    return this.deps.store;
  }

  private requireSession(): SessionRecord {
    const s = this.deps.session();
    if (!s) throw new CoreError('UNAUTHORIZED', 'Sign in to a Quire server first.');
    return s;
  }

  private me(): ReviewPerson {
    const s = this.requireSession();
    return { id: s.userId, name: s.name, email: s.email };
  }

  /** The server id of a review or comment created offline once synced, else the id as given. */
  private resolve(id: string): string {
    return this.outbox.serverId(id) ?? id;
  }

  /**
   * The server state of `projectId` with the outbox laid over it. Comments and files are read for
   * `detailId` only (a resolved review id), so the list stays cheap.
   */
  private overlay(projectId: string, detailId: string | null): { reviews: Map<string, LocalReview>; comments: LocalComment[]; files: ReviewFileTexts[] } {
    const reviews = new Map<string, LocalReview>();
    for (const r of this.cache.reviews(projectId)) reviews.set(r.id, { ...r, pending: false, localOnly: false, problem: null });
    const comments: LocalComment[] = detailId ? this.cache.comments(detailId).map((c) => ({ ...c, pending: false, problem: null })) : [];
    let files: ReviewFileTexts[] = detailId ? this.cache.files(detailId) : [];
    const anchors: Array<{ comment: LocalComment; anchorText: string | null }> = [];

    for (const item of this.outbox.unsettled(projectId)) {
      const pending = item.state === 'pending';
      const problem = item.state === 'refused' ? item.reason : null;
      const m = item.mutation;
      if (m.type === 'review.create') {
        const serverId = item.result?.reviewId ?? this.outbox.serverId(m.localId);
        const id = serverId ?? m.localId;
        const view = item.view as ChangeSetView;
        if (reviews.has(id) || !view.review) continue;
        reviews.set(id, { ...view.review, id, pending, localOnly: !serverId, problem });
        if (detailId === id) files = view.files;
        continue;
      }
      const id = this.resolve(m.reviewId);
      const r = reviews.get(id);
      if (!r) continue;
      r.pending ||= pending;
      if (problem) r.problem = problem;
      if (m.type === 'review.update') {
        if (problem) continue;
        const view = item.view as ChangeSetView;
        if (m.patch.title !== undefined) r.title = m.patch.title;
        if (m.patch.description !== undefined) r.description = m.patch.description;
        if (m.patch.changes) {
          r.changes = view.changes;
          r.revision += 1;
          r.status = 'open';
          if (detailId === id) files = view.files;
        }
      } else if (m.type === 'review.setStatus') {
        if (!problem) r.status = m.status;
      } else {
        const view = item.view as CommentView;
        const commentId = item.result?.commentId ?? this.outbox.serverId(m.localId) ?? m.localId;
        if (item.state !== 'done') r.commentCount += item.state === 'pending' ? 1 : 0;
        if (detailId !== id || comments.some((c) => c.id === commentId)) continue;
        const comment: LocalComment = {
          ...view.comment,
          id: commentId,
          reviewId: id,
          parentId: view.comment.parentId ? this.resolve(view.comment.parentId) : null,
          pending,
          problem,
        };
        comments.push(comment);
        anchors.push({ comment, anchorText: view.anchorText });
      }
    }
    // rule 3 (shared/src/sync/conflicts.ts) for comments the server has not judged yet
    const current = detailId ? reviews.get(detailId) : undefined;
    for (const { comment, anchorText } of anchors) {
      if (!current || comment.revision >= current.revision || anchorText === null) continue;
      comment.outdated = isCommentOutdated(anchorText, files.find((f) => f.path === comment.path)?.after ?? null, comment.lineStart, comment.lineEnd);
    }
    return { reviews, comments, files };
  }

  /** `reviews.list`: the project's reviews as this computer knows them, the ones proposed here first, then newest first. */
  list(projectId: string): { items: LocalReview[] } {
    const items = [...this.overlay(projectId, null).reviews.values()];
    items.sort((a, b) => Number(b.localOnly) - Number(a.localOnly) || b.createdAt.localeCompare(a.createdAt));
    return { items };
  }

  /** `reviews.get`: one review with its comments and both texts of each changed file. @throws NOT_FOUND for a review this computer does not know */
  get(projectId: string, reviewId: string): ReviewDetail {
    const id = this.resolve(reviewId);
    const { reviews, comments, files } = this.overlay(projectId, id);
    const review = reviews.get(id);
    if (!review) throw new CoreError('NOT_FOUND', `There is no review ${reviewId} in this project on this computer.`);
    return { ...review, comments, files };
  }

  private visible(projectId: string, reviewId: string): LocalReview {
    const { comments: _c, files: _f, ...review } = this.get(projectId, reviewId);
    return review;
  }

  /**
   * The local edits of `paths` in the opened workspace as a change set: a file whose local text
   * differs from its base (added when it has no base), and a file of the base deleted here
   * (`{path, deleted: true}`, shared/src/api/reviews.ts ChangeEntrySchema). Unedited and binary files are not changes.
   * @throws NOT_FOUND when the project is not open; BAD_REQUEST naming `paths` for an unknown path or when nothing is edited
   */
  private localChanges(projectId: string, paths: string[]): { baseCommit: string; ref: string; entries: ChangeSetEntry[]; files: ReviewFileTexts[] } {
    const ws = this.store.workspace(projectId);
    if (!ws) throw new CoreError('NOT_FOUND', 'Open the project first.');
    const entries: ChangeSetEntry[] = [];
    const files: ReviewFileTexts[] = [];
    for (const p of [...new Set(paths)].sort()) {
      const gone = this.store.deletedFile(projectId, p);
      if (gone) {
        entries.push({ path: p, deleted: true });
        files.push({ path: p, change: 'deleted', before: gone.base, after: null });
        continue;
      }
      const f = this.store.file(projectId, p);
      if (!f) throw new CoreError('BAD_REQUEST', `paths: there is no file ${p} in this project.`);
      if (f.content === null || !f.modified || f.content === f.base) continue;
      entries.push({ path: p, content: f.content });
      files.push({ path: p, change: f.base === null ? 'added' : 'modified', before: f.base, after: f.content });
    }
    if (entries.length === 0) throw new CoreError('BAD_REQUEST', 'paths: none of these files has local edits to propose.');
    return { baseCommit: ws.commitSha, ref: ws.ref, entries, files };
  }

  private enqueue(mutation: SyncMutation, summary: string, view: unknown): OutboxItem {
    let item: OutboxItem;
    try {
      item = this.outbox.enqueue(mutation, summary, view);
    } catch (err) {
      throw new CoreError('BAD_REQUEST', (err as Error).message, { cause: err });
    }
    this.deps.queued();
    return item;
  }

  /** Reviewer ids as people, from the cached member list (unknown ids show as themselves). */
  private persons(ids: string[]): ReviewPerson[] {
    const known = new Map(this.cachedMembers().map((m) => [m.user.id, m.user]));
    return ids.map((id) => known.get(id) ?? { id, name: id, email: '' });
  }

  /**
   * `reviews.propose`: the local edits of `paths` become a change set review on the workspace's base
   * commit, queued as `review.create` and listed at once (local only until synced).
   */
  propose(input: { projectId: string; title: string; description?: string; reviewers?: string[]; paths: string[] }): LocalReview {
    const me = this.me();
    const { baseCommit, ref, entries, files } = this.localChanges(input.projectId, input.paths);
    const localId = randomUUID();
    const now = new Date().toISOString();
    const review: Review = {
      id: localId,
      title: input.title.trim(),
      description: input.description ?? '',
      status: 'open',
      author: me,
      reviewers: this.persons(input.reviewers ?? []),
      baseCommit,
      branch: ref,
      revision: 1,
      changes: files.map((f) => ({ path: f.path, change: f.change })),
      previewUrl: '',
      previewBuildId: null,
      commentCount: 0,
      createdAt: now,
      updatedAt: now,
    };
    const view: ChangeSetView = { review, changes: review.changes, files };
    this.enqueue(
      {
        type: 'review.create',
        projectId: input.projectId,
        localId,
        review: {
          title: input.title,
          ...(input.description !== undefined ? { description: input.description } : {}),
          ...(input.reviewers?.length ? { reviewers: input.reviewers } : {}),
          baseCommit,
          changes: entries,
        },
      },
      `Propose "${review.title}"`,
      view,
    );
    return this.visible(input.projectId, localId);
  }

  /** `reviews.updateChanges`: queues `review.update` with the current local edits of the review's paths. @throws CONFLICT for a merged or closed review */
  updateChanges(projectId: string, reviewId: string): LocalReview {
    this.requireSession();
    const r = this.visible(projectId, reviewId);
    if (r.status === 'merged' || r.status === 'closed') throw new CoreError('CONFLICT', `This review was ${r.status}; its changes can no longer be updated.`);
    const { baseCommit, entries, files } = this.localChanges(projectId, r.changes.map((c) => c.path));
    const view: ChangeSetView = { changes: files.map((f) => ({ path: f.path, change: f.change })), files };
    this.enqueue({ type: 'review.update', projectId, reviewId: r.id, patch: { changes: entries, baseCommit } }, `Update the changes of "${r.title}"`, view);
    return this.visible(projectId, r.id);
  }

  /**
   * `reviews.comment`: a comment on lines of the revision shown, queued as `review.comment`.
   * @returns the local comment (pending) @throws CONFLICT for a review known to be merged or closed
   */
  comment(input: { projectId: string; reviewId: string; path: string; lineStart: number; lineEnd: number; body: string; parentId?: string }): LocalComment {
    const me = this.me();
    const detail = this.get(input.projectId, input.reviewId);
    if (detail.status === 'merged' || detail.status === 'closed') throw new CoreError('CONFLICT', `This review was ${detail.status}; it takes no more comments.`);
    const localId = randomUUID();
    const file = detail.files.find((f) => f.path === input.path);
    const text = file ? (file.after ?? file.before) : null;
    const comment: ReviewComment = {
      id: localId,
      reviewId: detail.id,
      parentId: input.parentId ?? null,
      path: input.path,
      lineStart: input.lineStart,
      lineEnd: input.lineEnd,
      revision: detail.revision,
      body: input.body.trim(),
      author: me,
      outdated: false,
      createdAt: new Date().toISOString(),
    };
    const anchorText = text === null ? null : linesOf(text, input.lineStart, input.lineEnd);
    const view: CommentView = { comment, anchorText };
    this.enqueue(
      {
        type: 'review.comment',
        projectId: input.projectId,
        reviewId: detail.id,
        localId,
        comment: { path: input.path, lineStart: input.lineStart, lineEnd: input.lineEnd, body: input.body, ...(input.parentId ? { parentId: input.parentId } : {}) },
        revision: detail.revision,
        // the lines as the reviewer saw them: a comment written offline on an older revision reads outdated once they changed (conflicts.ts rule 3)
        ...(anchorText !== null ? { anchorText } : {}),
      },
      `Comment on ${input.path}:${input.lineStart} of "${detail.title}"`,
      view,
    );
    return this.get(input.projectId, detail.id).comments.find((c) => c.id === localId) ?? { ...comment, pending: true, problem: null };
  }

  /**
   * `reviews.approve` / `reviews.requestChanges` (and reopen, close): queues `review.setStatus` with
   * the revision shown; the local status changes at once (pending).
   * @throws CONFLICT or FORBIDDEN when the review state machine (shared/src/collab/review-status.ts) refuses the move here already
   */
  setStatus(projectId: string, reviewId: string, status: 'approved' | 'changes_requested' | 'open' | 'closed'): LocalReview {
    const me = this.me();
    const r = this.visible(projectId, reviewId);
    const refusal = checkReviewMove(r.status, status, { isAuthor: r.author?.id === me.id });
    if (refusal) throw new CoreError(refusal.code === 'forbidden' ? 'FORBIDDEN' : 'CONFLICT', refusal.message);
    this.enqueue({ type: 'review.setStatus', projectId, reviewId: r.id, status, revision: r.revision }, `${STATUS_VERB[status]} "${r.title}"`, null);
    return this.visible(projectId, r.id);
  }

  private membersKey(s: SessionRecord): string {
    return `members:${s.serverUrl}:${s.orgId}`;
  }

  private cachedMembers(): Member[] {
    const s = this.deps.session();
    return (s && this.store.cached<Member[]>(this.membersKey(s))) || [];
  }

  /**
   * `reviews.people`: members of the organization who may review (REVIEWING_ROLES), other than the
   * signed-in person, by name; from the server's `members.list`, cached for offline use.
   * @throws UNAUTHORIZED when signed out
   */
  async people(): Promise<Person[]> {
    const s = this.requireSession();
    const client = this.deps.client();
    if (client) {
      try {
        this.store.cache(this.membersKey(s), await client.members.list.query());
      } catch (err) {
        if (!isUnreachable(err)) throw new CoreError('UNAVAILABLE', (err as Error).message || 'The server refused to list the members.', { cause: err });
      }
    }
    return this.cachedMembers()
      .filter((m) => REVIEWING_ROLES.includes(m.role) && m.user.id !== s.userId)
      .map((m) => ({ id: m.user.id, name: m.user.name, email: m.user.email, role: m.role }))
      .sort((a, b) => a.name.localeCompare(b.name));
  }
}
