import type { LocalComment } from './types';
import { linesLabel } from './format';

/** Props of {@link SuggestionBlock}. */
export interface SuggestionBlockProps {
  /** the thread's first comment, which carries the suggestion */
  comment: LocalComment;
  /** whether the signed-in person may apply it (the review's author, on an open review) */
  canApply: boolean;
  /** whether it is chosen for "Apply selected suggestions" */
  selected: boolean;
  onSelect(selected: boolean): void;
  onApply(): void;
  busy: boolean;
}

/**
 * A suggested change inside its thread, as a diff: the lines as they read when it was written
 * (removed) and the suggested text (added); "Apply suggestion" and a checkbox to apply several at
 * once for the author. An applied suggestion says so; an outdated one (its lines changed since)
 * says it cannot be applied.
 */
export function SuggestionBlock({ comment, canApply, selected, onSelect, onApply, busy }: SuggestionBlockProps) {
  const s = comment.suggestion!;
  const where = linesLabel(s.lines.start, s.lines.end);
  const outdated = comment.outdated && !s.applied;
  return (
    <figure className="suggestion" aria-label={`Suggested change of ${where}`}>
      <pre className="suggestion-diff">
        {(s.original ?? '').split('\n').map((line, i) => (
          <del key={`d${i}`}>{`- ${line}\n`}</del>
        ))}
        {s.text === '' ? null : s.text.split('\n').map((line, i) => <ins key={`i${i}`}>{`+ ${line}\n`}</ins>)}
      </pre>
      {s.applied ? (
        <p className="note">Applied in a new revision.</p>
      ) : outdated ? (
        <p className="note" role="note">
          Outdated: {where} changed since this was suggested, so it cannot be applied.
        </p>
      ) : (
        canApply && (
          <div className="suggestion-actions">
            <label>
              <input type="checkbox" checked={selected} onChange={(e) => onSelect(e.target.checked)} /> Select suggestion on {where}
            </label>
            <button type="button" disabled={busy} onClick={onApply}>
              Apply suggestion
            </button>
          </div>
        )
      )}
    </figure>
  );
}
