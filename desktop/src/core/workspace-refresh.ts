import { mergePage, type MergeRegion } from '@quire/shared/sync/conflicts';
import type { Core, OpenedWorkspace } from './core';
import { MAX_TEXT_FILE_BYTES } from './core';
import { CoreError, serverError as toCoreError } from './core-error';
import { isLocalProject } from './local-folder';

/**
 * Refreshing an opened project from the server (decisions.md section 9, shared/src/sync/conflicts.ts
 * rule 4): the branch head is fetched through the server's `files.tree` / `files.readMany` and laid
 * over the local store file by file:
 * - unchanged locally → the server's text (the file's base moves to the new head);
 * - changed locally, not on the server → kept (its base moves to the new head);
 * - changed on both → merged three ways (`mergePage`): a clean merge becomes the local text on the
 *   new base; a real conflict keeps the local text AND the old base, and records the server's text
 *   and the merge regions in `merge_conflicts` until {@link resolveConflict};
 * - edited locally and deleted on the server → a conflict too (the server's side is empty);
 * - deleted on the server and not edited → dropped; new on the server → added.
 * Nothing is dropped silently: every page taken, merged or in conflict is named in the answer.
 */

/**
 * What `workspace.refresh` answers: the head now based on, and the paths updated from the server, merged, and in conflict (all
 * unresolved conflicts of the project).
 */
export interface RefreshResult {
  commitSha: string;
  updated: string[];
  merged: string[];
  conflicts: string[];
}

/** A page in conflict, for the merge view: the regions in order (joining each region's chosen text gives the page). */
export interface PageConflict {
  path: string;
  /** the server commit whose text the page conflicts with */
  commitSha: string;
  /** true when the server deleted the page that was edited here */
  deletedOnServer: boolean;
  regions: MergeRegion[];
}

/** Paths per `files.readMany` call (the server accepts at most 2,000). */
const READ_BATCH = 500;

/** A failed server call as the core's error: UNAVAILABLE when unreachable, else the server's code and message. */
function serverError(err: unknown): CoreError {
  return toCoreError(err, 'The Quire server cannot be reached; the workspace was not refreshed.');
}

/** The unresolved conflicts' paths of a project, sorted. */
export function conflictPaths(core: Core, projectId: string): string[] {
  return (core.store.db.prepare('SELECT path FROM merge_conflicts WHERE project_id = ? ORDER BY path').all(projectId) as { path: string }[]).map((r) => r.path);
}

/**
 * Fetches the branch head and lays it over the stored workspace (see the module doc), in one store
 * transaction taken after the fetch (edits saved meanwhile are merged too).
 * @throws BAD_REQUEST for a local folder project; NOT_FOUND when the project was never opened here; UNAUTHORIZED when nobody is signed in;
 *   UNAVAILABLE when the server cannot be reached (nothing changes); the server's errors otherwise
 */
export async function refreshWorkspace(core: Core, projectId: string): Promise<RefreshResult> {
  if (isLocalProject(projectId)) throw new CoreError('BAD_REQUEST', 'A local folder is on no server; open it again to read its files as they are on disk.');
  const ws = core.store.workspace(projectId);
  if (!ws) throw new CoreError('NOT_FOUND', 'Open the project first.');
  const { client } = core.sessionClient();
  let remote: { ref: string; commitSha: string; files: { path: string; size: number; content: string | null }[] };
  try {
    const tree = await client.files.tree.query({ projectId });
    const contents = new Map<string, string | null>();
    if (tree.commitSha !== ws.commitSha) {
      const texts = tree.files.filter((f) => f.size <= MAX_TEXT_FILE_BYTES);
      for (let i = 0; i < texts.length; i += READ_BATCH) {
        const batch = await client.files.readMany.mutate({ projectId, commitSha: tree.commitSha, paths: texts.slice(i, i + READ_BATCH).map((f) => f.path) });
        for (const f of batch) contents.set(f.path, f.content);
      }
    }
    remote = {
      ref: tree.ref,
      commitSha: tree.commitSha,
      files: tree.files.map((f) => ({ path: f.path, size: f.size, content: contents.get(f.path) ?? null })),
    };
    const options = await client.lint.options.query({ projectId }).catch(() => null);
    if (options) core.store.cache(`lint-options:${projectId}`, options);
  } catch (err) {
    throw serverError(err);
  }
  if (remote.commitSha === ws.commitSha) return { commitSha: ws.commitSha, updated: [], merged: [], conflicts: conflictPaths(core, projectId) };
  const result = applyRemote(core, projectId, remote);
  core.filesChanged(projectId);
  return result;
}

