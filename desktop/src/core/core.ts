import type { GlossaryEntry } from '@quire/shared/docs/markdown/index';
import { createLinter, type Linter, type LinterOptions } from '@quire/shared/lint/linter';
import type { LintEdit, LintFinding, LintFix } from '@quire/shared/lint/types';
import { CoreError, serverError as toCoreError } from './core-error';
import { buildProjectModel, lintSiteConfig, workspaceTree, type TreeNode } from './project-model';
import type { PreviewService } from './preview-service';
import type { PreviewResult } from './preview-render';
import { createServerClient, isUnreachable, type ServerClient } from './server-client';
import type { CachedProject, LocalStore, SessionRecord, StoredFile } from './store';
import type { TokenVault } from './token-vault';

/** What a {@link Core} is made of, given by the composition root (compose.ts `createCore`). */
export interface CoreDeps {
  /** the open local store (the root closes it) */
  store: LocalStore;
  /** where the session token lives (file in web mode, safeStorage in Electron) */
  vault: TokenVault;
  /** the preview worker (the root stops it) */
  preview: PreviewService;
  /**
   * Called after each saved edit (a text, or a binary file's bytes), once the store holds it
   * (local-folder.ts writes it to the folder on disk too); an error it throws is the write's error.
   */
  fileWritten?: (projectId: string, path: string, content: string | Buffer) => void;
  /** Called after each local deletion, once the store holds it (local-folder.ts removes the file on disk too); an error it throws is the deletion's error. */
  fileDeleted?: (projectId: string, path: string) => void;
}

/** What `session.status` answers. */
export interface SessionStatus {
  signedIn: boolean;
  serverUrl: string | null;
  user: { email: string; name: string } | null;
  org: { id: string; name: string } | null;
}

/** What `workspace.open` answers. */
export interface OpenedWorkspace {
  projectId: string;
  ref: string;
  commitSha: string;
  fileCount: number;
  /** true when the server could not be reached and the stored copy was opened */
  offline: boolean;
}

/** Paths of snippet files (imported by other pages): a change to them reloads the preview's files. */
const SNIPPET_PATH = /(^|\/)_?snippets\//;

/** Largest text file the workspace keeps, in bytes (larger files are listed without content). */
export const MAX_TEXT_FILE_BYTES = 2 * 1024 * 1024;
/** Paths per `files.readMany` call (the server accepts at most 2,000). */
const READ_BATCH = 500;

/**
 * The session, projects, workspace files, lint and preview of the local app behind the renderer
 * (architecture.md "desktop"), over the local store, the server client, the linter and the preview
 * worker. Every method throws {@link CoreError}s whose messages are meant for the user (trpc.ts
 * passes them on). Made once by compose.ts; used by router.ts.
 */
export class Core {
  readonly store: LocalStore;
  private readonly vault: TokenVault;
  private readonly preview: PreviewService;
  private readonly fileWritten: CoreDeps['fileWritten'];
  private readonly fileDeleted: CoreDeps['fileDeleted'];
  private readonly linters = new Map<string, { key: string; linter: Linter }>();
  /** per project: bumped when a file changes, so the preview worker reloads the project */
  private readonly versions = new Map<string, number>();
  /** projects with page bodies edited since the preview worker last loaded them, and the page last previewed */
  private readonly bodyEdited = new Set<string>();
  private readonly lastPreviewed = new Map<string, string>();

  constructor(deps: CoreDeps) {
    this.store = deps.store;
    this.vault = deps.vault;
    this.preview = deps.preview;
    this.fileWritten = deps.fileWritten;
    this.fileDeleted = deps.fileDeleted;
  }

  /**
   * The signed-in session's server URL and token, for server clients the core does not make itself
   * (builds.ts: the build progress stream). @throws CoreError UNAUTHORIZED when nobody is signed in
   */
  serverSession(): { serverUrl: string; token: string } {
    return { serverUrl: this.requireSession().serverUrl, token: this.vault.get()! };
  }

  /**
   * A client of the signed-in session's server, holding the session's token as it is now, and the
   * server's URL (workspace-refresh.ts, preview-pass.ts, the sync client). @throws CoreError UNAUTHORIZED when nobody is signed in
   */
  sessionClient(): { client: ServerClient; serverUrl: string } {
    const { serverUrl, token } = this.serverSession();
    return { client: createServerClient(serverUrl, () => token), serverUrl };
  }

