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
import type { Review, ReviewComment, ReviewPerson, ReviewRevision, Suggestion } from '@quire/shared/api/reviews';
import { hasPermission } from '@quire/shared/api/api-keys';
import { REVIEWING_ROLES, ROLE_PERMISSIONS, ROLES, type Member, type Role } from '@quire/shared/api/members';
import { checkReviewMove, type ReviewStatus } from '@quire/shared/collab/review-status';
import { unresolvedThreadsReason } from '@quire/shared/collab/review-threads';
import { applySuggestions, isSuggestionOutdated } from '@quire/shared/collab/suggestions';
import { mentionedIds } from '@quire/shared/collab/mentions';
import { isCommentOutdated, linesOf } from '@quire/shared/sync/conflicts';
import type { SyncMutation } from '@quire/shared/sync/mutations';
import { CoreError, serverError } from './core-error';
import { filesInReview, type FileInReview } from './in-review';
import { localChangeSet } from './local-changes';
import type { Outbox, OutboxItem } from './outbox';
import type { ReviewCache, ReviewFileTexts } from './review-cache';
import { isUnreachable, serverErrorCode, serverErrorDetails, type ServerClient } from './server-client';
import type { LocalStore, SessionRecord } from './store';
import { newestSeen, newsOf, type ReviewNews } from './review-news';
import { ReviewVisits, type ReviewVisit } from './review-visits';

/**
 * A review as the core keeps it: the server's Review plus `pending` (a change of it waits in the outbox), `localOnly` (proposed
 * here, not on the server yet: its id is the client's localId) and `problem` (the server's reason for refusing the latest change
 * of it, else null).
 */
export type LocalReview = Review & { pending: boolean; localOnly: boolean; problem: string | null };

/** A comment as the core keeps it: `pending` until the server holds it; `problem` the refusal reason (the text is kept). */
export type LocalComment = ReviewComment & { pending: boolean; problem: string | null };

export type { ReviewFileTexts } from './review-cache';

/**
 * What `reviews.get` answers: the review with its comments and files, `mergeBlock` (why the
 * signed-in person may not merge it: their role, {@link mergeRefusal}, or unresolved threads in a
 * project that requires them resolved, `unresolvedThreadsReason`; null when they may), `mergeBuildId`
 * (the production build a merge from this computer started, else null) and `revisions` (the kept
 * revisions of the change set as last pulled, oldest first, for "Compare with").
 */
export type ReviewDetail = LocalReview & {
  comments: LocalComment[];
  files: ReviewFileTexts[];
  mergeBlock: string | null;
  mergeBuildId: string | null;
  revisions: ReviewRevision[];
};

/**
 * What `reviews.merge` answers: merged (the review as the server now has it and the production
 * build the merge queued), or refused because the change set conflicts with the branch head
 * (`paths`: the conflicting files; nothing was merged).
 */
export type MergeOutcome =
  | { merged: true; review: LocalReview; buildId: string }
  | { merged: false; conflict: { paths: string[]; branch: string; message: string } };

/** The roles whose permissions include `projects:write` (shared/src/api/members.ts ROLE_PERMISSIONS): the ones that merge. */
const MERGING_ROLES: readonly Role[] = ROLES.filter((r) => hasPermission(ROLE_PERMISSIONS[r], 'projects:write'));

/**
 * Why a person with organization role `role` may not merge a review, or null when they may: the
 * server merges for `projects:write` (server/src/services/reviews.ts `mergeReview`; decisions.md
 * section 2: an editor also writes), which editors, admins and owners hold.
 */
export function mergeRefusal(role: string | null | undefined): string | null {
  if (role && MERGING_ROLES.includes(role as Role)) return null;
  const names = [...MERGING_ROLES].reverse(); // weakest first: "an editor, admin or owner"
  return `Only an ${names.slice(0, -1).join(', ')} or ${names.at(-1)} can merge a review${role ? `; your role (${role}) cannot` : ''}.`;
}

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

/** A pulled comment with the fields a cache written by an older version lacks. */
function withThreadFields(c: ReviewComment): ReviewComment {
  return { ...c, resolved: c.resolved ?? false, resolvedBy: c.resolvedBy ?? null, suggestion: c.suggestion ?? null, mentions: c.mentions ?? [] };
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
  /** pushes the outbox and pulls now, resolving when done (the sync client's `sync`) */
  flush(): Promise<void>;
}

/** The local cache key of the production build a merge from this computer started. */
const mergeBuildKey = (reviewId: string) => `merge-build:${reviewId}`;