/** Lays the fetched head over the store in one transaction (see the module doc). */
function applyRemote(
  core: Core,
  projectId: string,
  remote: { ref: string; commitSha: string; files: { path: string; size: number; content: string | null }[] },
): RefreshResult {
  const db = core.store.db;
  const now = new Date().toISOString();
  const updated: string[] = [];
  const merged: string[] = [];
  const setFile = db.prepare(
    `INSERT INTO files (project_id, path, size, base_content, local_content, base_commit, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT(project_id, path) DO UPDATE SET size = excluded.size, base_content = excluded.base_content, local_content = excluded.local_content,
       base_commit = excluded.base_commit, updated_at = excluded.updated_at`,
  );
  const setConflict = db.prepare(
    `INSERT INTO merge_conflicts (project_id, path, commit_sha, remote_content, deleted_on_server, regions, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT(project_id, path) DO UPDATE SET commit_sha = excluded.commit_sha, remote_content = excluded.remote_content,
       deleted_on_server = excluded.deleted_on_server, regions = excluded.regions, created_at = excluded.created_at`,
  );
  const clearConflict = db.prepare('DELETE FROM merge_conflicts WHERE project_id = ? AND path = ?');
  const dropFile = db.prepare('DELETE FROM files WHERE project_id = ? AND path = ?');

  db.transaction(() => {
    const rows = db.prepare('SELECT path, size, base_content, local_content FROM files WHERE project_id = ?').all(projectId) as {
      path: string;
      size: number;
      base_content: string | null;
      local_content: string | null;
    }[];
    const local = new Map(rows.map((r) => [r.path, r]));
    const conflict = (path: string, theirs: string, deleted: boolean, regions: MergeRegion[]) =>
      setConflict.run(projectId, path, remote.commitSha, theirs, deleted ? 1 : 0, JSON.stringify(regions), now);

    for (const f of remote.files) {
      const row = local.get(f.path);
      const edited = row !== undefined && row.local_content !== null && row.local_content !== row.base_content;
      if (!row || !edited) {
        if (!row || row.base_content !== f.content || row.size !== f.size) updated.push(f.path);
        setFile.run(projectId, f.path, f.size, f.content, null, remote.commitSha, now);
        clearConflict.run(projectId, f.path);
        continue;
      }
      const base = row.base_content ?? '';
      const mine = row.local_content!;
      if (f.content === null) {
        // the server's file became binary or too large to merge: keep the local text, the server's side cannot be shown
        conflict(f.path, '', false, [{ conflict: true, base, local: mine, remote: '' }]);
        continue;
      }
      if (f.content === row.base_content) {
        // changed only here: keep the edit on the new head
        setFile.run(projectId, f.path, Buffer.byteLength(mine), f.content, mine, remote.commitSha, now);
        clearConflict.run(projectId, f.path);
        continue;
      }
      const m = mergePage(base, mine, f.content);
      if ('merged' in m) {
        setFile.run(projectId, f.path, Buffer.byteLength(m.merged), f.content, m.merged === f.content ? null : m.merged, remote.commitSha, now);
        clearConflict.run(projectId, f.path);
        merged.push(f.path);
      } else {
        // a real conflict: the local text and its base stay as they are until the person decides
        conflict(f.path, f.content, false, m.regions);
      }
    }
    const onServer = new Set(remote.files.map((f) => f.path));
    for (const row of rows) {
      if (onServer.has(row.path)) continue;
      const edited = row.local_content !== null && row.local_content !== row.base_content;
      if (!edited) {
        dropFile.run(projectId, row.path);
        clearConflict.run(projectId, row.path);
        updated.push(row.path);
      } else if (row.base_content !== null) {
        // edited here, deleted on the server: the person decides (keep the page, or take the deletion by saving it empty)
        conflict(row.path, '', true, [{ conflict: true, base: row.base_content, local: row.local_content!, remote: '' }]);
      }
      // a page created here (no base) that the server never had stays as it is
    }
    db.prepare('UPDATE workspaces SET ref = ?, commit_sha = ?, opened_at = ? WHERE project_id = ?').run(remote.ref, remote.commitSha, now, projectId);
  })();
  return { commitSha: remote.commitSha, updated: updated.sort(), merged: merged.sort(), conflicts: conflictPaths(core, projectId) };
}

