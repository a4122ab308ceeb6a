import { useEffect } from 'react';
import { useUi } from '../store/ui-slice';

/** How long a notice ("Saved", "3 fixes applied") stays in the status bar, in ms. */
const NOTICE_MS = 4000;

/**
 * The status bar (desktop-look.md): line and column, word count and reading time, lint counts of
 * the open page, a passing notice, then the branch and the base commit of the workspace.
 * A `contentinfo`-like strip named "Status bar"; the notice is announced politely.
 */
export function StatusBar() {
  const status = useUi((s) => s.status);
  const ws = useUi((s) => s.workspace);
  const notice = useUi((s) => s.notice);
  const setNotice = useUi((s) => s.setNotice);

  useEffect(() => {
    if (!notice) return;
    const t = window.setTimeout(() => setNotice(null), NOTICE_MS);
    return () => window.clearTimeout(t);
  }, [notice, setNotice]);

  return (
    <footer className="status-bar" aria-label="Status bar">
      {status && (
        <>
          <span aria-label="Caret position">
            Ln {status.line}, Col {status.column}
          </span>
          <span aria-label="Word count">
            {status.words} {status.words === 1 ? 'word' : 'words'}, {status.readingMinutes} min read
          </span>
          <span aria-label="Lint counts">
            <span className="lint-errors">{status.errors} {status.errors === 1 ? 'error' : 'errors'}</span>,{' '}
            <span className="lint-warnings">{status.warnings} {status.warnings === 1 ? 'warning' : 'warnings'}</span>, {status.suggestions}{' '}
            {status.suggestions === 1 ? 'suggestion' : 'suggestions'}
          </span>
        </>
      )}
      <span className="spacer" aria-live="polite">
        {notice}
      </span>
      {ws && (
        <span aria-label="Branch and base commit" title={ws.commitSha}>
          {ws.ref} @ {ws.commitSha.slice(0, 7)}
          {ws.offline ? ' (offline copy)' : ''}
        </span>
      )}
    </footer>
  );
}
