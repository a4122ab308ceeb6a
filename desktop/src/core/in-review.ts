/**
 * Which local edits an open review already carries, for the "Propose changes" dialog: after a
 * writer proposes, the same edits are still local (they stay until merged), and proposing them again
 * would open a duplicate review.
 */
import type { ReviewFileTexts } from './review-cache';

/** An open review a local edit is in: `same` when the review carries the file's current text (or its deletion). */
export interface FileInReview {
  path: string;
  reviewId: string;
  /** the review's title, for the hint "already in review: <title>" */
  title: string;
  /** true when the review's text of the file is the local one; false when the file was edited since */
  same: boolean;
}

/** An open review with the files it carries (its latest revision as this computer knows it). */
export interface OpenReviewFiles {
  id: string;
  title: string;
  files: readonly ReviewFileTexts[];
}

/**
 * For each locally changed file (`local`, as localChangeSet gives them), the open review carrying
 * it: one carrying the same text (a deletion counts when both delete the file) first, else the first
 * review listing the path, in the order of `reviews`. Files no review lists are left out.
 */
export function filesInReview(local: readonly ReviewFileTexts[], reviews: readonly OpenReviewFiles[]): FileInReview[] {
  const out: FileInReview[] = [];
  for (const file of local) {
    const listing = reviews.filter((r) => r.files.some((f) => f.path === file.path));
    const same = listing.find((r) => r.files.some((f) => f.path === file.path && sameChange(f, file)));
    const review = same ?? listing[0];
    if (review) out.push({ path: file.path, reviewId: review.id, title: review.title, same: same !== undefined });
  }
  return out;
}

/** True when a review's file and a local edit make the same change: both delete it, or both end with the same text. */
function sameChange(a: ReviewFileTexts, b: ReviewFileTexts): boolean {
  if (a.change === 'deleted' || b.change === 'deleted') return a.change === b.change;
  return a.after !== null && a.after === b.after;
}