const STATUS_VERB: Partial<Record<ReviewStatus, string>> = { approved: 'Approve', changes_requested: 'Request changes on', open: 'Reopen', closed: 'Close' };

/** The local review store and the review actions (the `reviews` procedures of reviews-router.ts). */
export class Reviews {
  private readonly outbox: Outbox;
  private readonly cache: ReviewCache;
  /** my last visit of each review (review-visits.ts) */
  readonly visits: ReviewVisits;

  constructor(private readonly deps: ReviewsDeps) {
    this.outbox = deps.outbox;
    this.cache = deps.cache;
    this.visits = new ReviewVisits({ store: deps.store, serverId: (id) => deps.outbox.serverId(id), localId: (id) => deps.outbox.localId(id) });
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
    for (const r of this.cache.reviews(projectId)) {
      const thread = { unresolvedCount: r.unresolvedCount ?? 0, resolvedThreadsRequired: r.resolvedThreadsRequired ?? false, mentioned: r.mentioned ?? [] };
      reviews.set(r.id, { ...r, ...thread, pending: false, localOnly: false, problem: null });
    }
    const comments: LocalComment[] = detailId ? this.cache.comments(detailId).map((c) => ({ ...withThreadFields(c), pending: false, problem: null })) : [];
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
      } else if (m.type === 'review.resolveThread') {
        const c = comments.find((x) => x.id === this.resolve(m.commentId));
        if (!c || problem || item.state === 'done') continue;
        if (c.resolved !== m.resolved && !c.parentId) r.unresolvedCount += m.resolved ? -1 : 1;
        c.resolved = m.resolved;
        c.resolvedBy = m.resolved ? this.me() : null;
      } else if (m.type === 'review.applySuggestions') {
        if (problem || item.state === 'done' || detailId !== id) continue;
        files = this.withSuggestions(files, comments, m.commentIds.map((x) => this.resolve(x)));
        r.revision += 1;
        r.status = 'open';
      } else {
        const view = item.view as CommentView;
        const commentId = item.result?.commentId ?? this.outbox.serverId(m.localId) ?? m.localId;
        if (item.state !== 'done') r.commentCount += item.state === 'pending' ? 1 : 0;
        if (!problem) for (const p of view.comment.mentions ?? []) if (!r.mentioned.some((x) => x.id === p.id)) r.mentioned = [...r.mentioned, p];
        if (detailId !== id || comments.some((c) => c.id === commentId)) continue;
        const comment: LocalComment = {
          ...withThreadFields(view.comment),
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
      if (!current || comment.revision >= current.revision || anchorText === null || comment.lineStart === null || comment.lineEnd === null) continue;
      comment.outdated = isCommentOutdated(anchorText, files.find((f) => f.path === comment.path)?.after ?? null, comment.lineStart, comment.lineEnd);
    }
    if (current && detailId) current.unresolvedCount = comments.filter((c) => !c.parentId && !c.resolved && !c.problem).length;
    return { reviews, comments, files };
  }

  /**
   * The files with the suggestions `ids` applied (shared/src/collab/suggestions.ts), and those suggestions marked applied and
   * resolved: what an applySuggestions waiting in the outbox shows. Unchanged when they no longer apply (the server then refuses).
   */
  private withSuggestions(files: ReviewFileTexts[], comments: LocalComment[], ids: string[]): ReviewFileTexts[] {
    const chosen = comments.filter((c) => ids.includes(c.id) && c.suggestion && c.path !== null && !c.suggestion.applied);
    const edits = chosen.map((c) => ({ id: c.id, path: c.path!, start: c.suggestion!.lines.start, end: c.suggestion!.lines.end, anchorText: c.suggestion!.original ?? '', text: c.suggestion!.text }));
    const texts = new Map(files.map((f) => [f.path, f.after ?? f.before]));
    const result = applySuggestions(edits, texts);
    if (!result.ok) return files;
    for (const c of chosen) {
      c.suggestion = { ...c.suggestion!, applied: true };
      c.resolved = true;
      c.outdated = false;
    }
    return files.map((f) => (result.texts.has(f.path) ? { ...f, after: result.texts.get(f.path)! } : f));
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
    const mergeBlock = mergeRefusal(this.deps.session()?.role) ?? unresolvedThreadsReason(review.resolvedThreadsRequired, review.unresolvedCount);
    return { ...review, comments, files, mergeBlock, mergeBuildId: this.store.cached<string>(mergeBuildKey(id)) ?? null, revisions: this.cache.revisions(id) };
  }

