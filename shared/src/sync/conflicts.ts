/**
 * The written conflict rules of offline work (decisions.md section 9: the mutations and conflict
 * rules of the desktop app's sync live in `shared/sync`). The server applies them to every pushed
 * mutation and answers a refusal with the reason; the desktop core applies the same functions to
 * its offline copy, shows the reason on the item and keeps the person's text. Nothing is dropped
 * silently:
 * 1. An approval, a change request or a comment on a review that was merged or closed meanwhile is
 *    refused, naming who did it and when ({@link endedReviewRefusal}).
 * 2. An approval of an older revision than the current one (the change set changed since the
 *    reviewer saw it) is refused ({@link staleRevisionRefusal}); a change request still counts.
 * 3. A comment on lines that read otherwise in a later revision is outdated ({@link isCommentOutdated}).
 * 4. A page edited both locally and on the server is merged three ways; a real conflict gives the
 *    regions for a merge view ({@link mergePage}).
 * Pure functions: no I/O, no clock, safe in the server, the desktop core and the renderer.
 */
import { diff3Merge } from 'node-diff3';
import type { ReviewStatus } from '../collab/review-status';

/** What a person did on a review that the rules judge. */
export type ReviewAction = 'approve' | 'request_changes' | 'comment';

/** Why a mutation was refused: always `conflict` (409), the rule that refused it, and the words to show on the item. */
export interface SyncRefusal {
  code: 'conflict';
  rule: 'review_ended' | 'stale_revision';
  message: string;
}

/** A review as the rules need it; `endedBy` (a person's name) and `endedAt` (ISO 8601) say who merged or closed it and when, when known. */
export interface ReviewState {
  status: ReviewStatus;
  revision: number;
  endedBy?: string | null;
  endedAt?: string | null;
}

const ACTION_NOUN: Record<ReviewAction, string> = { approve: 'approval', request_changes: 'change request', comment: 'comment' };

/**
 * The action a status move is, for the rules: `approved` → approve, `changes_requested` → request_changes; other moves (open,
 * closed) are not judged here (null).
 */
export function actionOfStatus(status: string): ReviewAction | null {
  if (status === 'approved') return 'approve';
  if (status === 'changes_requested') return 'request_changes';
  return null;
}

/** `2026-05-01T14:02:09.000Z` → `2026-05-01 14:02 UTC` (times are shown in UTC: server and client may be in different zones). */
export function formatWhen(iso: string): string {
  const m = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2})/.exec(iso);
  return m ? `${m[1]} ${m[2]} UTC` : iso;
}

/**
 * Rule 1: an approval, change request or comment on a review that is now `merged` or `closed` is
 * refused. The message names what happened, who and when, e.g. "The review was merged by Ana at
 * 2026-05-01 14:02 UTC; your comment was kept on this device and not posted."
 * @returns the refusal, or null when the review is still under review.
 */
export function endedReviewRefusal(action: ReviewAction, review: Pick<ReviewState, 'status' | 'endedBy' | 'endedAt'>): SyncRefusal | null {
  if (review.status !== 'merged' && review.status !== 'closed') return null;
  const who = review.endedBy ? ` by ${review.endedBy}` : '';
  const when = review.endedAt ? ` at ${formatWhen(review.endedAt)}` : '';
  return {
    code: 'conflict',
    rule: 'review_ended',
    message: `The review was ${review.status}${who}${when}; your ${ACTION_NOUN[action]} was kept on this device and not ${action === 'comment' ? 'posted' : 'applied'}.`,
  };
}

/**
 * Rule 2: an approval is of the changes the reviewer saw; when the review's revision is newer than
 * `seenRevision` (its change set was replaced since), the approval is refused: "The review changed
 * since you reviewed it (you saw revision 1, it is now at revision 2); look at the new changes and
 * approve again." Change requests and comments are not refused by this rule (a comment on changed
 * lines becomes outdated, rule 3).
 * @returns the refusal, or null.
 */
export function staleRevisionRefusal(action: ReviewAction, seenRevision: number, currentRevision: number): SyncRefusal | null {
  if (action !== 'approve' || seenRevision >= currentRevision) return null;
  return {
    code: 'conflict',
    rule: 'stale_revision',
    message: `The review changed since you reviewed it (you saw revision ${seenRevision}, it is now at revision ${currentRevision}); your approval was not applied. Look at the new changes and approve again.`,
  };
}

/**
 * Rules 1 and 2 together, in that order, for an action made on `seenRevision` of a review now in `review`'s state.
 * @returns the first refusal, or null when the action may go on to the usual checks (permissions, the state machine).
 */
export function checkReviewAction(action: ReviewAction, seenRevision: number, review: ReviewState): SyncRefusal | null {
  return endedReviewRefusal(action, review) ?? staleRevisionRefusal(action, seenRevision, review.revision);
}

/** Lines `start`..`end` (1-based, inclusive) of `text` joined by `\n` (CRLF read as LF); null when the text has fewer lines. */
export function linesOf(text: string, start: number, end: number): string | null {
  const lines = text.split(/\r?\n/);
  if (start < 1 || end < start || end > lines.length) return null;
  return lines.slice(start - 1, end).join('\n');
}

/**
 * Rule 3: a comment anchored to `anchorText` (its lines when it was written) is outdated when the
 * same lines of the file's current text read otherwise, or the file is gone (`currentText` null),
 * as GitHub shows it.
 */
export function isCommentOutdated(anchorText: string, currentText: string | null, lineStart: number, lineEnd: number): boolean {
  if (currentText === null) return true;
  return linesOf(currentText, lineStart, lineEnd) !== anchorText;
}

/** A part of a three-way merge: text all sides agree on (after taking one-sided changes), or a conflict with each side's text. */
export type MergeRegion = { conflict: false; text: string } | { conflict: true; base: string; local: string; remote: string };

/** The result of {@link mergePage}: the merged text, or the regions of a real conflict for the merge view. */
export type MergePageResult = { merged: string } | { conflict: true; regions: MergeRegion[] };

/** Lines of a text, each keeping its line break (so the merge gives back the same line endings). */
function splitLines(text: string): string[] {
  return text === '' ? [] : text.split(/(?<=\n)/);
}

/**
 * Rule 4: merges a page edited both locally (`local`) and on the server (`remote`) since the common
 * `base`, three ways by lines (node-diff3, the same merge the server uses for review merges):
 * changes on one side are taken; the same change on both sides counts once; different changes to
 * the same or adjacent lines are a conflict.
 * @returns `{merged}` or `{conflict: true, regions}` (in order; joining every region's chosen text gives the page).
 */
export function mergePage(base: string, local: string, remote: string): MergePageResult {
  if (local === remote) return { merged: local };
  if (local === base) return { merged: remote };
  if (remote === base) return { merged: local };
  const regions = diff3Merge(splitLines(local), splitLines(base), splitLines(remote), { excludeFalseConflicts: true });
  const out: MergeRegion[] = [];
  let conflict = false;
  for (const region of regions) {
    if (region.conflict) {
      conflict = true;
      out.push({ conflict: true, base: region.conflict.o.join(''), local: region.conflict.a.join(''), remote: region.conflict.b.join('') });
    } else {
      const text = (region.ok ?? []).join('');
      const last = out[out.length - 1];
      if (last && !last.conflict) last.text += text;
      else out.push({ conflict: false, text });
    }
  }
  if (!conflict) return { merged: out.map((r) => (r.conflict ? '' : r.text)).join('') };
  return { conflict: true, regions: out };
}