  private client(serverUrl?: string): ServerClient {
    const url = serverUrl ?? this.requireSession().serverUrl;
    return createServerClient(url, () => this.vault.get());
  }

  private requireSession(): SessionRecord {
    const s = this.store.session();
    if (!s || !this.vault.get()) throw new CoreError('UNAUTHORIZED', 'Sign in to a Quire server first.');
    return s;
  }

  /**
   * Signs in with the server's `auth.signIn`; keeps the token in the vault and who signed in in the store.
   * @throws CoreError UNAUTHORIZED with the server's message for a wrong e-mail or password; UNAVAILABLE when the server cannot be reached
   */
  async signIn(input: { serverUrl: string; email: string; password: string }): Promise<SessionStatus> {
    const serverUrl = input.serverUrl.replace(/\/+$/, '');
    let result;
    try {
      result = await createServerClient(serverUrl, () => null).auth.signIn.mutate({ email: input.email, password: input.password });
    } catch (err) {
      throw this.serverError(err, serverUrl);
    }
    this.vault.set(result.token);
    this.store.saveSession({
      serverUrl,
      userId: result.user.id,
      email: result.user.email,
      name: result.user.name ?? result.user.email,
      orgId: result.org.id,
      orgName: result.org.name,
      role: result.role,
      expiresAt: result.expiresAt,
    });
    return this.status();
  }

  /** Who is signed in (from the store; no network). */
  status(): SessionStatus {
    const s = this.store.session();
    if (!s || !this.vault.get()) return { signedIn: false, serverUrl: s?.serverUrl ?? null, user: null, org: null };
    return { signedIn: true, serverUrl: s.serverUrl, user: { email: s.email, name: s.name }, org: { id: s.orgId, name: s.orgName } };
  }

  /** Ends the session on the server when it answers, and forgets the token either way. */
  async signOut(): Promise<SessionStatus> {
    if (this.store.session() && this.vault.get()) {
      try {
        await this.client().auth.signOut.mutate();
      } catch {
        // offline or already expired: forgetting the token locally is what matters
      }
    }
    this.vault.clear();
    this.store.clearSession();
    return this.status();
  }

  /** The user's projects from the server (cached), or the cached list when the server cannot be reached. */
  async listProjects(): Promise<{ items: CachedProject[]; offline: boolean }> {
    const s = this.requireSession();
    try {
      const page = await this.client().projects.list.query({ page: 1, pageSize: 100 });
      const items = page.items.map((p) => ({ id: p.id, name: p.name, slug: p.slug, branch: (p as { repoBranch?: string | null }).repoBranch ?? null }));
      this.store.saveProjects(s.serverUrl, items);
      return { items, offline: false };
    } catch (err) {
      if (!isUnreachable(err)) throw this.serverError(err, s.serverUrl);
      return { items: this.store.projects(s.serverUrl), offline: true };
    }
  }

  /**
   * Opens a project: fetches the tree of its branch and the files' content through the server
   * (`files.tree`, `files.readMany`), stores them (local edits are kept), caches its lint options.
   * Offline, opens the stored copy. @throws NOT_FOUND when offline and the project was never opened here
   */
  async openWorkspace(projectId: string): Promise<OpenedWorkspace> {
    const s = this.requireSession();
    const client = this.client();
    try {
      const tree = await client.files.tree.query({ projectId });
      const texts = tree.files.filter((f) => f.size <= MAX_TEXT_FILE_BYTES);
      const contents = new Map<string, string | null>();
      for (let i = 0; i < texts.length; i += READ_BATCH) {
        const batch = await client.files.readMany.mutate({ projectId, commitSha: tree.commitSha, paths: texts.slice(i, i + READ_BATCH).map((f) => f.path) });
        for (const f of batch) contents.set(f.path, f.content);
      }
      this.store.saveWorkspace(
        projectId,
        tree.ref,
        tree.commitSha,
        tree.files.map((f) => ({ path: f.path, size: f.size, content: contents.get(f.path) ?? null })),
      );
      await this.refreshLintOptions(projectId).catch(() => undefined);
      this.bump(projectId);
      return { projectId, ref: tree.ref, commitSha: tree.commitSha, fileCount: tree.files.length, offline: false };
    } catch (err) {
      if (!isUnreachable(err)) throw this.serverError(err, s.serverUrl);
      const ws = this.store.workspace(projectId);
      if (!ws) throw new CoreError('NOT_FOUND', 'The server cannot be reached and this project was never opened on this computer.');
      return { projectId, ref: ws.ref, commitSha: ws.commitSha, fileCount: this.store.files(projectId).length, offline: true };
    }
  }