  /**
   * `reviews.visit`: records that I opened a review now (its revision and the newest comment time known), which clears its
   * news (review-news.ts). @returns my visit before this one (null: the first here), for "Compare with" since the last visit
   * @throws NOT_FOUND for a review this computer does not know
   */
  visit(projectId: string, reviewId: string): { previous: ReviewVisit | null } {
    const detail = this.get(projectId, reviewId);
    return { previous: this.visits.record(detail.id, { revision: detail.revision, seenUpTo: newestSeen(detail.comments), status: detail.status }) };
  }

  /**
   * `reviews.news`: what is new for me in the project's reviews since I last opened each (review-news.ts), from the
   * reviews as last pulled with the outbox laid over them (also offline): `count` reviews with news, and each one's reasons.
   * Empty when signed out.
   */
  news(projectId: string): { count: number; items: ReviewNews[] } {
    const me = this.deps.session()?.userId;
    if (!me) return { count: 0, items: [] };
    const items: ReviewNews[] = [];
    for (const r of this.list(projectId).items) {
      if (r.localOnly || r.status === 'merged' || r.status === 'closed') continue;
      const news = newsOf({ ...r, comments: this.overlay(projectId, r.id).comments }, me, this.visits.last(r.id));
      if (news) items.push(news);
    }
    return { count: items.length, items };
  }

