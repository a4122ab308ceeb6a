/**
 * The approval state machine (decisions.md section 9: a production deploy touching a gated path
 * pauses before the deploy step until approved, and fails with the reason if rejected). Every
 * allowed move is decided here and nowhere else, so REST routes, tRPC procedures and the desktop
 * app refuse the same moves with the same words:
 *
 * - `pending` --approve--> `pending` (an approval recorded, fewer than required) or `approved`
 *   (the required count of distinct approvers reached);
 * - `pending` --reject--> `rejected` (one rejection is enough; it carries a reason);
 * - `pending` --close--> `rejected` (the waiting build was cancelled: the system closes it);
 * - `approved` and `rejected` are final: any move from them is a 409 naming both states.
 *
 * Who: approving needs an eligible person (see the gate's eligible users and roles) who is not the
 * change's author and has not approved already (approvers are distinct users). Rejecting needs an
 * eligible person or the author (an author may withdraw their own change).
 */

/** Statuses of an approval. `approved` and `rejected` are final. */
export const APPROVAL_STATUSES = ['pending', 'approved', 'rejected'] as const;
export type ApprovalStatus = (typeof APPROVAL_STATUSES)[number];

/** What can be done to an approval: a person's `approve` or `reject`, or the system's `close` (the build was cancelled). */
export type ApprovalAction = 'approve' | 'reject' | 'close';

/** The person acting, as far as the rules care. */
export interface ApprovalActor {
  /** Whether they wrote the change being deployed. */
  isAuthor: boolean;
  /** Whether the gates' eligible users/roles (or, without lists, their role) let them approve. */
  isEligible: boolean;
  /** Whether they already approved this approval. */
  hasApproved: boolean;
}

/** Why a move was refused: `conflict` (409: not a move from this status, or already done) or `forbidden` (403: not this person's move). */
export interface ApprovalMoveRefusal {
  code: 'conflict' | 'forbidden';
  message: string;
}

/** The status an approve or reject leads to (for messages); `approve` may also stay `pending`. */
const TARGET: Record<ApprovalAction, ApprovalStatus> = { approve: 'approved', reject: 'rejected', close: 'rejected' };

/**
 * Checks a move on an approval.
 * @param actor the person acting; ignored for `close` (the system's move).
 * @returns null when allowed, else the refusal: 409 from a final status (naming both states) or for
 *   a second approval by the same person; 403 for the author approving, or a person who is not
 *   eligible.
 */
export function checkApprovalMove(from: ApprovalStatus, action: ApprovalAction, actor: ApprovalActor): ApprovalMoveRefusal | null {
  if (from !== 'pending') {
    return { code: 'conflict', message: `This approval is already "${from}"; it cannot become "${TARGET[action]}". A decided approval is final.` };
  }
  if (action === 'close') return null;
  if (action === 'approve') {
    if (actor.isAuthor) return { code: 'forbidden', message: 'The author of a change cannot approve its deploy; another eligible person must.' };
    if (!actor.isEligible) return { code: 'forbidden', message: 'You are not eligible to approve this deploy: its approval gates name other users or roles.' };
    if (actor.hasApproved) return { code: 'conflict', message: 'You already approved this deploy; approvals must come from distinct people.' };
    return null;
  }
  if (!actor.isEligible && !actor.isAuthor) {
    return { code: 'forbidden', message: 'You are not eligible to reject this deploy: its approval gates name other users or roles.' };
  }
  return null;
}

/**
 * The status after a move that {@link checkApprovalMove} allowed.
 * @param approvals distinct approvals recorded, this one included.
 * @param required approvals required (1..10).
 */
export function approvalStatusAfter(action: ApprovalAction, approvals: number, required: number): ApprovalStatus {
  if (action !== 'approve') return 'rejected';
  return approvals >= required ? 'approved' : 'pending';
}