/**
 * The recorded conflict of a page: its regions for the merge view.
 * @throws NOT_FOUND when the page is not in conflict
 */
export function pageConflict(core: Core, projectId: string, path: string): PageConflict {
  const row = core.store.db.prepare('SELECT commit_sha, deleted_on_server, regions, remote_content FROM merge_conflicts WHERE project_id = ? AND path = ?').get(projectId, path) as
    | { commit_sha: string; deleted_on_server: number; regions: string; remote_content: string }
    | undefined;
  if (!row) throw new CoreError('NOT_FOUND', `${path} is not in conflict.`);
  let regions = JSON.parse(row.regions) as MergeRegion[];
  const file = core.store.file(projectId, path);
  if (row.deleted_on_server === 0 && row.remote_content !== '' && file?.base != null && file.content !== null) {
    // the page may have been edited since the refresh: merge its current text again
    const m = mergePage(file.base, file.content, row.remote_content);
    regions = 'merged' in m ? [{ conflict: false, text: m.merged }] : m.regions;
  }
  return { path, commitSha: row.commit_sha, deletedOnServer: row.deleted_on_server === 1, regions };
}

/**
 * Resolves a conflict with the text the person chose: the server's text becomes the page's base
 * (so the proposal carries exactly the person's decisions over the server's head), `text` its local
 * text, and the conflict is cleared, in one transaction. A page deleted on the server and resolved
 * with an empty text is deleted here too.
 * @throws NOT_FOUND when the page is not in conflict
 * @returns the unresolved conflicts left
 */
export function resolveConflict(core: Core, projectId: string, path: string, text: string): { conflicts: string[] } {
  const db = core.store.db;
  const row = db.prepare('SELECT commit_sha, remote_content, deleted_on_server FROM merge_conflicts WHERE project_id = ? AND path = ?').get(projectId, path) as
    | { commit_sha: string; remote_content: string; deleted_on_server: number }
    | undefined;
  if (!row) throw new CoreError('NOT_FOUND', `${path} is not in conflict.`);
  const now = new Date().toISOString();
  db.transaction(() => {
    if (row.deleted_on_server === 1) {
      if (text === '') db.prepare('DELETE FROM files WHERE project_id = ? AND path = ?').run(projectId, path);
      else db.prepare('UPDATE files SET base_content = NULL, local_content = ?, size = ?, base_commit = ?, updated_at = ? WHERE project_id = ? AND path = ?').run(text, Buffer.byteLength(text), row.commit_sha, now, projectId, path);
    } else {
      db.prepare('UPDATE files SET base_content = ?, local_content = ?, size = ?, base_commit = ?, updated_at = ? WHERE project_id = ? AND path = ?').run(
        row.remote_content,
        text === row.remote_content ? null : text,
        Buffer.byteLength(text),
        row.commit_sha,
        now,
        projectId,
        path,
      );
    }
    db.prepare('DELETE FROM merge_conflicts WHERE project_id = ? AND path = ?').run(projectId, path);
  })();
  core.filesChanged(projectId);
  return { conflicts: conflictPaths(core, projectId) };
}

/**
 * `workspace.open` for server projects: the first time, {@link Core.openWorkspace}; when the
 * project was opened here before, a {@link refreshWorkspace} (so local edits are merged with the
 * server's changes, never overwritten nor reverted), falling back to the stored copy offline.
 * @returns the opened workspace, with the refresh's answer when one ran (null otherwise)
 */
export async function openOrRefresh(core: Core, projectId: string): Promise<OpenedWorkspace & { refresh: RefreshResult | null }> {
  if (!core.store.workspace(projectId)) return { ...(await core.openWorkspace(projectId)), refresh: null };
  try {
    const refresh = await refreshWorkspace(core, projectId);
    const ws = core.store.workspace(projectId)!;
    return { projectId, ref: ws.ref, commitSha: ws.commitSha, fileCount: core.store.files(projectId).length, offline: false, refresh };
  } catch (err) {
    if (!(err instanceof CoreError) || err.code !== 'UNAVAILABLE') throw err;
    const ws = core.store.workspace(projectId)!;
    return { projectId, ref: ws.ref, commitSha: ws.commitSha, fileCount: core.store.files(projectId).length, offline: true, refresh: null };
  }
}
