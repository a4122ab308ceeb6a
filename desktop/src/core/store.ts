import path from 'node:path';
import Database from 'better-sqlite3';
import { makePrivateDir, makePrivateFile } from './private-files';

/**
 * The core's local store: one SQLite file (`<dataDir>/quire-desktop.db`, WAL journal, synchronous
 * FULL so that an edit acknowledged to the renderer survives a crash or power loss). Holds the
 * session (server URL and who is signed in; the token itself is in a {@link TokenVault}), the
 * project list as last fetched (offline use), the opened workspaces, and their files with the base
 * content from the server and the local edit (or deletion: `files.deleted`; a binary file's bytes: `files.local_bytes`,
 * and the base's bytes once fetched for the preview: `files.base_bytes`). All methods are
 * synchronous and throw SQLite errors as is.
 */
export interface SessionRecord {
  serverUrl: string;
  userId: string;
  email: string;
  name: string;
  orgId: string;
  orgName: string;
  role: string;
  /** ISO 8601 expiry of the token */
  expiresAt: string;
}

/** One cached project (the fields the workspace uses from the server's project DTO). */
export interface CachedProject {
  id: string;
  name: string;
  slug: string;
  /** the project's configured branch, when known */
  branch: string | null;
}

/** An opened project: which commit its base files come from. */
export interface WorkspaceRecord {
  projectId: string;
  ref: string;
  commitSha: string;
  openedAt: string;
}

/** A file of an opened project. `content` is the local text (the edit, or the base when unedited); null for a binary file. */
export interface StoredFile {
  path: string;
  base: string | null;
  content: string | null;
  /** bytes: of the local text or bytes, else of the base */
  size: number;
  /** true when the local text differs from the base, or the file's bytes were written here ({@link LocalStore.writeBytes}) */
  modified: boolean;
}

/** The stored bytes of a binary file: written here (`local`), or the base commit's as fetched from the server. */
export interface StoredBytes {
  bytes: Buffer;
  local: boolean;
}

/** The columns {@link toStoredFile} reads. */
const FILE_COLUMNS = 'path, size, base_content, local_content, local_bytes IS NOT NULL AS local_binary';
type FileRow = { path: string; size: number; base_content: string | null; local_content: string | null; local_binary: number };

/**
 * Tables of offline review work and sync (outbox.ts, sync-client.ts, reviews.ts):
 * - `sync_state`: key/value (the installation's `client_id`, the last sequence number given, the pull cursor).
 * - `outbox`: one row per mutation, numbered per client id; `state` pending → done | refused (| dismissed);
 *   `view` holds what the local views show until the server's copy is pulled; `settled` once a pull after
 *   its acknowledgement brought the server's copy.
 * - `local_ids`: the server id of each object created offline (review or comment localId → rev_/cmt_ id).
 * - `review_cache`, `review_comment_cache`, `review_file_cache`: the reviews as last pulled (server state).
 */
const SYNC_SCHEMA = `
CREATE TABLE IF NOT EXISTS sync_state (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS outbox (
  client_id TEXT NOT NULL, seq INTEGER NOT NULL, type TEXT NOT NULL, project_id TEXT NOT NULL,
  review_ref TEXT NOT NULL, local_id TEXT, mutation TEXT NOT NULL, summary TEXT NOT NULL, view TEXT,
  state TEXT NOT NULL DEFAULT 'pending', attempts INTEGER NOT NULL DEFAULT 0, code TEXT, reason TEXT,
  result TEXT, settled INTEGER NOT NULL DEFAULT 0, created_at TEXT NOT NULL, updated_at TEXT NOT NULL,
  PRIMARY KEY (client_id, seq)
);
CREATE INDEX IF NOT EXISTS outbox_state ON outbox (state, seq);
CREATE TABLE IF NOT EXISTS local_ids (local_id TEXT PRIMARY KEY, kind TEXT NOT NULL, server_id TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS review_cache (
  id TEXT PRIMARY KEY, project_id TEXT NOT NULL, data TEXT NOT NULL, updated_at TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS review_comment_cache (
  id TEXT PRIMARY KEY, review_id TEXT NOT NULL, position INTEGER NOT NULL, data TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS review_file_cache (
  review_id TEXT NOT NULL, path TEXT NOT NULL, change TEXT NOT NULL, before_content TEXT, after_content TEXT,
  truncated INTEGER NOT NULL DEFAULT 0, PRIMARY KEY (review_id, path)
);
`;

