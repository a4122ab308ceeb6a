/**
 * What is new for me in the reviews of a project since I last opened each one (the in-app
 * notifications: the badge on the Reviews control and the marks of the Reviews list), computed on
 * this computer from the reviews as last pulled with the outbox laid over them, so it works offline.
 * A review that is merged, closed or not on the server yet has no news. News of a review clears
 * when I open it (a visit, review-visits.ts). A review has news when, since my last visit:
 * - it waits on my review: I am a requested reviewer or mentioned, it is open, and I never opened it
 *   or it has a newer revision;
 * - a comment of someone else mentions me (`mentions`, shared/src/collab/mentions.ts);
 * - someone else commented (a reply) on a review I take part in (author, requested reviewer, mentioned, or I commented);
 * - a suggestion I wrote was applied;
 * - on a review I wrote, a reviewer requested changes or approved it (its status is not the one I saw last).
 */
import type { ReviewComment } from '@quire/shared/api/reviews';
import type { ReviewVisit } from './review-visits';

/**
 * A review's news for me: `reasons` in words ("Waiting on your review", "Mentioned you", "2 new replies", "Suggestion applied",
 * "Changes requested", "Approved").
 */
export interface ReviewNews {
  reviewId: string;
  title: string;
  reasons: string[];
}

/** What {@link newsOf} reads of a review: the review as the core shows it, with its comments. */
export interface NewsInput {
  id: string;
  title: string;
  status: string;
  revision: number;
  localOnly: boolean;
  author: { id: string } | null;
  reviewers: Array<{ id: string }>;
  mentioned: Array<{ id: string }>;
  comments: Array<Pick<ReviewComment, 'author' | 'createdAt' | 'mentions' | 'suggestion'> & { pending: boolean }>;
}

/**
 * The news of one review for person `me` (user id) since `visit` (null: never opened here), or null when there is none.
 * Times compare as ISO 8601 strings of the server's clock; comments still pending in the outbox are mine and not news.
 */
export function newsOf(review: NewsInput, me: string, visit: ReviewVisit | null): ReviewNews | null {
  if (review.localOnly || review.status === 'merged' || review.status === 'closed') return null;
  const since = visit?.seenUpTo ?? '';
  const fromOthers = review.comments.filter((c) => !c.pending && c.author?.id !== me && c.createdAt > since);
  const requested = review.reviewers.some((p) => p.id === me) || review.mentioned.some((p) => p.id === me);
  const reasons: string[] = [];
  if (requested && review.status === 'open' && (visit === null || review.revision > visit.revision)) reasons.push('Waiting on your review');
  if (fromOthers.some((c) => (c.mentions ?? []).some((p) => p.id === me))) reasons.push('Mentioned you');
  const takesPart = requested || review.author?.id === me || review.comments.some((c) => c.author?.id === me);
  if (takesPart && fromOthers.length > 0) reasons.push(fromOthers.length === 1 ? '1 new reply' : `${fromOthers.length} new replies`);
  const applied = review.comments.filter((c) => c.author?.id === me && c.suggestion?.applied && (c.suggestion.appliedAt ?? '') > since).length;
  if (applied > 0) reasons.push(applied === 1 ? 'Suggestion applied' : `${applied} suggestions applied`);
  if (review.author?.id === me && review.status !== (visit?.status ?? 'open')) {
    if (review.status === 'changes_requested') reasons.push('Changes requested');
    if (review.status === 'approved') reasons.push('Approved');
  }
  return reasons.length > 0 ? { reviewId: review.id, title: review.title, reasons } : null;
}

/** The newest server time a person has seen in a review's comments: their creation and their suggestions' application ('' when none). */
export function newestSeen(comments: NewsInput['comments']): string {
  let newest = '';
  for (const c of comments) {
    if (c.pending) continue;
    if (c.createdAt > newest) newest = c.createdAt;
    const applied = c.suggestion?.appliedAt ?? '';
    if (applied > newest) newest = applied;
  }
  return newest;
}
