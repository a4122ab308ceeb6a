import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { OpenedWorkspace } from './core';
import { MAX_TEXT_FILE_BYTES } from './core';
import { CoreError } from './core-error';
import type { LocalStore } from './store';

/**
 * Projects opened from a folder (or git checkout) on this computer, no server needed: the folder's
 * files are read into the local store as a project `local:<hash of the folder path>` (so the tree,
 * preview and lint work as for a server project; lint with the built-in rules, there are no project
 * rules offline), and every saved edit is written to the file on disk too (a temporary file in the
 * same folder, then renamed over the file, so a crash never leaves half a page). The folder is the
 * truth: opening it again reads the files as they are on disk. Proposing changes is not offered
 * for local folders (they are on no server).
 * Files are listed as `workspace.open` lists a repository's: every regular file, those over
 * {@link MAX_TEXT_FILE_BYTES} or holding NUL bytes without content; `.git` and `node_modules`
 * folders and symbolic links are skipped.
 */

/** The prefix of local folder project ids. */
export const LOCAL_PROJECT_PREFIX = 'local:';
/** Most files a folder may hold (past it, the folder is refused: it is likely not a docs folder). */
export const MAX_FOLDER_FILES = 10_000;
const SKIPPED_DIRS = new Set(['.git', 'node_modules']);

/** A local folder project as `projects.list` shows it under "Local folders". */
export interface LocalFolderProject {
  id: string;
  name: string;
  slug: string;
  branch: string | null;
  /** the folder's absolute path */
  path: string;
}

/** True for the id of a local folder project. */
export function isLocalProject(projectId: string): boolean {
  return projectId.startsWith(LOCAL_PROJECT_PREFIX);
}

/** The project id of a folder: `local:` and the first 16 hex digits of the SHA-256 of its real path. */
export function localProjectId(realPath: string): string {
  return LOCAL_PROJECT_PREFIX + crypto.createHash('sha256').update(realPath).digest('hex').slice(0, 16);
}

/** The checked-out branch and commit of a git checkout (read from `.git`), or `folder` and '' for a plain folder. */
function gitHead(root: string): { ref: string; commitSha: string } {
  try {
    const head = fs.readFileSync(path.join(root, '.git', 'HEAD'), 'utf8').trim();
    const m = /^ref: refs\/heads\/(.+)$/.exec(head);
    if (!m) return { ref: 'detached', commitSha: /^[0-9a-f]{40}$/.test(head) ? head : '' };
    let sha = '';
    try {
      sha = fs.readFileSync(path.join(root, '.git', 'refs', 'heads', m[1]!), 'utf8').trim();
    } catch {
      try {
        const packed = fs.readFileSync(path.join(root, '.git', 'packed-refs'), 'utf8');
        sha = packed.split('\n').find((l) => l.endsWith(` refs/heads/${m[1]}`))?.slice(0, 40) ?? '';
      } catch {
        sha = ''; // a new branch with no commit yet
      }
    }
    return { ref: m[1]!, commitSha: /^[0-9a-f]{40}$/.test(sha) ? sha : '' };
  } catch {
    return { ref: 'folder', commitSha: '' };
  }
}

/** The files of a folder (see the module doc), paths with `/`, sorted. @throws BAD_REQUEST past {@link MAX_FOLDER_FILES} */
function readFolder(root: string): { path: string; size: number; content: string | null }[] {
  const out: { path: string; size: number; content: string | null }[] = [];
  const walk = (dir: string, rel: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const relPath = rel ? `${rel}/${entry.name}` : entry.name;
      if (entry.isDirectory()) {
        if (!SKIPPED_DIRS.has(entry.name)) walk(path.join(dir, entry.name), relPath);
        continue;
      }
      if (!entry.isFile()) continue; // symbolic links, sockets...
      if (out.length >= MAX_FOLDER_FILES) throw new CoreError('BAD_REQUEST', `This folder holds more than ${MAX_FOLDER_FILES} files; open the folder of the docs themselves.`);
      const abs = path.join(dir, entry.name);
      const size = fs.statSync(abs).size;
      let content: string | null = null;
      if (size <= MAX_TEXT_FILE_BYTES) {
        const buf = fs.readFileSync(abs);
        content = buf.includes(0) ? null : buf.toString('utf8');
      }
      out.push({ path: relPath, size, content });
    }
  };
  walk(root, '');
  return out.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/**
 * The local folders of one core (see the module doc), made once by compose.ts, which also routes
 * each saved edit through {@link LocalFolders.writeThrough}.
 */
