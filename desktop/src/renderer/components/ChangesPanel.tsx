import { useEffect, useState } from 'react';
import type { ChangeDiff, ChangeKind } from '../../core/change-list';
import { useChanges } from '../store/changes-slice';
import { core, errorMessage } from '../trpc';
import { SourceDiff } from './reviews/SourceDiff';
import { formatBytes, imageFileProblem } from '@quire/shared/docs/image-files';
import './comfort.css';

/** How each change kind reads, and its one-letter badge (as in Git's short status). */
const KIND: Record<ChangeKind, { word: string; letter: string }> = {
  added: { word: 'Added', letter: 'A' },
  modified: { word: 'Modified', letter: 'M' },
  deleted: { word: 'Deleted', letter: 'D' },
};

/**
 * The side panel's "Changes" view: a region named "Changes" listing the project's local edits, each
 * a button "<path>, <Added|Modified|Deleted>" (a binary file: ", binary file, <size>") that shows its diff in
 * the editor area (ChangeDiffView).
 */
export function ChangesPanel({ projectId }: { projectId: string }) {
  const items = useChanges((s) => s.items);
  const diffPath = useChanges((s) => s.diffPath);
  useEffect(() => {
    void useChanges.getState().refresh(projectId);
  }, [projectId]);
  return (
    <section className="side-view" aria-label="Changes">
      <h2 className="side-view-title">Changes</h2>
      {items.length === 0 ? (
        <p className="note">No local edits: the project is as on its base commit.</p>
      ) : (
        <ul className="change-list">
          {items.map((c) => (
            <li key={c.path}>
              <button
                type="button"
                className={`change-item change-${c.change}`}
                aria-label={`${c.path}, ${KIND[c.change].word}${c.binarySize === undefined ? '' : `, ${binaryNote(c.binarySize)}`}`}
                aria-current={diffPath === c.path ? 'true' : undefined}
                title={`${KIND[c.change].word}: show the diff`}
                onClick={() => useChanges.getState().showDiff(c.path)}
              >
                <span className="change-path">{c.path}</span>
                {c.binarySize !== undefined && (
                  <span className="change-note" aria-hidden="true">
                    {binaryNote(c.binarySize)}
                  </span>
                )}
                <span className="change-kind" aria-hidden="true">
                  {KIND[c.change].letter}
                </span>
              </button>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

/** How a binary change reads: "binary file, 12 KiB". */
function binaryNote(size: number): string {
  return `binary file, ${formatBytes(size)}`;
}

/** A binary file written here (an added image): its size, and the image itself as the preview serves it. */
function BinaryChange({ diff }: { diff: ChangeDiff }) {
  return (
    <section className="change-diff" aria-label={`Diff of ${diff.path}`}>
      <div className="breadcrumb">
        {diff.path} ({KIND[diff.change].word.toLowerCase()}: {binaryNote(diff.binarySize ?? 0)})
      </div>
      {imageFileProblem(diff.path, 0) === null && diff.previewUrl && <img className="change-thumbnail" src={diff.previewUrl} alt={`The image ${diff.path}`} />}
    </section>
  );
}

/** The diff of one local change (base on the left, local text on the right), read-only, in Monaco's diff editor. */
export function ChangeDiffView({ projectId, path }: { projectId: string; path: string }) {
  const [diff, setDiff] = useState<ChangeDiff | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    let cancelled = false;
    setDiff(null);
    setError(null);
    core.workspace.changeDiff.query({ projectId, path }).then(
      (d) => !cancelled && setDiff(d),
      (err: unknown) => !cancelled && setError(errorMessage(err)),
    );
    return () => {
      cancelled = true;
    };
  }, [projectId, path]);
  if (error) return <p role="alert">{error}</p>;
  if (!diff) return <p className="note">Opening the diff of {path}...</p>;
  if (diff.binarySize !== undefined) return <BinaryChange diff={diff} />;
  return (
    <section className="change-diff" aria-label={`Diff of ${path}`}>
      <div className="breadcrumb">
        {path} ({KIND[diff.change].word.toLowerCase()}: base on the left, your text on the right)
      </div>
      <SourceDiff
        key={path}
        path={path}
        before={diff.before}
        after={diff.after}
        commentedLines={[]}
        target={null}
        onPickLines={() => undefined}
        revealFirstChange
      />
    </section>
  );
}