  private requireWorkspace(projectId: string) {
    const ws = this.store.workspace(projectId);
    if (!ws) throw new CoreError('NOT_FOUND', 'Open the project first.');
    return ws;
  }

  /** The text files of an opened project (path → local text). */
  private textFiles(projectId: string): Record<string, string> {
    const out: Record<string, string> = {};
    for (const f of this.store.files(projectId)) if (f.content !== null) out[f.path] = f.content;
    return out;
  }

  /**
   * The workspace tree (project-model.ts `workspaceTree`): the navigation of docs.json with pages
   * by title, then the other files. When the config does not load, every file is listed and
   * `error` says why.
   */
  tree(projectId: string): { nodes: TreeNode[]; error: string | null } {
    this.requireWorkspace(projectId);
    const all = this.store.files(projectId).map((f) => f.path);
    try {
      return { nodes: workspaceTree(buildProjectModel(this.textFiles(projectId)), all), error: null };
    } catch (err) {
      return { nodes: [{ label: 'Other files', kind: 'group', children: all.map((p) => ({ label: p, kind: 'file', path: p })) }], error: (err as Error).message };
    }
  }

  /** One stored file. @throws NOT_FOUND for a path the workspace does not hold */
  readFile(projectId: string, path: string): StoredFile {
    this.requireWorkspace(projectId);
    const f = this.store.file(projectId, path);
    if (!f) throw new CoreError('NOT_FOUND', `There is no file ${path} in this project.`);
    return f;
  }

  /** Saves a local edit (durable when it returns). */
  writeFile(projectId: string, path: string, content: string): StoredFile {
    this.requireWorkspace(projectId);
    const before = this.store.file(projectId, path)?.content ?? null;
    const f = this.store.writeFile(projectId, path, content);
    this.fileWritten?.(projectId, path, content);
    // The preview worker reloads the project's files only when what other pages see changed: a
    // config, snippet or other file, or a page's frontmatter (its title in the sidebar). The body of
    // the previewed page travels with each render.
    if (!/\.mdx?$/i.test(path) || before === null || frontmatterOf(before) !== frontmatterOf(content) || SNIPPET_PATH.test(path)) this.bump(projectId);
    else this.bodyEdited.add(projectId);
    return f;
  }

  /**
   * Saves a binary file's bytes as a local change (store.ts `writeBytes`; a local folder's file on
   * disk too) and reloads the preview's files, so a page showing it sees it at once.
   * @throws NOT_FOUND when the project was not opened; what `fileWritten` throws (the bytes stay in the store)
   */
  writeBytes(projectId: string, path: string, bytes: Buffer): StoredFile {
    this.requireWorkspace(projectId);
    const f = this.store.writeBytes(projectId, path, bytes);
    this.bump(projectId);
    this.fileWritten?.(projectId, path, bytes);
    return f;
  }

  /**
   * Deletes a file locally (store.ts `deleteFile`): a file of the base commit becomes a deletion
   * the next proposal carries (`{path, deleted: true}`); a file created here is gone. Writing the
   * path again brings it back.
   * @throws NOT_FOUND for a path the workspace does not hold
   */
  deleteFile(projectId: string, path: string): { path: string; deleted: true } {
    this.readFile(projectId, path);
    this.store.deleteFile(projectId, path);
    this.fileDeleted?.(projectId, path);
    this.bump(projectId);
    return { path, deleted: true };
  }

  /**
   * Renames (moves) a file: its local text is written at `to` and `from` is deleted, so a proposal
   * carries the pair as an added and a deleted file (git records a rename the same way).
   * @throws NOT_FOUND when `from` does not exist; CONFLICT when `to` already does; BAD_REQUEST for a binary file (its bytes are not in the workspace)
   */
  renameFile(projectId: string, from: string, to: string): StoredFile {
    const f = this.readFile(projectId, from);
    if (from === to) return f;
    if (this.store.file(projectId, to)) throw new CoreError('CONFLICT', `There is already a file ${to}; choose another path.`);
    if (f.content === null) throw new CoreError('BAD_REQUEST', `${from} is a binary file; it cannot be renamed here.`);
    const moved = this.writeFile(projectId, to, f.content);
    this.deleteFile(projectId, from);
    return moved;
  }

