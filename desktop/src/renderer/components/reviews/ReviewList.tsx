import { useEffect, useState } from 'react';
import { errorMessage } from '../../trpc';
import { useApp } from '../../store/app-store';
import { useReviews, type ReviewFilter } from '../../store/reviews-slice';
import { reviewsApi } from './api';
import { age, openedBy, statusLabel } from './format';
import { AGENT_REVIEW_LABEL } from '@quire/shared/api/agent-runs';
import { Icon } from './icons';
import { PendingBadge } from './ReviewView';
import type { LocalReview } from './types';
import './reviews.css';

/** How often the list is read again from the core (the core pulls from the server), in ms. */
const REFRESH_MS = 5000;

const FILTERS: { id: ReviewFilter; label: string }[] = [
  { id: 'mine', label: 'Mine' },
  { id: 'requested', label: 'Requested from me' },
  { id: 'all', label: 'All' },
];

const sameEmail = (a: string | undefined | null, b: string | undefined | null) => !!a && !!b && a.toLowerCase() === b.toLowerCase();

/**
 * Whether a review passes a filter for the person signed in (by e-mail, which the session knows). "Requested from me": I am a
 * requested reviewer, or a comment mentions me (`mentioned`, as the server's `GET /reviews?requestedFrom=` finds it).
 */
export function passesFilter(review: Pick<LocalReview, 'author' | 'localOnly' | 'reviewers' | 'mentioned'>, filter: ReviewFilter, me: string | null): boolean {
  if (filter === 'mine') return sameEmail(review.author?.email, me) || (review.localOnly && review.author === null);
  if (filter === 'requested') return review.reviewers.some((r) => sameEmail(r.email, me)) || (review.mentioned ?? []).some((r) => sameEmail(r.email, me));
  return true;
}

/** Whether a review is finished (merged or closed): it leaves the list of open reviews. */
export function isFinished(review: Pick<LocalReview, 'status'>): boolean {
  return review.status === 'merged' || review.status === 'closed';
}

/**
 * The Reviews view (desktop-look.md "Reviews": it lists open reviews): a list named "Reviews" of the
 * project's unfinished reviews as the core keeps them (also offline), newest first, filtered by
 * "Mine", "Requested from me" (requested reviewer or mentioned) or "All"; merged and closed ones only after "Show merged and
 * closed". Each item (named by the review's title) shows its status chip, author, age, comment count, what is new for me since
 * I last opened it (`news`: "New: Mentioned you, 2 new replies"), a pending badge while something waits in the outbox and the
 * reason when the server refused it.
 */
export function ReviewList({ projectId, news = new Map() }: { projectId: string; news?: ReadonlyMap<string, string[]> }) {
  const me = useApp((s) => s.session?.user?.email ?? null);
  const { filter, setFilter, openReviewId, openReview, version } = useReviews();
  const [items, setItems] = useState<LocalReview[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [showFinished, setShowFinished] = useState(false);

  useEffect(() => {
    let stop = false;
    const load = () =>
      reviewsApi.list.query({ projectId }).then(
        (r) => {
          if (stop) return;
          setItems(r.items);
          setError(null);
        },
        (err: unknown) => !stop && setError(errorMessage(err)),
      );
    void load();
    const timer = setInterval(load, REFRESH_MS);
    return () => {
      stop = true;
      clearInterval(timer);
    };
  }, [projectId, version]);

  const matching = (items ?? []).filter((r) => passesFilter(r, filter, me));
  const finished = matching.filter(isFinished).length;
  const shown = matching.filter((r) => showFinished || !isFinished(r)).sort((a, b) => b.updatedAt.localeCompare(a.updatedAt));
  return (
    <div className="review-list-panel">
      <div className="review-filters" role="group" aria-label="Show reviews">
        {FILTERS.map((f) => (
          <button key={f.id} type="button" aria-pressed={filter === f.id} onClick={() => setFilter(f.id)}>
            {f.label}
          </button>
        ))}
      </div>
      {error && <p role="alert">{error}</p>}
      {!items && !error && <p className="note">Loading reviews...</p>}
      <ul role="list" aria-label="Reviews" className="review-list">
        {shown.map((r) => (
          <li key={r.id} aria-label={r.title} className={`review-item${r.id === openReviewId ? ' selected' : ''}`}>
            <button type="button" onClick={() => openReview(r.id)} aria-current={r.id === openReviewId ? 'true' : undefined}>
              <span className="review-item-title">{r.title}</span>
              <span className="review-item-meta">
                <span className={`status-chip status-${r.status}`}>{statusLabel(r.status)}</span>
                {(r.labels ?? []).map((label) => (
                  <span key={label} className="label-chip" aria-label={`Label: ${label}`} title={label === AGENT_REVIEW_LABEL ? 'Opened by the docs agent' : label}>
                    {label}
                  </span>
                ))}
                <span>{openedBy(r)}</span>
                <span className="muted">{age(r.updatedAt)}</span>
                <span aria-label={`${r.commentCount} comments`} title={`${r.commentCount} comments`}>
                  <Icon name="comment" size={12} /> {r.commentCount}
                </span>
                {r.pending && <PendingBadge />}
              </span>
              {news.get(r.id) && <span className="review-item-news">New: {news.get(r.id)!.join(', ')}</span>}
              {r.problem && <span className="review-item-problem">Refused: {r.problem}</span>}
            </button>
          </li>
        ))}
      </ul>
      {items && shown.length === 0 && (
        <p className="note">{finished > 0 ? 'No open reviews.' : filter === 'all' ? 'No reviews in this project yet.' : 'No reviews match this filter.'}</p>
      )}
      {(finished > 0 || showFinished) && (
        <button type="button" className="link" onClick={() => setShowFinished((v) => !v)}>
          {showFinished ? 'Hide merged and closed' : `Show merged and closed (${finished})`}
        </button>
      )}
    </div>
  );
}
