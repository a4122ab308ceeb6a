import fs from 'node:fs';
import path from 'node:path';
import { mergePage } from '@quire/shared/sync/conflicts';
import { bytesAsText, changeEntryBytes, type ChangeEncoding } from '@quire/shared/collab/change-set';
import { ApiError } from '@quire/shared/errors';
import { checkBranchName, checkCommitSha } from '@quire/shared/repo/git-ref';
import type { AppContext } from '../context';
import { dataPaths } from '../data-paths';
import { formatBytes } from '../builder/build-limits';
import { withPushCredential, type GitPushCredential } from './push-credential';
import type { Resolver } from '../net/address-check';
import { GitError, GitRemoteRefusedError, gitUrlOf, runGit, runGitBytes, type GitRemote, type GitRunOptions } from './run-git';

/**
 * Merging a change set into a project's branch (decisions.md section 9: "Merging applies it to the
 * branch head by three-way merge, commits with the author as git author and pushes with the
 * project's write-only git credential ... a conflict answers 409 with the paths").
 *
 * In a scratch repository under `<data dir>/git-merge` (removed afterwards) the branch head and the
 * base commit are fetched (shallowly: only their trees are needed). Each change is merged against
 * the head: base, head and change-set versions compared by content; a branch that made the same
 * change is fine; otherwise a text three-way merge (node-diff3, by lines; changes to the same or
 * adjacent lines conflict); delete against modify, add against a different add, a file against a
 * folder, or a change to a symbolic link or submodule are conflicts. Binary files (a change in
 * base64, or a base or head version that is not text: `bytesAsText`) are never merged by lines:
 * the change set's bytes are written as they are (`git hash-object -w --stdin`), and a binary file
 * the branch also changed since the base commit, differently, is a conflict. Without conflicts the new tree
 * is committed on the head (author: the change's author; committer: Quire) and pushed to
 * `refs/heads/<branch>` without force; when the push is refused because the branch moved, the merge
 * is done again on the new head, up to {@link PUSH_RETRIES} times. Nothing is pushed on a conflict.
 */

/** What {@link mergeChangeSet} needs. */
export interface MergeChangeSetInput {
  ctx: AppContext;
  projectId: string;
  repoUrl: string;
  branch: string;
  /** full commit id the change set was written against */
  baseCommit: string;
  /** normalised repository paths (shared/src/collab/change-set.ts) with their new content (text, or base64 bytes), null = delete */
  changes: Array<{ path: string; content: string | null; encoding?: ChangeEncoding }>;
  author: { name: string; email: string };
  message: string;
  credential: GitPushCredential | null;
  signal?: AbortSignal;
  /** called before each push attempt (1-based); tests use it to move the branch in between */
  beforePush?: (attempt: number) => Promise<void> | void;
  /** how the repository's host name is resolved (tests); default getaddrinfo */
  resolve?: Resolver;
}

/** `merged` with the new commit on the branch (the head itself when the change set changed nothing), or `conflict` with the paths. */
export type MergeChangeSetResult = { status: 'merged'; commitSha: string } | { status: 'conflict'; paths: string[] };

/** Further merges after the first one when the branch moved between fetch and push. */
export const PUSH_RETRIES = 3;

/** The committer of merge commits; the author is the change's author. */
export const MERGE_COMMITTER = { name: 'Quire', email: 'quire@quire.local' } as const;

/** Largest head or base version of a file that is merged as text (bytes). */
const MAX_MERGE_FILE_BYTES = 20 * 1024 * 1024;

const FETCH_TIMEOUT_MS = 5 * 60_000;
const LOCAL_TIMEOUT_MS = 60_000;

/**
 * Merges `input.changes` onto the head of `input.branch` and pushes the result.
 * @returns `{status: 'merged', commitSha}` or `{status: 'conflict', paths}` (sorted; nothing pushed).
 * @throws ApiError `invalid_request` (bad branch or base commit, URL refused by the address policy
 *   as written or as resolved before each fetch and push, branch or base commit not in the
 *   repository); `service_unavailable` (repository unreachable,
 *   authentication failed, push refused by the repository); `conflict` (the branch kept moving);
 *   AbortError when `signal` fires. Messages never carry credentials.
 */
