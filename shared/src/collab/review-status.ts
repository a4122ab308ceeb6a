/**
 * The review state machine (decisions.md section 9): `open` -> `changes_requested` | `approved`
 * -> `merged` | `closed`, with every allowed move listed here and nowhere else, so the server's
 * REST routes, its tRPC procedures and the desktop app's offline outbox refuse the same moves with
 * the same words. A refused move names both states; the review's author never approves their own
 * review nor requests changes on it (that is what reviewers do).
 */

/** Statuses of a review. `merged` is final; `closed` may be reopened. */
export const REVIEW_STATUSES = ['open', 'changes_requested', 'approved', 'merged', 'closed'] as const;
export type ReviewStatus = (typeof REVIEW_STATUSES)[number];

/** Who may make a move: a reviewer (anyone but the author), the author, or either. */
type Mover = 'reviewer' | 'author' | 'anyone';

/**
 * Every allowed move, by current status then next status. `merged` is reached only by merging an
 * approved review (the merge action, not a status edit). A review whose change set is updated goes
 * back to `open` (an approval is of the changes it saw).
 */
const MOVES: Readonly<Record<ReviewStatus, Partial<Record<ReviewStatus, Mover>>>> = {
  open: { changes_requested: 'reviewer', approved: 'reviewer', closed: 'anyone' },
  changes_requested: { open: 'author', approved: 'reviewer', closed: 'anyone' },
  approved: { changes_requested: 'reviewer', open: 'author', merged: 'anyone', closed: 'anyone' },
  merged: {},
  closed: { open: 'anyone' },
};

/** Why a move was refused: `conflict` (409: not a move from this status) or `forbidden` (403: not this person's move). */
export interface ReviewMoveRefusal {
  code: 'conflict' | 'forbidden';
  message: string;
}

/**
 * Checks a status change of a review.
 * @param actor `isAuthor`: whether the person moving the review wrote it.
 * @returns null when allowed, else the refusal with a message naming both states.
 */
export function checkReviewMove(from: ReviewStatus, to: ReviewStatus, actor: { isAuthor: boolean }): ReviewMoveRefusal | null {
  const mover = from === to ? undefined : MOVES[from][to];
  if (!mover) {
    return { code: 'conflict', message: `A review cannot go from "${from}" to "${to}".${from === 'merged' ? ' A merged review is final.' : ''}` };
  }
  if (mover === 'reviewer' && actor.isAuthor) {
    return { code: 'forbidden', message: `Only a reviewer other than the author can move a review from "${from}" to "${to}".` };
  }
  if (mover === 'author' && !actor.isAuthor) {
    return { code: 'forbidden', message: `Only the author can move a review from "${from}" to "${to}".` };
  }
  return null;
}

/** The statuses a review can move to from `from` by `actor` (for the UI's buttons). */
export function nextReviewStatuses(from: ReviewStatus, actor: { isAuthor: boolean }): ReviewStatus[] {
  return REVIEW_STATUSES.filter((to) => checkReviewMove(from, to, actor) === null);
}