  private visible(projectId: string, reviewId: string): LocalReview {
    const { comments: _c, files: _f, mergeBlock: _m, mergeBuildId: _b, revisions: _r, ...review } = this.get(projectId, reviewId);
    return review;
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

  /**
   * The members a comment body mentions (`@email`, `@display name`: shared/src/collab/mentions.ts, the server's own rule), from
   * the cached member list: what a comment written offline shows until the server's copy is pulled.
   */
  private mentionsIn(body: string): ReviewPerson[] {
    const members = this.cachedMembers().map((m) => m.user);
    const byId = new Map(members.map((m) => [m.id, m]));
    return mentionedIds(body, members).map((id) => byId.get(id)!);
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
    const { baseCommit, ref, entries, files } = localChangeSet(this.store, input.projectId, input.paths);
    const localId = randomUUID();
    const now = new Date().toISOString();
    const review: Review = {
      id: localId,
      title: input.title.trim(),
      description: input.description ?? '',
      status: 'open',
      author: me,
      reviewers: this.persons(input.reviewers ?? []),
      mentioned: [],
      baseCommit,
      branch: ref,
      revision: 1,
      changes: files.map((f) => ({ path: f.path, change: f.change })),
      previewUrl: '',
      previewBuildId: null,
      labels: [],
      commentCount: 0,
      unresolvedCount: 0,
      resolvedThreadsRequired: false,
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

  /**
   * `reviews.inReview`: the local edits an open review proposed by the signed-in person already
   * carries (in-review.ts `filesInReview`): reviews not merged or closed, proposed here (local only) or
   * authored by them, as the outbox and the last pull know them. Empty when signed out or nothing is edited.
   * @throws CoreError NOT_FOUND when the project is not open
   */
  inReview(projectId: string): FileInReview[] {
    if (!this.store.workspace(projectId)) throw new CoreError('NOT_FOUND', 'Open the project first.');
    const me = this.deps.session()?.userId;
    if (!me || this.store.changedPaths(projectId).length === 0) return [];
    let local: ReviewFileTexts[];
    try {
      local = localChangeSet(this.store, projectId).files;
    } catch {
      return []; // only binary or reverted files: nothing to propose
    }
    const open = this.list(projectId).items.filter((r) => r.status !== 'merged' && r.status !== 'closed' && (r.localOnly || r.author?.id === me));
    return filesInReview(local, open.map((r) => ({ id: r.id, title: r.title, files: this.overlay(projectId, r.id).files })));
  }

  /** `reviews.updateChanges`: queues `review.update` with the current local edits of the review's paths. @throws CONFLICT for a merged or closed review */
  updateChanges(projectId: string, reviewId: string): LocalReview {
    this.requireSession();
    const r = this.visible(projectId, reviewId);
    if (r.status === 'merged' || r.status === 'closed') throw new CoreError('CONFLICT', `This review was ${r.status}; its changes can no longer be updated.`);
    const { baseCommit, entries, files } = localChangeSet(this.store, projectId, r.changes.map((c) => c.path));
    const view: ChangeSetView = { changes: files.map((f) => ({ path: f.path, change: f.change })), files };
    this.enqueue({ type: 'review.update', projectId, reviewId: r.id, patch: { changes: entries, baseCommit } }, `Update the changes of "${r.title}"`, view);
    return this.visible(projectId, r.id);
  }

  /**
   * `reviews.comment`: a comment on lines of the revision shown, or on the whole review (no path and
   * no lines), or an answer (`parentId`; no path: it joins its thread); with `suggestion` (on lines)
   * a suggested change. Queued as `review.comment`.
   * @returns the local comment (pending) @throws CONFLICT for a review known to be merged or closed
   */
  comment(input: {
    projectId: string;
    reviewId: string;
    path?: string;
    lineStart?: number;
    lineEnd?: number;
    body: string;
    parentId?: string;
    suggestion?: Suggestion;
  }): LocalComment {
    const me = this.me();
    const detail = this.get(input.projectId, input.reviewId);
    if (detail.status === 'merged' || detail.status === 'closed') throw new CoreError('CONFLICT', `This review was ${detail.status}; it takes no more comments.`);
    const localId = randomUUID();
    const parent = input.parentId ? detail.comments.find((c) => c.id === this.resolve(input.parentId!)) : undefined;
    const onLines = input.path !== undefined && input.lineStart !== undefined && input.lineEnd !== undefined;
    const file = onLines ? detail.files.find((f) => f.path === input.path) : undefined;
    const text = file ? (file.after ?? file.before) : null;
    const anchorText = onLines && text !== null ? linesOf(text, input.lineStart!, input.lineEnd!) : null;
    const comment: ReviewComment = {
      id: localId,
      reviewId: detail.id,
      parentId: input.parentId ?? null,
      path: onLines ? input.path! : (parent?.path ?? null),
      lineStart: onLines ? input.lineStart! : (parent?.lineStart ?? null),
      lineEnd: onLines ? input.lineEnd! : (parent?.lineEnd ?? null),
      revision: detail.revision,
      body: input.body.trim(),
      author: me,
      outdated: false,
      resolved: false,
      resolvedBy: null,
      suggestion: input.suggestion ? { ...input.suggestion, applied: false, original: anchorText } : null,
      mentions: this.mentionsIn(input.body),
      createdAt: new Date().toISOString(),
    };
    const view: CommentView = { comment, anchorText };
    const where = onLines ? `${input.path}:${input.lineStart}` : 'the review';
    this.enqueue(
      {
        type: 'review.comment',
        projectId: input.projectId,
        reviewId: detail.id,
        localId,
        comment: {
          ...(onLines ? { path: input.path!, lineStart: input.lineStart!, lineEnd: input.lineEnd! } : {}),
          body: input.body,
          ...(input.parentId ? { parentId: input.parentId } : {}),
          ...(input.suggestion ? { suggestion: input.suggestion } : {}),
        },
        revision: detail.revision,
        // the lines as the reviewer saw them: a comment written offline on an older revision reads outdated once they changed (conflicts.ts rule 3)
        ...(anchorText !== null ? { anchorText } : {}),
      },
      `${input.suggestion ? 'Suggest a change' : 'Comment'} on ${where} of "${detail.title}"`,
      view,
    );
    return this.get(input.projectId, detail.id).comments.find((c) => c.id === localId) ?? { ...comment, pending: true, problem: null };
  }

  /**
   * `reviews.resolveThread`: resolves (or opens again) the thread of a comment, queued as
   * `review.resolveThread`; the thread folds at once (pending).
   * @throws NOT_FOUND for a comment this computer does not know; CONFLICT for a merged review
   */
  resolveThread(projectId: string, reviewId: string, commentId: string, resolved: boolean): LocalComment {
    this.me();
    const detail = this.get(projectId, reviewId);
    if (detail.status === 'merged') throw new CoreError('CONFLICT', 'This review was merged; its threads stay as they are.');
    const c = detail.comments.find((x) => x.id === this.resolve(commentId));
    if (!c) throw new CoreError('NOT_FOUND', `There is no comment ${commentId} in this review on this computer.`);
    const rootId = c.parentId ? this.resolve(c.parentId) : c.id;
    this.enqueue(
      { type: 'review.resolveThread', projectId, reviewId: detail.id, commentId: rootId, resolved },
      `${resolved ? 'Resolve' : 'Unresolve'} a thread of "${detail.title}"`,
      null,
    );
    return this.get(projectId, detail.id).comments.find((x) => x.id === rootId)!;
  }

  /**
   * `reviews.applySuggestions`: applies suggestions as the review's next revision (the server edits
   * the change set and resolves their threads), queued as `review.applySuggestions` and shown at once.
   * @throws CONFLICT when one is outdated here already (its lines read otherwise now: shared/src/collab/suggestions.ts) or
   *   applied, or the review is merged or closed; BAD_REQUEST naming a comment that is no suggestion
   */
  applySuggestions(projectId: string, reviewId: string, commentIds: string[]): LocalReview {
    this.me();
    const detail = this.get(projectId, reviewId);
    if (detail.status === 'merged' || detail.status === 'closed') throw new CoreError('CONFLICT', `This review was ${detail.status}; its changes can no longer be updated.`);
    for (const id of commentIds) {
      const c = detail.comments.find((x) => x.id === this.resolve(id));
      if (!c?.suggestion || c.path === null) throw new CoreError('BAD_REQUEST', `commentIds: ${id} is not a suggestion of this review.`);
      if (c.suggestion.applied) throw new CoreError('CONFLICT', 'This suggestion was applied already.');
      const file = detail.files.find((f) => f.path === c.path);
      const edit = { anchorText: c.suggestion.original ?? '', start: c.suggestion.lines.start, end: c.suggestion.lines.end };
      if (c.suggestion.original !== null && isSuggestionOutdated(edit, file ? (file.after ?? file.before) : null)) {
        throw new CoreError('CONFLICT', `This suggestion is outdated: lines ${edit.start}-${edit.end} of ${c.path} changed since it was written, so it is not applied.`);
      }
    }
    this.enqueue(
      { type: 'review.applySuggestions', projectId, reviewId: detail.id, commentIds: commentIds.map((id) => this.resolve(id)), revision: detail.revision },
      `Apply ${commentIds.length === 1 ? 'a suggestion' : `${commentIds.length} suggestions`} to "${detail.title}"`,
      null,
    );
    return this.visible(projectId, detail.id);
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

  /**
   * `reviews.merge`: merges an approved review on the server (`reviews.merge`: three-way merge onto
   * the branch head, pushed, then a production build of the merge commit; decisions.md section 9).
   * Needs the server: it is never queued in the outbox (a merge that fails later could not be
   * undone by the person who asked). Changes of the review still waiting in the outbox are sent
   * first. The server's copy of the review is kept at once; the production build's id is kept for
   * the review view (`mergeBuildId`).
   * @returns the merged review and the build, or the conflict (its paths) when the change set no longer applies
   * @throws CoreError FORBIDDEN for a role that cannot merge ({@link mergeRefusal}); PRECONDITION_FAILED
   *   while the review or a change of it is not on the server yet; CONFLICT (or FORBIDDEN) when the
   *   review state machine refuses the move here already (not approved), or threads are unresolved in a project that requires
   *   them resolved; UNAVAILABLE when the server
   *   cannot be reached (nothing was merged); the server's own refusals with its code and message
   */
  async merge(projectId: string, reviewId: string): Promise<MergeOutcome> {
    const me = this.me();
    const refusal = mergeRefusal(this.requireSession().role);
    if (refusal) throw new CoreError('FORBIDDEN', refusal);
    let r = this.visible(projectId, reviewId);
    if (r.localOnly) throw new CoreError('PRECONDITION_FAILED', 'This review is not on the server yet (it waits in the outbox); merge it once it is synced.');
    if (r.pending) {
      await this.deps.flush();
      r = this.visible(projectId, r.id);
      if (r.pending) throw new CoreError('PRECONDITION_FAILED', 'Your earlier changes to this review are still waiting to be sent to the server; merge it once they are synced.');
    }
    const move = checkReviewMove(r.status, 'merged', { isAuthor: r.author?.id === me.id });
    if (move) throw new CoreError(move.code === 'forbidden' ? 'FORBIDDEN' : 'CONFLICT', r.status === 'approved' ? move.message : `Only an approved review can be merged; this one is ${r.status.replace('_', ' ')}.`);
    const threads = unresolvedThreadsReason(r.resolvedThreadsRequired, r.unresolvedCount);
    if (threads) throw new CoreError('CONFLICT', threads);
    const client = this.deps.client();
    if (!client) throw new CoreError('UNAUTHORIZED', 'Sign in to a Quire server first.');
    let result: { review: Review; buildId: string };
    try {
      result = await client.reviews.merge.mutate({ projectId, reviewId: r.id });
    } catch (err) {
      const paths = serverErrorDetails(err)?.paths;
      if (serverErrorCode(err) === 'CONFLICT' && Array.isArray(paths)) {
        return { merged: false, conflict: { paths: paths.map(String), branch: r.branch, message: (err as Error).message } };
      }
      throw serverError(err, 'Merging needs the Quire server, which cannot be reached now. Nothing was merged; try again once you are online.');
    }
    this.cache.putReview(projectId, result.review);
    this.store.cache(mergeBuildKey(r.id), result.buildId);
    this.deps.queued();
    return { merged: true, review: this.visible(projectId, r.id), buildId: result.buildId };
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
