import type { ReviewDetail, ReviewFileTexts } from './types';

/** The side a diff compares the current revision with: the branch the review was written on (0), or a kept revision. */
export type CompareBase = number;

/**
 * The revisions the current one can be compared with ("Compare with"): the base (0, the branch)
 * and every kept revision older than the current one, newest first.
 */
export function compareChoices(review: Pick<ReviewDetail, 'revision' | 'revisions'>): Array<{ value: CompareBase; label: string }> {
  const kept = review.revisions.filter((r) => r.revision < review.revision).map((r) => r.revision).sort((a, b) => b - a);
  return [...kept.map((n) => ({ value: n, label: `Revision ${n}${n === review.revision - 1 ? ' (previous)' : ''}` })), { value: 0, label: 'Base (the branch)' }];
}

/**
 * The default base of the comparison: since my last visit (`lastVisit`, the revision I saw then; desktop core
 * review-visits.ts). An older kept revision I saw: that one. The current one (nothing new since): the previous revision
 * when kept. Never opened here (`null`): the branch, since everything is new to me. Otherwise the branch.
 */
export function defaultCompareBase(review: Pick<ReviewDetail, 'revision' | 'revisions'>, lastVisit: number | null): CompareBase {
  const kept = (n: number) => review.revisions.some((r) => r.revision === n);
  if (lastVisit === null) return 0;
  if (lastVisit < review.revision && kept(lastVisit)) return lastVisit;
  return kept(review.revision - 1) ? review.revision - 1 : 0;
}

/**
 * The text of a changed file at the chosen base: the branch's text (`file.before`) for 0, else the
 * file as that revision held it (null when it deleted it), or the branch's text when that revision
 * did not change the file.
 */
export function textAtBase(review: Pick<ReviewDetail, 'revisions'>, file: ReviewFileTexts, base: CompareBase): string | null {
  if (base === 0) return file.before;
  const kept = review.revisions.find((r) => r.revision === base)?.files.find((f) => f.path === file.path);
  return kept ? kept.content : file.before;
}
