import { useState } from 'react';
import { errorMessage } from '../../trpc';
import { useReviews } from '../../store/reviews-slice';
import { linesLabel } from './format';

/** Props of {@link NewComment}. */
export interface NewCommentProps {
  path: string;
  /** number of lines of the text comments go on (bounds the line fields) */
  lineCount: number;
  /** writes the comment (queued by the core when offline) */
  onSubmit(input: { path: string; lineStart: number; lineEnd: number; body: string }): Promise<void>;
  /** why comments cannot be written now, or null */
  disabledReason: string | null;
}

/**
 * Starts a thread on lines of a file: the lines come from a click on a line number or a selection
 * in the source diff (store: `commentTarget`), or from the "First line" / "Last line" fields; a text
 * box named "Comment" and the button "Add comment".
 */
export function NewComment({ path, lineCount, onSubmit, disabledReason }: NewCommentProps) {
  const target = useReviews((s) => (s.commentTarget?.path === path ? s.commentTarget : null));
  const setTarget = useReviews((s) => s.setCommentTarget);
  const [body, setBody] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const max = Math.max(1, lineCount);

  const setLine = (which: 'lineStart' | 'lineEnd', value: number) => {
    if (!Number.isInteger(value) || value < 1) return;
    const next = { path, lineStart: target?.lineStart ?? value, lineEnd: target?.lineEnd ?? value, [which]: Math.min(value, max) };
    if (next.lineEnd < next.lineStart) next.lineEnd = next.lineStart;
    setTarget(next);
  };

  const submit = async () => {
    if (!target || !body.trim()) return;
    setBusy(true);
    setError(null);
    try {
      await onSubmit({ path, lineStart: target.lineStart, lineEnd: target.lineEnd, body: body.trim() });
      setBody('');
      setTarget(null);
    } catch (err) {
      setError(errorMessage(err));
    } finally {
      setBusy(false);
    }
  };

  const why = disabledReason ?? (!target ? 'Click a line number in the source diff, or select lines, to choose where to comment.' : null);
  return (
    <form
      className="new-comment"
      aria-label="New comment"
      onSubmit={(e) => {
        e.preventDefault();
        void submit();
      }}
    >
      <p className="note" aria-live="polite">
        {target ? `New thread on ${linesLabel(target.lineStart, target.lineEnd)} of ${path}` : why}
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
      </div>
      <textarea aria-label="Comment" rows={3} value={body} placeholder="Leave a comment" onChange={(e) => setBody(e.target.value)} disabled={!!disabledReason} />
      <button type="submit" disabled={busy || !target || !body.trim() || !!disabledReason} title={why ?? undefined}>
        Add comment
      </button>
      {error && <p role="alert">{error}</p>}
    </form>
  );
}
