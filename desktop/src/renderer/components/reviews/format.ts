/** Small text helpers of the review screens. */
import type { ReviewStatus } from '@quire/shared/collab/review-status';

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
