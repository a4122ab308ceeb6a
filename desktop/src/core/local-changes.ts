/**
 * The local edits of an opened workspace as a change set (decisions.md section 9: file changes on a
 * base commit of the project's branch): what "Propose changes" sends as a review (reviews.ts) and
 * "Build preview of your changes" builds (builds.ts), so both send the same files.
 */
import { checkChangeSet, type ChangeSetEntry } from '@quire/shared/collab/change-set';
import { CoreError } from './core-error';
import type { ReviewFileTexts } from './review-cache';
import type { LocalStore } from './store';

/** A workspace's local edits: the commit they were written on, its branch, and each edited file. */
export interface LocalChangeSet {
  /** the commit of the workspace's base files */
  baseCommit: string;
  /** the branch the workspace follows */
  ref: string;
  /** the change set as the server takes it (a review's `changes`, `builds.previewChanges`) */
  entries: ChangeSetEntry[];
  /** each changed file with both texts (`before` null for a file the base does not have) */
  files: ReviewFileTexts[];
}

/**
 * The local edits of `paths` (default: every file edited locally), sorted by path: a file whose
 * local text differs from its base (added when it has no base), and a file of the base deleted here
 * (`{path, deleted: true}`, shared/src/api/reviews.ts ChangeEntrySchema), and a binary file whose bytes were
 * written here (`{path, content: <base64>, encoding: 'base64'}`; its texts in `files` are null). Unedited files are not changes.
 * @throws CoreError NOT_FOUND when the project is not open; BAD_REQUEST naming `paths` for an unknown
 *   path, when none of the files has local edits, or with the shared rule's words for a change set the
 *   server would refuse (shared/src/collab/change-set.ts `checkChangeSet`: a file past 2 MiB, 10 MiB in all, ...),
 *   so the writer learns it before anything is queued
 */
export function localChangeSet(store: LocalStore, projectId: string, paths?: readonly string[]): LocalChangeSet {
  const ws = store.workspace(projectId);
  if (!ws) throw new CoreError('NOT_FOUND', 'Open the project first.');
  const entries: LocalChangeSet['entries'] = [];
  const files: ReviewFileTexts[] = [];
  for (const p of [...new Set(paths ?? store.changedPaths(projectId))].sort()) {
    const gone = store.deletedFile(projectId, p);
    if (gone) {
      entries.push({ path: p, deleted: true });
      files.push({ path: p, change: 'deleted', before: gone.base, after: null });
      continue;
    }
    const f = store.file(projectId, p);
    if (!f) throw new CoreError('BAD_REQUEST', `paths: there is no file ${p} in this project.`);
    const written = f.content === null ? store.fileBytes(projectId, p) : null;
    if (written?.local) {
      entries.push({ path: p, content: written.bytes.toString('base64'), encoding: 'base64' });
      files.push({ path: p, change: f.base === null ? 'added' : 'modified', before: null, after: null });
      continue;
    }
    if (f.content === null || !f.modified || f.content === f.base) continue;
    entries.push({ path: p, content: f.content });
    files.push({ path: p, change: f.base === null ? 'added' : 'modified', before: f.base, after: f.content });
  }
  if (entries.length === 0) {
    throw new CoreError('BAD_REQUEST', paths ? 'paths: none of these files has local edits to propose.' : 'You have no local edits: edit a page first.');
  }
  const check = checkChangeSet(entries);
  if (!check.ok) {
    const problem = check.problem;
    throw new CoreError('BAD_REQUEST', problem.kind === 'too_large' ? problem.message : `${problem.field} ${problem.issue}.`);
  }
  return { baseCommit: ws.commitSha, ref: ws.ref, entries, files };
}