/**
 * Tables of workspace-refresh.ts and local-folder.ts:
 * - `merge_conflicts`: a page edited both locally and on the server whose three-way merge conflicted:
 *   the server's commit and text it was merged with, and the merge regions (JSON, shared/src/sync
 *   `MergeRegion[]`), until the person resolves it.
 * - `local_folders`: projects opened from a folder on this computer (`local:<hash>` id → folder path).
 */
const WORKSPACE_SCHEMA = `
CREATE TABLE IF NOT EXISTS merge_conflicts (
  project_id TEXT NOT NULL, path TEXT NOT NULL, commit_sha TEXT NOT NULL, remote_content TEXT NOT NULL,
  deleted_on_server INTEGER NOT NULL DEFAULT 0, regions TEXT NOT NULL, created_at TEXT NOT NULL,
  PRIMARY KEY (project_id, path)
);
CREATE TABLE IF NOT EXISTS local_folders (
  project_id TEXT PRIMARY KEY, folder_path TEXT NOT NULL UNIQUE, name TEXT NOT NULL, opened_at TEXT NOT NULL
);
`;

const SCHEMA = `
CREATE TABLE IF NOT EXISTS session (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  server_url TEXT NOT NULL, user_id TEXT NOT NULL, email TEXT NOT NULL, name TEXT NOT NULL,
  org_id TEXT NOT NULL, org_name TEXT NOT NULL, role TEXT NOT NULL, expires_at TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS projects (
  id TEXT PRIMARY KEY, server_url TEXT NOT NULL, name TEXT NOT NULL, slug TEXT NOT NULL, branch TEXT,
  position INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS workspaces (
  project_id TEXT PRIMARY KEY, ref TEXT NOT NULL, commit_sha TEXT NOT NULL, opened_at TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS files (
  project_id TEXT NOT NULL, path TEXT NOT NULL, size INTEGER NOT NULL,
  base_content TEXT, local_content TEXT, base_commit TEXT NOT NULL, updated_at TEXT NOT NULL,
  PRIMARY KEY (project_id, path)
);
CREATE TABLE IF NOT EXISTS cache (
  key TEXT PRIMARY KEY, value TEXT NOT NULL, updated_at TEXT NOT NULL
);
${SYNC_SCHEMA}${WORKSPACE_SCHEMA}`;

/** The local store over one SQLite file. Open with {@link openStore}; `close()` when done. */
export class LocalStore {
  readonly db: Database.Database;

  constructor(file: string) {
    this.db = new Database(file);
    this.db.pragma('journal_mode = WAL');
    this.db.pragma('synchronous = FULL');
    this.db.exec(SCHEMA);
    migrateFilesDeleted(this.db);
    migrateFilesBytes(this.db);
  }

  close(): void {
    if (this.db.open) this.db.close();
  }

  /** The signed-in session, or null. */
  session(): SessionRecord | null {
    const row = this.db.prepare('SELECT * FROM session WHERE id = 1').get() as Record<string, string> | undefined;
    if (!row) return null;
    return {
      serverUrl: row.server_url!,
      userId: row.user_id!,
      email: row.email!,
      name: row.name!,
      orgId: row.org_id!,
      orgName: row.org_name!,
      role: row.role!,
      expiresAt: row.expires_at!,
    };
  }

  /** Records who signed in (replacing any earlier session). */
  saveSession(s: SessionRecord): void {
    this.db
      .prepare(
        `INSERT INTO session (id, server_url, user_id, email, name, org_id, org_name, role, expires_at)
         VALUES (1, @serverUrl, @userId, @email, @name, @orgId, @orgName, @role, @expiresAt)
         ON CONFLICT(id) DO UPDATE SET server_url = excluded.server_url, user_id = excluded.user_id, email = excluded.email,
           name = excluded.name, org_id = excluded.org_id, org_name = excluded.org_name, role = excluded.role, expires_at = excluded.expires_at`,
      )
      .run(s);
  }

  /** Forgets the session (local files and edits stay). */
  clearSession(): void {
    this.db.prepare('DELETE FROM session').run();
  }

