import { useMemo } from 'react';
import { fileCounts } from './diff-nav';
import type { ReviewFileTexts } from './types';

/** Props of {@link ReviewFileList}. */
export interface ReviewFileListProps {
  /** the changed files, `before` being the text at the base compared with ("Compare with") */
  files: ReviewFileTexts[];
  /** the file shown */
  openPath: string | null;
  /** the paths marked viewed in this revision */
  viewed: ReadonlySet<string>;
  onOpen(path: string): void;
  onViewed(path: string, viewed: boolean): void;
}

/**
 * The changed files of a review (desktop-look.md "Reviews"): each opens in the diff, shows how many
 * lines it adds and removes against the base compared with (and in how many changed blocks), and has
 * a checkbox "Viewed <path>" (kept per review and revision by the core, core/review-viewed.ts); a
 * viewed file shows dimmed and its diff folds.
 */
export function ReviewFileList({ files, openPath, viewed, onOpen, onViewed }: ReviewFileListProps) {
  // the texts, not the array (a new one each time the review is read again), decide when to count again: `texts` stands for `files`
  const texts = files.map((f) => `${f.path}\u0000${f.before ?? '\u0001'}\u0000${f.after ?? '\u0001'}`).join('\u0002');
  const counts = useMemo(() => files.map((f) => fileCounts(f.before, f.after)), [texts]);
  if (files.length === 0)
    return (
      <nav className="review-files" aria-label="Changed files">
        <span className="note">No changed files.</span>
      </nav>
    );
  return (
    <nav className="review-files" aria-label="Changed files">
      <ul>
        {files.map((f, i) => {
          const c = counts[i]!;
          const isViewed = viewed.has(f.path);
          return (
            <li key={f.path} className={`file-row change-${f.change}${isViewed ? ' is-viewed' : ''}`}>
              <button type="button" aria-pressed={f.path === openPath} onClick={() => onOpen(f.path)} className="file-tab">
                <span className="change-kind">{f.change}</span> {f.path}
              </button>
              <span className="file-counts" title={`${c.added} lines added, ${c.removed} removed, in ${c.changes} changed block${c.changes === 1 ? '' : 's'}`}>
                <span className="count-added">+{c.added}</span> <span className="count-removed">−{c.removed}</span>
              </span>
              <label className="viewed-check">
                <input type="checkbox" checked={isViewed} onChange={(e) => onViewed(f.path, e.target.checked)} aria-label={`Viewed ${f.path}`} /> Viewed
              </label>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}
