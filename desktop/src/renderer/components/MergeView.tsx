import { useEffect, useState } from 'react';
import { create } from 'zustand';
import type { PageConflict } from '../../core/workspace-refresh';
import { core, errorMessage } from '../trpc';
import './MergeView.css';

/** The pages of the open project in conflict after a refresh (the page tree marks them; the editor area shows the merge view for them). */
export const useConflicts = create<{ paths: string[]; setPaths(paths: string[]): void }>()((set) => ({
  paths: [],
  setPaths: (paths) => set({ paths }),
}));

/** "2 pages merged, 1 needs a decision" (the refresh notice), or null when nothing was merged and nothing conflicts. */
export function refreshNotice(r: { updated: string[]; merged: string[]; conflicts: string[] }): string | null {
  if (!r.updated.length && !r.merged.length && !r.conflicts.length) return null;
  const parts = [`${r.updated.length} ${r.updated.length === 1 ? 'page' : 'pages'} updated from the server`, `${r.merged.length} merged with your edits`];
  parts.push(`${r.conflicts.length} ${r.conflicts.length === 1 ? 'needs' : 'need'} a decision`);
  return parts.join(', ') + '.';
}

/**
 * The merge view of a page edited both here and on the server whose three-way merge conflicted
 * (shared/src/sync/conflicts.ts rule 4): each conflicting region shows "Mine", "Theirs" and the
 * base, with "Keep mine", "Take theirs" and an editable "Result" (starting as mine); the agreed
 * text between regions is shown for context. "Save merge" stores the joined result
 * (`workspace.resolve`) and calls `onResolved` with the conflicts left. Nothing is dropped: until
 * saved, the page keeps the local text.
 */
export function MergeView({ projectId, path, onResolved }: { projectId: string; path: string; onResolved(conflicts: string[]): void }) {
  const [conflict, setConflict] = useState<PageConflict | null>(null);
  const [results, setResults] = useState<string[]>([]);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    let cancelled = false;
    core.workspace.conflict.query({ projectId, path }).then(
      (c) => {
        if (cancelled) return;
        setConflict(c);
        setResults(c.regions.map((r) => (r.conflict ? r.local : r.text)));
      },
      (err: unknown) => !cancelled && setError(errorMessage(err)),
    );
    return () => {
      cancelled = true;
    };
  }, [projectId, path]);

  async function save() {
    setBusy(true);
    setError(null);
    try {
      const left = await core.workspace.resolve.mutate({ projectId, path, text: results.join('') });
      onResolved(left.conflicts);
    } catch (err) {
      setError(errorMessage(err));
    } finally {
      setBusy(false);
    }
  }

  if (!conflict) return error ? <p role="alert">{error}</p> : <p className="note">Loading the merge...</p>;
  const total = conflict.regions.filter((r) => r.conflict).length;
  let n = 0;
  const setResult = (i: number, text: string) => setResults((rs) => rs.map((r, j) => (j === i ? text : r)));
  return (
    <section className="merge-view" aria-label={`Merge ${path}`}>
      <h2>Merge {path}</h2>
      <p className="note">
        {conflict.deletedOnServer
          ? 'This page was deleted on the server and edited here. Keep mine keeps the page; Take theirs deletes it.'
          : `This page was changed here and on the server (commit ${conflict.commitSha.slice(0, 7)}) in the same places. Choose for each conflict, or edit the result, then save the merge.`}
      </p>
      {conflict.regions.map((region, i) => {
        if (!region.conflict) {
          return (
            <pre key={i} className="merge-context" aria-label="Unchanged text">
              {region.text}
            </pre>
          );
        }
        n += 1;
        return (
          <section key={i} className="merge-region" aria-label={`Conflict ${n} of ${total}`}>
            <div className="merge-sides">
              <figure>
                <figcaption>Mine</figcaption>
                <pre aria-label="Mine">{region.local}</pre>
              </figure>
              <figure>
                <figcaption>Theirs</figcaption>
                <pre aria-label="Theirs">{region.remote || '(deleted)'}</pre>
              </figure>
              <figure>
                <figcaption>Base</figcaption>
                <pre aria-label="Base">{region.base}</pre>
              </figure>
            </div>
            <div className="merge-actions">
              <button type="button" onClick={() => setResult(i, region.local)}>
                Keep mine
              </button>
              <button type="button" onClick={() => setResult(i, region.remote)}>
                Take theirs
              </button>
            </div>
            <label className="merge-result">
              Result
              <textarea value={results[i] ?? ''} onChange={(e) => setResult(i, e.target.value)} rows={Math.max(3, (results[i] ?? '').split('\n').length)} spellCheck={false} />
            </label>
          </section>
        );
      })}
      {error && <p role="alert">{error}</p>}
      <button type="button" className="primary" onClick={() => void save()} disabled={busy}>
        Save merge
      </button>
    </section>
  );
}