export async function mergeChangeSet(input: MergeChangeSetInput): Promise<MergeChangeSetResult> {
  const { ctx, branch } = input;
  const branchCheck = checkBranchName(branch);
  if (!branchCheck.ok) throw new ApiError('invalid_request', `branch: it ${branchCheck.issue}.`, { field: 'branch', issue: branchCheck.issue });
  const baseCommit = input.baseCommit.toLowerCase();
  if (!checkCommitSha(baseCommit).ok) {
    throw new ApiError('invalid_request', 'baseCommit: it must be a full 40 hex digit commit id.', { field: 'baseCommit', issue: 'must be a full 40 hex digit commit id' });
  }
  const checked = gitUrlOf(input.repoUrl, ctx.config);
  if (!checked.ok) {
    throw new ApiError('invalid_request', `The project's repository URL is refused: it ${checked.message}.`, { field: 'repoUrl', issue: checked.message });
  }
  const scratchRoot = dataPaths(ctx.config.dataDir).mergeScratch;
  fs.mkdirSync(scratchRoot, { recursive: true });
  const dir = fs.mkdtempSync(path.join(scratchRoot, `${input.projectId.replace(/[^A-Za-z0-9_-]/g, '')}-`));
  try {
    return await withPushCredential(input.credential, scratchRoot, async (credentialEnv) => {
      const session = new MergeSession(dir, checked.url, input, credentialEnv, baseCommit, ctx.config.buildMaxRepoMb * 1024 * 1024);
      await session.git(['init', '--quiet']);
      await session.fetchBase();
      for (let attempt = 1; ; attempt++) {
        const head = await session.fetchHead();
        const merged = await session.mergeOnto(head);
        if (merged.status === 'conflict') return merged;
        if (merged.commitSha === head) return merged;
        await input.beforePush?.(attempt);
        const pushed = await session.push(merged.commitSha);
        if (pushed) return merged;
        if (attempt > PUSH_RETRIES) {
          throw new ApiError('conflict', `The branch "${branch}" kept moving while the change was merged (${attempt} attempts); try the merge again.`);
        }
      }
    });
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** One tree entry of `git ls-tree -r`. */
interface TreeEntry {
  mode: string;
  type: string;
  object: string;
}

/** The state of one merge: its scratch repository, URL and environment. */
class MergeSession {
  constructor(
    private readonly dir: string,
    private readonly url: string,
    private readonly input: MergeChangeSetInput,
    private readonly credentialEnv: Record<string, string>,
    private readonly baseCommit: string,
    private readonly maxFetchBytes: number,
  ) {}

  /** Runs a local git command in the scratch repository. */
  git(args: string[], options: GitRunOptions = {}): Promise<string> {
    return runGit(this.dir, args, { timeoutMs: LOCAL_TIMEOUT_MS, ...(this.input.signal ? { signal: this.input.signal } : {}), ...options });
  }

  /**
   * Runs a command that talks to the repository (credentials in its environment, size-bounded,
   * its connection checked and pinned by the address policy).
   * @throws ApiError invalid_request on field repoUrl when the address policy refuses the host
   */
  private async remote(args: string[], push = false): Promise<string> {
    const { ctx, resolve } = this.input;
    const remote: GitRemote = { url: this.url, allowPrivateNetwork: ctx.config.allowPrivateNetwork, push, ...(resolve ? { resolve } : {}) };
    try {
      return await this.git(args, {
        timeoutMs: FETCH_TIMEOUT_MS,
        env: this.credentialEnv,
        maxFetchBytes: this.maxFetchBytes,
        onFetchTooLarge: (bytes) => new ApiError('payload_too_large', `The repository download passed ${formatBytes(bytes)}; at most ${formatBytes(this.maxFetchBytes)} is read (QUIRE_BUILD_MAX_REPO_MB).`),
        remote,
      });
    } catch (err) {
      if (err instanceof GitRemoteRefusedError) {
        throw new ApiError('invalid_request', `The project's repository URL is refused: ${err.reason}.`, { field: 'repoUrl', issue: err.reason });
      }
      throw err;
    }
  }

  private fetch(what: string, depth: number): Promise<string> {
    return this.remote(['fetch', '--quiet', `--depth=${depth}`, '--no-tags', '--no-recurse-submodules', '--', this.url, what]);
  }

  /** Fetches the base commit (by id; else through the branch's recent history). */
  async fetchBase(): Promise<void> {
    const { baseCommit } = this;
    try {
      await this.fetch(baseCommit, 1);
    } catch (err) {
      if (!(err instanceof GitError)) throw err;
      if (!isRefNotFound(err)) throw repositoryError(err, 'read');
      await this.fetch(this.input.branch, 1000).catch((e: unknown) => {
        throw e instanceof GitError ? branchOrRepositoryError(e, this.input.branch) : e;
      });
    }
    const type = await this.git(['cat-file', '-t', '--end-of-options', baseCommit]).catch(() => '');
    if (type.trim() !== 'commit') {
      throw new ApiError('invalid_request', `The base commit ${baseCommit} was not found in the repository.`, { field: 'baseCommit', issue: 'was not found in the repository' });
    }
  }

  /** Fetches the branch head; returns its commit id. */
  async fetchHead(): Promise<string> {
    try {
      await this.fetch(this.input.branch, 1);
    } catch (err) {
      throw err instanceof GitError ? branchOrRepositoryError(err, this.input.branch) : err;
    }
    return (await this.git(['rev-parse', '--verify', '--end-of-options', 'FETCH_HEAD^{commit}'])).trim();
  }

  /** The blobs, links and submodules of a commit's tree by path, and every folder path. */
  private async tree(commit: string): Promise<{ files: Map<string, TreeEntry>; folders: Set<string> }> {
    const out = await this.git(['ls-tree', '-r', '-z', '--full-tree', '--end-of-options', commit], { maxStdoutBytes: 64 * 1024 * 1024 });
    const files = new Map<string, TreeEntry>();
    const folders = new Set<string>();
    for (const record of out.split('\0')) {
      const tab = record.indexOf('\t');
      if (tab < 0) continue;
      const [mode = '', type = '', object = ''] = record.slice(0, tab).split(' ');
      const file = record.slice(tab + 1);
      files.set(file, { mode, type, object });
      const parts = file.split('/');
      for (let i = 1; i < parts.length; i++) folders.add(parts.slice(0, i).join('/'));
    }
    return { files, folders };
  }

  /** A blob's text, or null when its bytes are not text ({@link bytesAsText}: a binary file is not merged by lines). */
  private async readBlobText(object: string, file: string): Promise<string | null> {
    const bytes = await runGitBytes(this.dir, ['cat-file', 'blob', object], {
      timeoutMs: LOCAL_TIMEOUT_MS,
      ...(this.input.signal ? { signal: this.input.signal } : {}),
      maxStdoutBytes: MAX_MERGE_FILE_BYTES,
      onTooMuchOutput: () => new ApiError('payload_too_large', `${file} is larger than ${formatBytes(MAX_MERGE_FILE_BYTES)} in the repository; it cannot be merged.`),
    });
    return bytesAsText(bytes);
  }

  /**
   * Merges the change set onto `head` and commits the result (not pushed yet).
   * @returns the new commit (or `head` when nothing changes), or the conflicting paths.
   */
  async mergeOnto(head: string): Promise<MergeChangeSetResult> {
    const base = await this.tree(this.baseCommit);
    const onHead = head === this.baseCommit ? base : await this.tree(head);
    const conflicts: string[] = [];
    const updates: string[] = [];
    for (const change of this.input.changes) {
      const file = change.path;
      const b = base.files.get(file) ?? null;
      const h = onHead.files.get(file) ?? null;
      const regular = (e: TreeEntry | null) => e === null || (e.type === 'blob' && (e.mode === '100644' || e.mode === '100755'));
      const bytes = changeEntryBytes(change);
      const cObject = bytes === null ? null : (await this.git(['hash-object', '-w', '--stdin'], { stdin: bytes })).trim();
      const bObject = b?.object ?? null;
      const hObject = h?.object ?? null;
      if (hObject === cObject) continue; // the branch already has this version
      if (!regular(h) || !regular(b) || onHead.folders.has(file) || parentIsFile(file, onHead.files)) {
        conflicts.push(file);
        continue;
      }
      let result: string | null; // object id of the merged version, null = deleted
      if (bObject === hObject) result = cObject; // the branch left it alone
      else if (bObject === cObject) continue; // the change set left it alone
      else if (bObject === null || hObject === null || cObject === null) {
        conflicts.push(file); // added on both sides differently, or deleted on one side and changed on the other
        continue;
      } else {
        // both sides changed the file since the base: only text merges by lines
        const headText = change.encoding === 'base64' ? null : await this.readBlobText(hObject, file);
        const baseText = headText === null ? null : await this.readBlobText(bObject, file);
        const merged = headText === null || baseText === null ? null : mergeText(headText, baseText, change.content!);
        if (merged === null) {
          conflicts.push(file);
          continue;
        }
        result = (await this.git(['hash-object', '-w', '--stdin'], { stdin: merged })).trim();
      }
      updates.push(result === null ? `0 ${'0'.repeat(hObject?.length ?? 40)}\t${file}` : `${h?.mode ?? '100644'} ${result}\t${file}`);
    }
    if (conflicts.length > 0) return { status: 'conflict', paths: [...new Set(conflicts)].sort() };
    if (updates.length === 0) return { status: 'merged', commitSha: head };
    await this.git(['read-tree', '--end-of-options', head]);
    await this.git(['update-index', '-z', '--index-info'], { stdin: updates.map((u) => `${u}\0`).join('') });
    const tree = (await this.git(['write-tree'])).trim();
    const headTree = (await this.git(['rev-parse', '--verify', '--end-of-options', `${head}^{tree}`])).trim();
    if (tree === headTree) return { status: 'merged', commitSha: head };
    const { author } = this.input;
    const commit = await this.git(['commit-tree', tree, '-p', head, '-F', '-'], {
      stdin: this.input.message.endsWith('\n') ? this.input.message : `${this.input.message}\n`,
      env: {
        GIT_AUTHOR_NAME: identityPart(author.name),
        GIT_AUTHOR_EMAIL: identityPart(author.email),
        GIT_COMMITTER_NAME: MERGE_COMMITTER.name,
        GIT_COMMITTER_EMAIL: MERGE_COMMITTER.email,
      },
    });
    return { status: 'merged', commitSha: commit.trim() };
  }

  /**
   * Pushes `commit` to `refs/heads/<branch>` without force.
   * @returns false when refused because the branch moved (the caller merges again), true when pushed.
   */
  async push(commit: string): Promise<boolean> {
    try {
      await this.remote(['push', '--quiet', '--no-verify', '--', this.url, `${commit}:refs/heads/${this.input.branch}`], true);
      return true;
    } catch (err) {
      if (!(err instanceof GitError)) throw err;
      if (/\[rejected\]|non-fast-forward|\(fetch first\)|stale info|cannot lock ref/i.test(err.stderr)) return false;
      const remoteRejected = /\[remote rejected\][^(]*\(([^)\n]+)\)/.exec(err.stderr);
      if (remoteRejected) {
        throw new ApiError('service_unavailable', `The repository refused the push to "${this.input.branch}": ${remoteRejected[1]}.`);
      }
      throw repositoryError(err, 'push');
    }
  }
}

/**
 * Three-way merge of a file's texts by lines: the shared page merge (`mergePage` of
 * shared/src/sync/conflicts.ts, node-diff3; the same change on both sides is no conflict), so a
 * review merge and the desktop app's sync merge pages by one rule.
 * @returns the merged text, or null on a conflict.
 */
export function mergeText(head: string, base: string, change: string): string | null {
  const result = mergePage(base, head, change);
  return 'merged' in result ? result.merged : null;
}

/** True when a folder of `file` is a file (or link) in `files`. */
function parentIsFile(file: string, files: Map<string, TreeEntry>): boolean {
  const parts = file.split('/');
  for (let i = 1; i < parts.length; i++) if (files.has(parts.slice(0, i).join('/'))) return true;
  return false;
}

/** A name or e-mail as git accepts it in an identity: no `<`, `>` or line breaks. */
function identityPart(text: string): string {
  return text.replace(/[<>\r\n\0]/g, '').trim() || 'unknown';
}

function isRefNotFound(err: GitError): boolean {
  return /couldn't find remote ref|no such remote ref|not our ref|unadvertised object/i.test(err.stderr);
}

function isAuthFailure(err: GitError): boolean {
  return /authentication failed|could not read (username|password)|terminal prompts disabled|permission denied \(|access denied|returned error: 40[13]|invalid (username|credentials)|host key verification failed/i.test(err.stderr);
}

function branchOrRepositoryError(err: GitError, branch: string): Error {
  if (isRefNotFound(err)) {
    return new ApiError('invalid_request', `Branch "${branch}" was not found in the repository.`, { field: 'branch', issue: 'was not found in the repository' });
  }
  return repositoryError(err, 'read');
}

/** A failure talking to the repository as a safe 503 (authentication named as such). */
function repositoryError(err: GitError, doing: 'read' | 'push'): ApiError {
  if (isAuthFailure(err)) {
    return new ApiError(
      'service_unavailable',
      `${doing === 'push' ? 'Pushing to' : 'Reading'} the repository was refused: authentication failed. Check the project's git credential (PUT /v1/projects/{projectId}/git-credential).`,
    );
  }
  return new ApiError('service_unavailable', `The project's repository could not be ${doing === 'push' ? 'pushed to' : 'read'}: ${err.reason}.`);
}