  /** Replaces the cached project list of `serverUrl`, keeping the given order. */
  saveProjects(serverUrl: string, projects: CachedProject[]): void {
    const insert = this.db.prepare('INSERT INTO projects (id, server_url, name, slug, branch, position) VALUES (?, ?, ?, ?, ?, ?)');
    this.db.transaction(() => {
      this.db.prepare('DELETE FROM projects WHERE server_url = ?').run(serverUrl);
      projects.forEach((p, i) => insert.run(p.id, serverUrl, p.name, p.slug, p.branch, i));
    })();
  }

  /** The cached project list of `serverUrl`, in the order last fetched. */
  projects(serverUrl: string): CachedProject[] {
    return this.db.prepare('SELECT id, name, slug, branch FROM projects WHERE server_url = ? ORDER BY position').all(serverUrl) as CachedProject[];
  }

  /**
   * Stores an opened project's files at `commitSha` in one transaction. Files edited locally keep
   * their edit (only the base moves); files no longer in the tree are dropped unless edited. Base
   * bytes cached for a binary file ({@link saveBaseBytes}) are dropped when the base commit moves.
   */
  saveWorkspace(projectId: string, ref: string, commitSha: string, files: { path: string; size: number; content: string | null }[]): void {
    const now = new Date().toISOString();
    const upsert = this.db.prepare(
      `INSERT INTO files (project_id, path, size, base_content, local_content, base_commit, updated_at) VALUES (?, ?, ?, ?, NULL, ?, ?)
       ON CONFLICT(project_id, path) DO UPDATE SET size = excluded.size, base_content = excluded.base_content,
         base_bytes = CASE WHEN files.base_commit = excluded.base_commit THEN files.base_bytes ELSE NULL END,
         base_commit = excluded.base_commit, updated_at = excluded.updated_at`,
    );
    this.db.transaction(() => {
      this.db
        .prepare('INSERT INTO workspaces (project_id, ref, commit_sha, opened_at) VALUES (?, ?, ?, ?) ON CONFLICT(project_id) DO UPDATE SET ref = excluded.ref, commit_sha = excluded.commit_sha, opened_at = excluded.opened_at')
        .run(projectId, ref, commitSha, now);
      const keep = new Set(files.map((f) => f.path));
      const rows = this.db.prepare('SELECT path, local_content IS NULL AND local_bytes IS NULL AS unedited FROM files WHERE project_id = ?').all(projectId) as {
        path: string;
        unedited: number;
      }[];
      for (const row of rows) {
        if (!keep.has(row.path) && row.unedited) this.db.prepare('DELETE FROM files WHERE project_id = ? AND path = ?').run(projectId, row.path);
      }
      for (const f of files) upsert.run(projectId, f.path, f.size, f.content, commitSha, now);
    })();
  }

  /** The opened project's record, or null when it was never opened here. */
  workspace(projectId: string): WorkspaceRecord | null {
    const row = this.db.prepare('SELECT project_id, ref, commit_sha, opened_at FROM workspaces WHERE project_id = ?').get(projectId) as
      | { project_id: string; ref: string; commit_sha: string; opened_at: string }
      | undefined;
    return row ? { projectId: row.project_id, ref: row.ref, commitSha: row.commit_sha, openedAt: row.opened_at } : null;
  }

  /** Every file of an opened project, by path. */
  files(projectId: string): StoredFile[] {
    const sql = `SELECT ${FILE_COLUMNS} FROM files WHERE project_id = ? AND deleted = 0 ORDER BY path`;
    return (this.db.prepare(sql).all(projectId) as FileRow[]).map(toStoredFile);
  }

  /**
   * The files of the workspace's base commit, sorted by path: every stored file but those created here, deleted ones included;
   * `base` is the base text (null for a binary file). A binary file written here whose name the base lacks has no base bytes
   * and no base text, so it is left out too (images are added under new names).
   */
  baseFiles(projectId: string): Array<{ path: string; base: string | null }> {
    const sql = 'SELECT path, base_content FROM files WHERE project_id = ? AND (base_content IS NOT NULL OR base_bytes IS NOT NULL OR (local_content IS NULL AND local_bytes IS NULL)) ORDER BY path';
    return (this.db.prepare(sql).all(projectId) as { path: string; base_content: string | null }[]).map((r) => ({ path: r.path, base: r.base_content }));
  }

