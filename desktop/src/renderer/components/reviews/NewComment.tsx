import { useState } from 'react';
import { errorMessage } from '../../trpc';
import { useReviews } from '../../store/reviews-slice';
import { linesLabel } from './format';

/** What {@link NewComment} writes: a line comment (path and lines), a review-level comment (neither), or a suggestion (lines and text). */
export interface NewCommentInput {
  path?: string;
  lineStart?: number;
  lineEnd?: number;
  body: string;
  suggestion?: { lines: { start: number; end: number }; text: string };
}

/** Props of {@link NewComment}. */
export interface NewCommentProps {
  path: string;
  /** the text of the file shown (its current revision), whose lines a suggestion starts from */
  text: string;
  /** writes the comment (queued by the core when offline) */
  onSubmit(input: NewCommentInput): Promise<void>;
  /** why comments cannot be written now, or null */
  disabledReason: string | null;
}

/**
 * Starts a thread: on the whole review when no lines are chosen, or on lines of a file (from a
 * click on a line number or a selection in the source diff, store: `commentTarget`, or from the
 * "First line" / "Last line" fields); a text box named "Comment" and the button "Add comment".
 * "Suggest change" (with lines chosen) opens a text box "Suggestion" holding those lines to edit
 * and the button "Add suggestion".
 */
export function NewComment({ path, text, onSubmit, disabledReason }: NewCommentProps) {
  const target = useReviews((s) => (s.commentTarget?.path === path ? s.commentTarget : null));
  const setTarget = useReviews((s) => s.setCommentTarget);
  const [body, setBody] = useState('');
  const [suggesting, setSuggesting] = useState(false);
  const [suggestion, setSuggestion] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const lines = text.split(/\r?\n/);
  const max = Math.max(1, lines.length);

  const setLine = (which: 'lineStart' | 'lineEnd', value: number) => {
    if (!Number.isInteger(value) || value < 1) return;
    const next = { path, lineStart: target?.lineStart ?? value, lineEnd: target?.lineEnd ?? value, [which]: Math.min(value, max) };
    if (next.lineEnd < next.lineStart) next.lineEnd = next.lineStart;
    setTarget(next);
  };
  const chosenText = target ? lines.slice(target.lineStart - 1, target.lineEnd).join('\n') : '';

  const submit = async (withSuggestion: boolean) => {
    if (!body.trim() && !withSuggestion) return;
    setBusy(true);
    setError(null);
    try {
      const anchor = target ? { path, lineStart: target.lineStart, lineEnd: target.lineEnd } : {};
      const words = body.trim() || 'Suggested change';
      await onSubmit({
        ...anchor,
        body: words,
        ...(withSuggestion && target ? { suggestion: { lines: { start: target.lineStart, end: target.lineEnd }, text: suggestion } } : {}),
      });
      setBody('');
      setSuggesting(false);
      setTarget(null);
    } catch (err) {
      setError(errorMessage(err));
    } finally {
      setBusy(false);
    }
  };

  const where = target ? `New thread on ${linesLabel(target.lineStart, target.lineEnd)} of ${path}` : 'A comment on the whole review. Click a line number in the source diff, or select lines, to comment on them.';
  return (
    <form
      className="new-comment"
      aria-label="New comment"
      onSubmit={(e) => {
        e.preventDefault();
        void submit(false);
      }}
    >
      <p className="note" aria-live="polite">
        {disabledReason ?? where}
      </p>
      <div className="line-fields">
        <label>
          First line
          <input type="number" min={1} max={max} value={target?.lineStart ?? ''} onChange={(e) => setLine('lineStart', Number(e.target.value))} />
        </label>
        <label>
          Last line
          <input type="number" min={1} max={max} value={target?.lineEnd ?? ''} onChange={(e) => setLine('lineEnd', Number(e.target.value))} />
        </label>
        {target && (
          <button type="button" className="link" onClick={() => setTarget(null)}>
            Clear lines
          </button>
        )}
      </div>
      <textarea aria-label="Comment" rows={3} value={body} placeholder="Leave a comment" onChange={(e) => setBody(e.target.value)} disabled={!!disabledReason} />
      <div className="new-comment-actions">
        <button type="submit" disabled={busy || !body.trim() || !!disabledReason}>
          Add comment
        </button>
        <button
          type="button"
          aria-expanded={suggesting}
          disabled={!!disabledReason || !target}
          title={target ? undefined : 'Choose lines first: a suggestion replaces them'}
          onClick={() => {
            setSuggestion(chosenText);
            setSuggesting(!suggesting);
          }}
        >
          Suggest change
        </button>
      </div>
      {suggesting && target && (
        <div className="new-suggestion">
          <textarea aria-label="Suggestion" rows={Math.max(2, target.lineEnd - target.lineStart + 2)} value={suggestion} onChange={(e) => setSuggestion(e.target.value)} />
          <button type="button" disabled={busy || suggestion === chosenText} onClick={() => void submit(true)}>
            Add suggestion
          </button>
        </div>
      )}
      {error && <p role="alert">{error}</p>}
    </form>
  );
}
