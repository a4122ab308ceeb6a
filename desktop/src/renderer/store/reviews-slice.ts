import { create } from 'zustand';

/** Which reviews the Reviews list shows: written by me, with me asked to review, or all. */
export type ReviewFilter = 'mine' | 'requested' | 'all';
/** How a changed page of a review is shown. */
export type DiffMode = 'rendered' | 'source';
/** Lines of a changed file that a new comment will be written on (1-based, inclusive). */
export interface CommentTarget {
  path: string;
  lineStart: number;
  lineEnd: number;
}

/**
 * The review screens' state (a zustand slice beside app-store.ts). Ids and flags only: review
 * texts, comments and diffs are read from the core when shown, never kept here (architecture.md).
 * `version` goes up after each change the user makes and whenever the sync status moved, so that
 * lists and views read the core again.
 */
export interface ReviewsSlice {
  filter: ReviewFilter;
  /** the review open in the editor area, or null */
  openReviewId: string | null;
  /** the changed file shown in the open review */
  openReviewPath: string | null;
  diffMode: DiffMode;
  commentTarget: CommentTarget | null;
  proposeOpen: boolean;
  version: number;
  /** goes up when a review was opened (its news cleared): the Reviews badge reads the news again */
  newsVersion: number;
  setFilter(filter: ReviewFilter): void;
  openReview(reviewId: string | null): void;
  openReviewFile(path: string | null): void;
  setDiffMode(mode: DiffMode): void;
  setCommentTarget(target: CommentTarget | null): void;
  setProposeOpen(open: boolean): void;
  /** marks the reviews and the sync status as changed (they are read again) */
  bump(): void;
  /** marks the news of reviews as changed (a review was opened) */
  bumpNews(): void;
  /** forgets everything (sign out, another project) */
  reset(): void;
}

const initial = { filter: 'all' as ReviewFilter, openReviewId: null, openReviewPath: null, diffMode: 'rendered' as DiffMode, commentTarget: null, proposeOpen: false };

/** The review screens' store. */
export const useReviews = create<ReviewsSlice>()((set) => ({
  ...initial,
  version: 0,
  newsVersion: 0,
  setFilter: (filter) => set({ filter }),
  openReview: (openReviewId) => set({ openReviewId, openReviewPath: null, commentTarget: null }),
  openReviewFile: (openReviewPath) => set({ openReviewPath, commentTarget: null }),
  setDiffMode: (diffMode) => set({ diffMode }),
  setCommentTarget: (commentTarget) => set({ commentTarget }),
  setProposeOpen: (proposeOpen) => set({ proposeOpen }),
  bump: () => set((s) => ({ version: s.version + 1 })),
  bumpNews: () => set((s) => ({ newsVersion: s.newsVersion + 1 })),
  reset: () => set((s) => ({ ...initial, version: s.version + 1 })),
}));