export class LocalFolders {
  /**
   * @param store the local store the folders' files are read into
   * @param filesChanged tells the preview that a project's files changed (`Core.filesChanged`)
   */
  constructor(
    private readonly store: LocalStore,
    private readonly filesChanged: (projectId: string) => void,
  ) {}

  /**
   * Writes a saved edit (text, or a binary file's bytes) of a local folder project to its folder on disk (other projects: nothing).
   * @throws CoreError BAD_REQUEST for a path outside the folder; NOT_FOUND for a folder never opened here;
   *   INTERNAL with the reason when the disk refuses (the edit stays in the store)
   */
  writeThrough(projectId: string, filePath: string, content: string | Buffer): void {
    if (isLocalProject(projectId)) this.writeToDisk(projectId, filePath, content);
  }

  /**
   * Removes a deleted file of a local folder project from its folder on disk (other projects: nothing).
   * @throws CoreError BAD_REQUEST for a path outside the folder; NOT_FOUND for a folder never opened here
   */
  deleteThrough(projectId: string, filePath: string): void {
    if (isLocalProject(projectId)) this.removeFromDisk(projectId, filePath);
  }

  /** The local folders opened here, most recent first. */
  list(): LocalFolderProject[] {
    const rows = this.store.db.prepare('SELECT project_id, folder_path, name FROM local_folders ORDER BY opened_at DESC').all() as { project_id: string; folder_path: string; name: string }[];
    return rows.map((r) => ({ id: r.project_id, name: r.name, slug: r.name, branch: this.store.workspace(r.project_id)?.ref ?? null, path: r.folder_path }));
  }

  private folderOf(projectId: string): string {
    const row = this.store.db.prepare('SELECT folder_path FROM local_folders WHERE project_id = ?').get(projectId) as { folder_path: string } | undefined;
    if (!row) throw new CoreError('NOT_FOUND', 'This local folder was never opened here; open it again with its path.');
    return row.folder_path;
  }

  /**
   * Opens the folder at `folderPath` (absolute) as a local project: reads its files into the store
   * (as they are on disk) and lists it under "Local folders".
   * @throws BAD_REQUEST for a relative path, a path that is not a readable folder, or too many files
   */
  open(folderPath: string): OpenedWorkspace & { name: string; path: string } {
    if (!path.isAbsolute(folderPath)) throw new CoreError('BAD_REQUEST', 'Give the folder\'s full path (starting with / or a drive letter).');
    let root: string;
    try {
      root = fs.realpathSync(folderPath);
      if (!fs.statSync(root).isDirectory()) throw new Error('not a folder');
    } catch {
      throw new CoreError('BAD_REQUEST', `${folderPath} is not a folder that can be read.`);
    }
    const projectId = localProjectId(root);
    const name = path.basename(root) || root;
    const files = readFolder(root);
    const head = gitHead(root);
    const db = this.store.db;
    db.transaction(() => {
      db.prepare('DELETE FROM files WHERE project_id = ?').run(projectId); // the folder is the truth
      this.store.saveWorkspace(projectId, head.ref, head.commitSha, files);
      db.prepare(
        'INSERT INTO local_folders (project_id, folder_path, name, opened_at) VALUES (?, ?, ?, ?) ON CONFLICT(project_id) DO UPDATE SET folder_path = excluded.folder_path, name = excluded.name, opened_at = excluded.opened_at',
      ).run(projectId, root, name, new Date().toISOString());
    })();
    this.filesChanged(projectId);
    return { projectId, ref: head.ref, commitSha: head.commitSha, fileCount: files.length, offline: false, name, path: root };
  }