  /** Paths of the files of an opened project whose local content differs from their base, whose bytes were written here, and of those deleted here, sorted. */
  changedPaths(projectId: string): string[] {
    const rows = this.db
      .prepare(
        `SELECT path FROM files WHERE project_id = ?
           AND (deleted = 1 OR local_bytes IS NOT NULL OR (local_content IS NOT NULL AND (base_content IS NULL OR local_content <> base_content))) ORDER BY path`,
      )
      .all(projectId) as { path: string }[];
    return rows.map((r) => r.path);
  }

  /** One file, or null (also for a file deleted here, see {@link deletedFile}). */
  file(projectId: string, filePath: string): StoredFile | null {
    const sql = `SELECT ${FILE_COLUMNS} FROM files WHERE project_id = ? AND path = ? AND deleted = 0`;
    const row = this.db.prepare(sql).get(projectId, filePath) as FileRow | undefined;
    return row ? toStoredFile(row) : null;
  }

  /** True when the project has a row at `filePath`, a file deleted here included (a new file must not take its path). */
  hasPath(projectId: string, filePath: string): boolean {
    return this.db.prepare('SELECT 1 FROM files WHERE project_id = ? AND path = ?').get(projectId, filePath) !== undefined;
  }

  /**
   * Saves a binary file's bytes written here (durable when this returns), creating the file when it
   * is new; it is then a local change (`modified`) whose bytes {@link fileBytes} gives, and has no text.
   * @throws Error when the project is not open
   */
  writeBytes(projectId: string, filePath: string, bytes: Buffer): StoredFile {
    const ws = this.workspace(projectId);
    if (!ws) throw new Error(`project ${projectId} is not open`);
    const now = new Date().toISOString();
    this.db
      .prepare(
        `INSERT INTO files (project_id, path, size, base_content, local_content, local_bytes, base_commit, updated_at) VALUES (?, ?, ?, NULL, NULL, ?, ?, ?)
         ON CONFLICT(project_id, path) DO UPDATE SET local_content = NULL, local_bytes = excluded.local_bytes, size = excluded.size, deleted = 0,
           updated_at = excluded.updated_at`,
      )
      .run(projectId, filePath, bytes.length, bytes, ws.commitSha, now);
    return this.file(projectId, filePath)!;
  }

  /** The bytes of a binary file: those written here, else the base's as cached by {@link saveBaseBytes}; null when neither is stored or the file is deleted. */
  fileBytes(projectId: string, filePath: string): StoredBytes | null {
    const row = this.db.prepare('SELECT local_bytes, base_bytes FROM files WHERE project_id = ? AND path = ? AND deleted = 0').get(projectId, filePath) as
      | { local_bytes: Buffer | null; base_bytes: Buffer | null }
      | undefined;
    if (row?.local_bytes) return { bytes: row.local_bytes, local: true };
    return row?.base_bytes ? { bytes: row.base_bytes, local: false } : null;
  }

  /**
   * Caches the bytes of a binary file of the base commit `commitSha` as fetched from the server;
   * nothing when the workspace's file has moved to another commit meanwhile.
   */
  saveBaseBytes(projectId: string, filePath: string, commitSha: string, bytes: Buffer): void {
    this.db.prepare('UPDATE files SET base_bytes = ? WHERE project_id = ? AND path = ? AND base_commit = ?').run(bytes, projectId, filePath, commitSha);
  }

  /**
   * Saves a local edit at once (durable when this returns). Creates the file when it is new (or
   * deleted here: it is back). Writing the base text back clears the edit.
   */
  writeFile(projectId: string, filePath: string, content: string): StoredFile {
    const ws = this.workspace(projectId);
    if (!ws) throw new Error(`project ${projectId} is not open`);
    const now = new Date().toISOString();
    this.db
      .prepare(
        `INSERT INTO files (project_id, path, size, base_content, local_content, base_commit, updated_at) VALUES (?, ?, ?, NULL, ?, ?, ?)
         ON CONFLICT(project_id, path) DO UPDATE SET local_content = CASE WHEN files.base_content IS excluded.local_content THEN NULL ELSE excluded.local_content END,
           local_bytes = NULL, size = excluded.size, deleted = 0, updated_at = excluded.updated_at`,
      )
      .run(projectId, filePath, Buffer.byteLength(content), content, ws.commitSha, now);
    return this.file(projectId, filePath)!;
  }

