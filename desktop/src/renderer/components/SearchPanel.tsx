import { useEffect, useRef, useState } from 'react';
import type { SearchResult } from '../../core/workspace-search';
import { useApp } from '../store/app-store';
import { useReveal } from '../store/reveal-slice';
import { core, errorMessage } from '../trpc';
import './comfort.css';

/** Pause after typing before the search runs, in ms. */
const SEARCH_DELAY_MS = 200;

/**
 * The side panel's "Search" view (Ctrl/Cmd+Shift+F): a region named "Search" with a text box
 * "Search in files", "Match case" and "Regular expression" (RE2) checkboxes, and the matches of
 * `workspace.search` grouped by file, each a button with its line's preview; choosing one opens the
 * file with the caret on the match. The text box takes the focus when the view opens.
 */
export function SearchPanel({ projectId }: { projectId: string }) {
  const [query, setQuery] = useState('');
  const [caseSensitive, setCaseSensitive] = useState(false);
  const [regex, setRegex] = useState(false);
  const [result, setResult] = useState<SearchResult | null>(null);
  const [error, setError] = useState<string | null>(null);
  const input = useRef<HTMLInputElement>(null);
  const openFile = useApp((s) => s.openFile);

  useEffect(() => input.current?.focus(), []);

  useEffect(() => {
    if (!query) {
      setResult(null);
      setError(null);
      return;
    }
    let cancelled = false;
    const timer = window.setTimeout(() => {
      core.workspace.search.query({ projectId, query, caseSensitive, regex }).then(
        (r) => {
          if (cancelled) return;
          setResult(r);
          setError(null);
        },
        (err: unknown) => {
          if (cancelled) return;
          setResult(null);
          setError(errorMessage(err));
        },
      );
    }, SEARCH_DELAY_MS);
    return () => {
      cancelled = true;
      window.clearTimeout(timer);
    };
  }, [projectId, query, caseSensitive, regex]);

  const summary = result
    ? result.matchCount === 0
      ? 'No matches.'
      : `${result.matchCount} ${result.matchCount === 1 ? 'match' : 'matches'} in ${result.files.length} ${result.files.length === 1 ? 'file' : 'files'}.`
    : null;
  return (
    <section className="side-view" aria-label="Search">
      <h2 className="side-view-title">Search</h2>
      <input
        ref={input}
        type="text"
        className="search-input"
        aria-label="Search in files"
        placeholder="Search in files"
        value={query}
        onChange={(e) => setQuery(e.target.value)}
      />
      <div className="search-options">
        <label>
          <input type="checkbox" checked={caseSensitive} onChange={(e) => setCaseSensitive(e.target.checked)} /> Match case
        </label>
        <label>
          <input type="checkbox" checked={regex} onChange={(e) => setRegex(e.target.checked)} /> Regular expression
        </label>
      </div>
      {error && <p role="alert">{error}</p>}
      <p className="note" aria-live="polite">
        {summary}
        {result?.message ? ` ${result.message}` : ''}
      </p>
      {result && result.files.length > 0 && (
        <ul className="search-results" aria-label="Search results">
          {result.files.map((f) => (
            <li key={f.path} className="search-file">
              <div className="search-file-path">
                {f.path} <span className="muted">({f.matches.length})</span>
              </div>
              <ul>
                {f.matches.map((m) => (
                  <li key={`${m.line}:${m.column}`}>
                    <button
                      type="button"
                      className="search-match"
                      aria-label={`${f.path}, line ${m.line}: ${m.preview}`}
                      onClick={() => {
                        useReveal.getState().reveal(f.path, m.line, m.column);
                        openFile(f.path);
                      }}
                    >
                      <span className="search-line" aria-hidden="true">
                        {m.line}
                      </span>
                      <span className="search-preview">
                        {m.preview.slice(0, m.previewStart)}
                        <mark>{m.preview.slice(m.previewStart, m.previewEnd)}</mark>
                        {m.preview.slice(m.previewEnd)}
                      </span>
                    </button>
                  </li>
                ))}
              </ul>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