  /** Tells the preview worker that files of the project changed outside {@link writeFile} (workspace-refresh.ts, local-folder.ts). */
  filesChanged(projectId: string): void {
    this.bump(projectId);
  }

  private bump(projectId: string): void {
    this.bodyEdited.delete(projectId);
    this.versions.set(projectId, (this.versions.get(projectId) ?? 0) + 1);
  }

  private async refreshLintOptions(projectId: string): Promise<LinterOptions> {
    const options = await this.client().lint.options.query({ projectId });
    this.store.cache(`lint-options:${projectId}`, options);
    return options;
  }

  /** The project's lint options as last fetched (an empty set when never fetched). */
  private lintOptions(projectId: string): LinterOptions {
    return this.store.cached<LinterOptions>(`lint-options:${projectId}`) ?? {};
  }

  /** The project's linter (shared/src/lint, with the cached options); also used by editor-fixes.ts. */
  linter(projectId: string): Linter {
    const options = this.lintOptions(projectId);
    const key = JSON.stringify(options);
    const cached = this.linters.get(projectId);
    if (cached?.key === key) return cached.linter;
    const linter = createLinter(options);
    this.linters.set(projectId, { key, linter });
    return linter;
  }

  /**
   * Lints `text` as the file at `path` with the project's rules (shared/src/lint; offline, from the cached
   * options); docs.json against the workspace's own pages (project-model.ts `lintSiteConfig`).
   */
  async lint(projectId: string, path: string, text: string): Promise<LintFinding[]> {
    this.requireWorkspace(projectId);
    return (await lintSiteConfig(this.textFiles(projectId), path, text, this.lintOptions(projectId))) ?? this.linter(projectId).lint(text, path);
  }

  /**
   * Applies one fix to the stored text of `path` and saves it.
   * @throws CONFLICT when the fix's range is outside the text (the text changed since linting)
   * @returns the file with its new text
   */
  applyFix(projectId: string, path: string, fix: LintFix): StoredFile {
    const f = this.readFile(projectId, path);
    const text = f.content ?? '';
    const [from, to] = fix.range;
    if (from < 0 || to < from || to > text.length) throw new CoreError('CONFLICT', 'The page changed since it was checked; check it again.');
    return this.writeFile(projectId, path, text.slice(0, from) + fix.text + text.slice(to));
  }

  /**
   * `editor.fixAll`: applies every fixable finding of the page to `text` with the shared linter's
   * `autoFix` (shared/src/lint/linter.ts) and saves the result as the file's content.
   * @returns the saved file and the applied edits @throws CoreError NOT_FOUND when the project was not opened
   */
  async fixAll(projectId: string, path: string, text: string): Promise<{ file: StoredFile; edits: LintEdit[] }> {
    this.requireWorkspace(projectId);
    const fixed = await this.linter(projectId).autoFix(text, path);
    return { file: this.writeFile(projectId, path, fixed.text), edits: fixed.edits };
  }

  /** Renders `text` as the page at `path` on the preview worker (the builder's engine and the site theme). */
  renderPreview(projectId: string, path: string, text: string, theme: 'light' | 'dark'): Promise<PreviewResult> {
    this.requireWorkspace(projectId);
    // another page may import an edited one: reload the files when the previewed page changes after body edits
    if (this.lastPreviewed.get(projectId) !== path && this.bodyEdited.has(projectId)) this.bump(projectId);
    this.lastPreviewed.set(projectId, path);
    const glossary: GlossaryEntry[] = (this.lintOptions(projectId).glossary ?? [])
      .filter((g) => g.definition)
      .map((g) => ({ term: g.term, definition: g.definition, caseSensitive: g.caseSensitive }));
    return this.preview.render(projectId, String(this.versions.get(projectId) ?? 0), () => this.textFiles(projectId), path, text, { theme, glossary });
  }

  /** Turns a failed server call into the core's error: the server's code and message, or UNAVAILABLE when unreachable. */
  private serverError(err: unknown, serverUrl: string): CoreError {
    return toCoreError(err, `The Quire server at ${serverUrl} cannot be reached.`);
  }
}

/** The frontmatter block of a page (`---` ... `---` at the top), or '' when it has none. */
function frontmatterOf(text: string): string {
  const m = /^---\r?\n[\s\S]*?\r?\n---(?:\r?\n|$)/.exec(text);
  return m ? m[0] : '';
}