  /**
   * Deletes a file locally (durable when this returns): a file the base commit has is kept as a
   * deletion to propose (its base stays, {@link deletedFile}); a file created here is simply gone.
   * @returns false when there is no such file
   */
  deleteFile(projectId: string, filePath: string): boolean {
    const f = this.file(projectId, filePath);
    if (!f) return false;
    if (f.base === null) this.db.prepare('DELETE FROM files WHERE project_id = ? AND path = ?').run(projectId, filePath);
    else {
      this.db
        .prepare('UPDATE files SET deleted = 1, local_content = NULL, local_bytes = NULL, updated_at = ? WHERE project_id = ? AND path = ?')
        .run(new Date().toISOString(), projectId, filePath);
    }
    return true;
  }

  /** A file of the base commit deleted here: its path and base text (null for a binary file); null when the file is not deleted. */
  deletedFile(projectId: string, filePath: string): { path: string; base: string | null } | null {
    const row = this.db.prepare('SELECT path, base_content FROM files WHERE project_id = ? AND path = ? AND deleted = 1').get(projectId, filePath) as
      | { path: string; base_content: string | null }
      | undefined;
    return row ? { path: row.path, base: row.base_content } : null;
  }

  /** A cached JSON value (lint options of a project, ...), or undefined. */
  cached<T>(key: string): T | undefined {
    const row = this.db.prepare('SELECT value FROM cache WHERE key = ?').get(key) as { value: string } | undefined;
    return row ? (JSON.parse(row.value) as T) : undefined;
  }

  /** Stores a JSON value under `key`. */
  cache(key: string, value: unknown): void {
    this.db
      .prepare('INSERT INTO cache (key, value, updated_at) VALUES (?, ?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at')
      .run(key, JSON.stringify(value), new Date().toISOString());
  }

  /** Forgets the value under `key` (nothing when there is none). */
  uncache(key: string): void {
    this.db.prepare('DELETE FROM cache WHERE key = ?').run(key);
  }
}

/**
 * Adds `files.deleted` (1 = deleted here, the row keeping the base for the proposal) to a store
 * made before local deletions existed.
 */
function migrateFilesDeleted(db: Database.Database): void {
  const columns = db.prepare('PRAGMA table_info(files)').all() as { name: string }[];
  if (!columns.some((c) => c.name === 'deleted')) db.exec('ALTER TABLE files ADD COLUMN deleted INTEGER NOT NULL DEFAULT 0');
}

/**
 * Adds `files.base_bytes` (a binary file's bytes at the base commit, cached from the server for the
 * preview) and `files.local_bytes` (a binary file's bytes written here, a local change) to a store
 * made before binary files were kept.
 */
function migrateFilesBytes(db: Database.Database): void {
  const columns = new Set((db.prepare('PRAGMA table_info(files)').all() as { name: string }[]).map((c) => c.name));
  if (!columns.has('base_bytes')) db.exec('ALTER TABLE files ADD COLUMN base_bytes BLOB');
  if (!columns.has('local_bytes')) db.exec('ALTER TABLE files ADD COLUMN local_bytes BLOB');
}

function toStoredFile(row: FileRow): StoredFile {
  const content = row.local_content ?? (row.local_binary ? null : row.base_content);
  return { path: row.path, size: row.size, base: row.base_content, content, modified: row.local_content !== null || row.local_binary === 1 };
}

/** The store's file name in the data directory. */
export const STORE_FILE = 'quire-desktop.db';

/**
 * Opens (creating when needed) the store in `dataDir`: the directory is created with mode 0700, the
 * database file with mode 0600 before SQLite opens it, so SQLite gives its `-wal` and `-shm` files
 * the same mode (it copies the database's); ones left wider by an older version are set to 0600.
 */
export function openStore(dataDir: string): LocalStore {
  makePrivateDir(dataDir);
  const file = path.join(dataDir, STORE_FILE);
  makePrivateFile(file);
  for (const suffix of ['-wal', '-shm', '-journal']) makePrivateFile(file + suffix, { create: false });
  return new LocalStore(file);
}
