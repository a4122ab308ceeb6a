import { useEffect, useState } from 'react';
import { useReviews } from '../../store/reviews-slice';
import { reviewsApi } from './api';
import type { ReviewNews } from './types';

/** How often the news of reviews is read again from the core (the core pulls from the server), in ms. */
const REFRESH_MS = 5000;

/** What the Reviews control and list show of the news: `count` reviews with news for me, and each one's reasons by review id. */
export interface ReviewNewsState {
  count: number;
  byReview: ReadonlyMap<string, string[]>;
}

/**
 * The news of a project's reviews for the signed-in person (core `reviews.news`: waiting on my review, mentions, new
 * replies, my suggestions applied, since I last opened each), read every few seconds and again when a review was opened or
 * the reviews changed; offline from the core's copy. `projectId` null (a local folder): none.
 */
export function useReviewNews(projectId: string | null): ReviewNewsState {
  const version = useReviews((s) => s.version);
  const newsVersion = useReviews((s) => s.newsVersion);
  const [news, setNews] = useState<ReviewNewsState>({ count: 0, byReview: new Map() });
  useEffect(() => {
    if (!projectId) {
      setNews({ count: 0, byReview: new Map() });
      return;
    }
    let stop = false;
    const load = () =>
      reviewsApi.news.query({ projectId }).then(
        (r: { count: number; items: ReviewNews[] }) => !stop && setNews({ count: r.count, byReview: new Map(r.items.map((i) => [i.reviewId, i.reasons])) }),
        () => undefined, // signed out or the project closed: the badge keeps what it had until the next read
      );
    void load();
    const timer = setInterval(load, REFRESH_MS);
    return () => {
      stop = true;
      clearInterval(timer);
    };
  }, [projectId, version, newsVersion]);
  return news;
}

/** The accessible description of the Reviews control's badge: "1 review has news for you", "3 reviews have news for you". */
export function newsDescription(count: number): string {
  return `${count} ${count === 1 ? 'review has' : 'reviews have'} news for you`;
}