  /** Opens a local project again by id (reading its folder as it is now). @throws NOT_FOUND for an unknown id; BAD_REQUEST when the folder is gone */
  reopen(projectId: string): OpenedWorkspace {
    const { name: _name, path: _path, ...ws } = this.open(this.folderOf(projectId));
    return ws;
  }

  /**
   * The bytes on disk of a file of a local folder project (binary files are in the store without
   * content; the preview serves them from here), or null when the file cannot be read, leaves the
   * folder (through `..` or a symbolic link) or the project is no local folder opened here.
   */
  readBytes(projectId: string, filePath: string): Buffer | null {
    if (!isLocalProject(projectId)) return null;
    try {
      const root = this.folderOf(projectId);
      const target = fs.realpathSync(path.resolve(root, filePath));
      if (!target.startsWith(root + path.sep) || !fs.statSync(target).isFile()) return null;
      return fs.readFileSync(target);
    } catch {
      return null;
    }
  }

  /**
   * Removes a file deleted in Quire from the folder; refuses paths that leave it or a symbolic link.
   * @throws CoreError INTERNAL with the reason when the disk refuses
   */
  private removeFromDisk(projectId: string, filePath: string): void {
    const root = this.folderOf(projectId);
    const target = path.resolve(root, filePath);
    if (!target.startsWith(root + path.sep)) throw new CoreError('BAD_REQUEST', `${filePath} is outside the folder.`);
    try {
      if (fs.lstatSync(target, { throwIfNoEntry: false })?.isSymbolicLink()) throw new Error('the file is a symbolic link');
      fs.rmSync(target, { force: true });
    } catch (err) {
      const message = `The page is deleted in Quire but ${target} could not be removed: ${(err as Error).message}`;
      throw new CoreError('INTERNAL', message);
    }
  }

  /**
   * Writes a saved edit to the folder: a temporary file beside the target, flushed, then renamed
   * over it (keeping the file's mode). Refuses paths that leave the folder or go through a symbolic link.
   * @throws INTERNAL with the reason when the disk refuses (the edit stays in the store)
   */
  private writeToDisk(projectId: string, filePath: string, content: string | Buffer): void {
    const root = this.folderOf(projectId);
    const target = path.resolve(root, filePath);
    if (!target.startsWith(root + path.sep)) throw new CoreError('BAD_REQUEST', `${filePath} is outside the folder.`);
    try {
      fs.mkdirSync(path.dirname(target), { recursive: true });
      if (fs.realpathSync(path.dirname(target)) !== path.dirname(target)) throw new Error('the path goes through a symbolic link');
      let mode = 0o644;
      try {
        const st = fs.lstatSync(target);
        if (st.isSymbolicLink()) throw new Error('the file is a symbolic link');
        mode = st.mode & 0o777;
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
      }
      const tmp = path.join(path.dirname(target), `.${path.basename(target)}.quire-${process.pid}-${crypto.randomBytes(4).toString('hex')}.tmp`);
      try {
        const fd = fs.openSync(tmp, 'wx', mode);
        try {
          fs.writeFileSync(fd, content);
          fs.fsyncSync(fd);
        } finally {
          fs.closeSync(fd);
        }
        fs.renameSync(tmp, target);
      } catch (err) {
        fs.rmSync(tmp, { force: true });
        throw err;
      }
    } catch (err) {
      throw new CoreError('INTERNAL', `The edit is saved in Quire but could not be written to ${target}: ${(err as Error).message}`, { cause: err });
    }
  }
}
