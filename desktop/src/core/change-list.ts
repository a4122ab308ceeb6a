/**
 * The local edits of an opened workspace one file at a time, for the desktop's "Changes" view: each
 * changed path with its kind, and a file's two texts for its diff. The same rule as the change set a
 * review sends (local-changes.ts): a file whose local text differs from its base is modified (added
 * when it has no base); a file of the base deleted here is deleted; a binary file written here (an
 * added image) is added, with its size (`binarySize`) in place of texts.
 */
import { CoreError } from './core-error';
import type { LocalStore } from './store';

/** How a file changed locally. */
export type ChangeKind = 'added' | 'modified' | 'deleted';

/** One changed file. */
export interface ChangedFile {
  path: string;
  change: ChangeKind;
  /** for a binary file written here (an added image), its size in bytes; absent for a text file or a deletion */
  binarySize?: number;
}

/** A changed file's texts: `before` the base (null when added), `after` the local text (null when deleted). */
export interface ChangeDiff extends ChangedFile {
  before: string | null;
  after: string | null;
  /** for a binary file: where the preview serves it (workspace-views-router.ts), null when it does not */
  previewUrl?: string | null;
}

function requireOpen(store: LocalStore, projectId: string): void {
  if (!store.workspace(projectId)) throw new CoreError('NOT_FOUND', 'Open the project first.');
}

/**
 * The workspace's changed files, sorted by path (binary files included, as `modified` or `added`).
 * @throws CoreError NOT_FOUND when the project is not open
 */
export function changedFiles(store: LocalStore, projectId: string): ChangedFile[] {
  requireOpen(store, projectId);
  return store.changedPaths(projectId).map((path): ChangedFile => {
    if (store.deletedFile(projectId, path)) return { path, change: 'deleted' };
    const f = store.file(projectId, path);
    return { path, change: f?.base === null ? 'added' : 'modified', ...binarySize(store, projectId, path, f?.content ?? null) };
  });
}

/**
 * The two texts of a changed file.
 * @throws CoreError NOT_FOUND when the project is not open or it has no file at `path`
 */
export function changeDiff(store: LocalStore, projectId: string, path: string): ChangeDiff {
  requireOpen(store, projectId);
  const gone = store.deletedFile(projectId, path);
  if (gone) return { path, change: 'deleted', before: gone.base, after: null };
  const f = store.file(projectId, path);
  if (!f) throw new CoreError('NOT_FOUND', `There is no file ${path} in this project.`);
  return { path, change: f.base === null ? 'added' : 'modified', before: f.base, after: f.content, ...binarySize(store, projectId, path, f.content) };
}

/** `{binarySize}` for a file without text whose bytes were written here, else nothing. */
function binarySize(store: LocalStore, projectId: string, path: string, content: string | null): { binarySize?: number } {
  const written = content === null ? store.fileBytes(projectId, path) : null;
  return written?.local ? { binarySize: written.bytes.length } : {};
}
