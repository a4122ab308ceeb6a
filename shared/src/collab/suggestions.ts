/**
 * Suggested changes of a review (a comment with `suggestion: {lines, text}`; shared/src/api/reviews.ts):
 * the one rule of applying them, used by the server (services/review-suggestions.ts) and the desktop
 * (which shows a suggestion as outdated offline). A suggestion applies only while its lines read as
 * they did when it was written (`anchorText`, rule 3 of shared/src/sync/conflicts.ts): otherwise it is
 * outdated and applying it is refused with the reason, as GitHub refuses an outdated suggestion.
 */
import { isCommentOutdated } from '../sync/conflicts';

/** A suggestion to apply: replace lines `start`..`end` (1-based, inclusive) of `path`, which read `anchorText` when it was written, by `text`. */
export interface SuggestionEdit {
  id: string;
  path: string;
  start: number;
  end: number;
  anchorText: string;
  text: string;
}

/** Why suggestions cannot be applied: `outdated` (its lines changed since), `overlap` (two touch the same lines), `missing` (the file is gone). */
export interface SuggestionRefusal {
  id: string;
  reason: 'outdated' | 'overlap' | 'missing';
  message: string;
}

/** Whether a suggestion is outdated against the file's current text (null: the file is gone). */
export function isSuggestionOutdated(edit: Pick<SuggestionEdit, 'anchorText' | 'start' | 'end'>, currentText: string | null): boolean {
  return isCommentOutdated(edit.anchorText, currentText, edit.start, edit.end);
}

/**
 * Applies suggestions to the current texts of their files, all or none.
 * @param texts the current text of each path (null or absent: the file is gone)
 * @returns the new text of each touched path, or the first refusal (nothing applied)
 */
export function applySuggestions(
  edits: readonly SuggestionEdit[],
  texts: ReadonlyMap<string, string | null>,
): { ok: true; texts: Map<string, string> } | { ok: false; refusal: SuggestionRefusal } {
  const byPath = new Map<string, SuggestionEdit[]>();
  for (const e of edits) {
    const text = texts.get(e.path) ?? null;
    if (text === null) return { ok: false, refusal: { id: e.id, reason: 'missing', message: `The suggestion ${e.id} is on ${e.path}, which the review no longer changes or has.` } };
    if (isSuggestionOutdated(e, text)) {
      return {
        ok: false,
        refusal: {
          id: e.id,
          reason: 'outdated',
          message: `The suggestion ${e.id} is outdated: lines ${e.start}-${e.end} of ${e.path} changed since it was written, so it is not applied.`,
        },
      };
    }
    byPath.set(e.path, [...(byPath.get(e.path) ?? []), e]);
  }
  const out = new Map<string, string>();
  for (const [path, list] of byPath) {
    const sorted = [...list].sort((a, b) => b.start - a.start);
    for (let i = 1; i < sorted.length; i++) {
      if (sorted[i]!.end >= sorted[i - 1]!.start) {
        return { ok: false, refusal: { id: sorted[i]!.id, reason: 'overlap', message: `The suggestions ${sorted[i]!.id} and ${sorted[i - 1]!.id} change the same lines of ${path}; apply one of them.` } };
      }
    }
    const eol = (texts.get(path) ?? '').includes('\r\n') ? '\r\n' : '\n';
    const lines = (texts.get(path) ?? '').split(/\r?\n/);
    for (const e of sorted) lines.splice(e.start - 1, e.end - e.start + 1, ...(e.text === '' ? [] : e.text.split(/\r?\n/)));
    out.set(path, lines.join(eol));
  }
  return { ok: true, texts: out };
}
