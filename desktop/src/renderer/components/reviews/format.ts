/** Small text helpers of the review screens. */
import type { ReviewStatus } from '@quire/shared/collab/review-status';
import { AGENT_REVIEW_LABEL } from '@quire/shared/api/agent-runs';

const STATUS_LABELS: Record<ReviewStatus, string> = {
  open: 'Open',
  changes_requested: 'Changes requested',
  approved: 'Approved',
  merged: 'Merged',
  closed: 'Closed',
};

/** A review status for people ("Changes requested"). */
export function statusLabel(status: ReviewStatus): string {
  return STATUS_LABELS[status] ?? status;
}

/** How long ago an ISO time was, in words ("just now", "5 min ago", "3 h ago", "2 d ago"). */
export function age(iso: string, now = Date.now()): string {
  const s = Math.max(0, Math.round((now - Date.parse(iso)) / 1000));
  if (!Number.isFinite(s) || s < 45) return 'just now';
  if (s < 3600) return `${Math.round(s / 60)} min ago`;
  if (s < 86_400) return `${Math.round(s / 3600)} h ago`;
  return `${Math.round(s / 86_400)} d ago`;
}

/** "line 4" or "lines 4-7". */
export function linesLabel(lineStart: number, lineEnd: number): string {
  return lineStart === lineEnd ? `line ${lineStart}` : `lines ${lineStart}-${lineEnd}`;
}

/**
 * Who opened a review, for the list: the author's name; "Docs agent" for a review the docs agent
 * opened (label `agent`, no author: decisions.md section 11); "you" for a local review not synced yet.
 * `labels` may be missing on reviews cached before labels existed.
 */
export function openedBy(review: { author: { name: string } | null; labels?: readonly string[] }): string {
  if (review.author) return review.author.name;
  return (review.labels ?? []).includes(AGENT_REVIEW_LABEL) ? 'Docs agent' : 'you';
}
