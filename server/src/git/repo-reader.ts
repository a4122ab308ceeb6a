import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { ApiError } from '@quire/shared/errors';
import { normaliseChangePath } from '@quire/shared/collab/change-set';
import { checkBranchName, checkCommitSha } from '@quire/shared/repo/git-ref';
import type { AppContext } from '../context';
import { dataPaths } from '../data-paths';
import { formatBytes } from '../builder/build-limits';
import { DirLockTimeoutError, withDirLock } from './dir-lock';
import { GitError, GitRemoteRefusedError, gitUrlOf, runGit, runGitBytes, type GitRunOptions } from './run-git';

/**
 * The server's read access to a project's repository (decisions.md section 9: file trees, file
 * contents, changed pages and page history for reviews, the desktop app and ownership).
 *
 * Each project has a cache repository at `<data dir>/git-read/<projectId>` (data-paths.ts), separate
 * from the builder's checkout cache so builds and reads never race; nothing is checked out in it.
 * Operations on one project run one at a time in this process. The first fetch is shallow
 * ({@link INITIAL_DEPTH} commits); later fetches are incremental, and {@link lastChangedAt} deepens
 * the history when a path's last change lies beyond it. Every fetch respects the address policy of
 * builds (decisions.md section 10: `QUIRE_ALLOW_FILE_REPOS` for local repositories, public hosts
 * only) and downloads at most `QUIRE_BUILD_MAX_REPO_MB`.
 *
 * Errors (all {@link ApiError}, messages safe to show: URLs carry no credentials):
 * - `invalid_request` (field `ref`): a malformed ref, or a branch/commit the repository does not have;
 * - `invalid_request` (field `path`): a path that is not a plain repository-relative path;
 * - `invalid_request` (field `repoUrl`): a repository URL the address policy refuses;
 * - `payload_too_large`: a file over {@link MAX_READ_BYTES}, or a listing/diff/history too large to read;
 * - `service_unavailable`: the repository could not be reached or read (git's reason included).
 */

/** A project's repository, as far as reading goes. */
export interface ProjectRepo {
  projectId: string;
  repoUrl: string;
}

/** Largest file {@link readFileAt} returns, in bytes (5 MiB). */
export const MAX_READ_BYTES = 5 * 1024 * 1024;

/** Commits fetched when a project's cache is first filled; {@link lastChangedAt} deepens beyond as needed. */
export const INITIAL_DEPTH = 200;

/** Commits added by each deepening step before the history is fetched whole. */
const DEEPEN_STEP = 1000;

/** Bound on what listings, diffs and logs may print (characters). */
const MAX_LISTING_CHARS = 64 * 1024 * 1024;

/** Time limits: fetches, and local commands. */
const FETCH_TIMEOUT_MS = 5 * 60_000;
const LOCAL_TIMEOUT_MS = 60_000;

/** Pathspecs per `git log` command of {@link lastChangedAt}. */
const PATHS_PER_LOG = 200;

/** Deepening steps of {@link lastChangedAt}; the last one fetches the whole history. */
const MAX_DEEPEN_ROUNDS = 3;

/** The checked URL, cache directory and runner of one project. */
interface Cache {
  url: string;
  dir: string;
  /** runs a local git command in the cache */
  git(args: string[], options?: GitRunOptions): Promise<string>;
  /**
   * fetches `what` (a ref or commit id) into FETCH_HEAD and a `refs/quire/fetched/*` ref; shallow ({@link INITIAL_DEPTH}) only
   * into a fresh cache; `extra` e.g. `--deepen=N`
   */
  fetch(what: string, extra?: string[]): Promise<void>;
}

/**
 * Fetches `ref` (a branch name, or a full commit SHA) from the project's repository and returns
 * the commit SHA it names (lowercase hex).
 * @throws ApiError `invalid_request` `Branch "x" was not found in the repository.` (field `ref`), or
 *   for a commit id `Commit <sha> was not found in the repository.`; see the module comment for others.
 */
export async function resolveRef(ctx: AppContext, repo: ProjectRepo, ref: string): Promise<string> {
  const sha = asCommitSha(ref);
  if (!sha) {
    const check = checkBranchName(ref);
    if (!check.ok) throw new ApiError('invalid_request', `ref: it ${check.issue}.`, { field: 'ref', issue: check.issue });
  }
  return withCache(ctx, repo, async (cache) => {
    if (sha) {
      await ensureCommit(cache, sha);
      return sha;
    }
    try {
      await cache.fetch(ref);
    } catch (err) {
      if (err instanceof GitError && /couldn't find remote ref|no such remote ref|not our ref/i.test(err.stderr)) {
        throw new ApiError('invalid_request', `Branch "${ref}" was not found in the repository.`, { field: 'ref', issue: 'was not found in the repository' });
      }
      throw unreachable(err);
    }
    return (await cache.git(['rev-parse', '--verify', '--end-of-options', 'FETCH_HEAD^{commit}'])).trim();
  });
}

/**
 * The regular files (and executable files) of `commitSha`'s tree, sorted by path, with their size
 * in bytes. Symbolic links and submodules are left out.
 * @throws ApiError (see the module comment); `invalid_request` for an unknown commit.
 */
export async function listFiles(ctx: AppContext, repo: ProjectRepo, commitSha: string): Promise<Array<{ path: string; size: number }>> {
  const sha = requireSha(commitSha, 'commitSha');
  return withCache(ctx, repo, async (cache) => {
    await ensureCommit(cache, sha);
    const out = await cache.git(['ls-tree', '-r', '-l', '-z', '--full-tree', '--end-of-options', sha], listingBound('The file listing'));
    const files: Array<{ path: string; size: number }> = [];
    for (const entry of parseLsTree(out)) {
      if (entry.type === 'blob' && (entry.mode === '100644' || entry.mode === '100755')) files.push({ path: entry.path, size: entry.size });
    }
    return files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  });
}

/**
 * The content of `filePath` at `commitSha`, decoded as UTF-8 text; null when the path does not
 * exist at that commit (or names a folder, a symbolic link or a submodule).
 * The path is normalised by the change-set rule first (`\\` read as `/`).
 * @throws ApiError `payload_too_large` for a file over {@link MAX_READ_BYTES}; `invalid_request`
 *   (field `path`) for a path the change-set rule refuses (absolute, `..`, `.git`, control characters).
 */
export async function readFileAt(ctx: AppContext, repo: ProjectRepo, commitSha: string, pathGiven: string): Promise<string | null> {
  const sha = requireSha(commitSha, 'commitSha');
  const filePath = repoPath(pathGiven);
  return withCache(ctx, repo, async (cache) => {
    const entry = await fileEntry(cache, sha, filePath, MAX_READ_BYTES);
    if (!entry) return null;
    return cache.git(['cat-file', 'blob', entry.object], { timeoutMs: LOCAL_TIMEOUT_MS, maxStdoutBytes: MAX_READ_BYTES + 1 });
  });
}

/**
 * The bytes of `filePath` at `commitSha`, as git stores them (images, PDFs; text undecoded); null
 * as for {@link readFileAt}. The path is normalised by the change-set rule first.
 * @param maxBytes the largest file read (default {@link MAX_READ_BYTES})
 * @throws ApiError `payload_too_large` (field `path`) for a file over `maxBytes`; `invalid_request` as {@link readFileAt}.
 */
export async function readFileBytesAt(
  ctx: AppContext,
  repo: ProjectRepo,
  commitSha: string,
  pathGiven: string,
  maxBytes = MAX_READ_BYTES,
): Promise<Buffer | null> {
  const sha = requireSha(commitSha, 'commitSha');
  const filePath = repoPath(pathGiven);
  return withCache(ctx, repo, async (cache) => {
    const entry = await fileEntry(cache, sha, filePath, maxBytes);
    if (!entry) return null;
    return runGitBytes(cache.dir, ['cat-file', 'blob', entry.object], { timeoutMs: LOCAL_TIMEOUT_MS, maxStdoutBytes: maxBytes });
  });
}

/**
 * The tree entry of a regular file at a commit (null for a missing path, a folder, a symbolic link or a submodule).
 * @throws ApiError `payload_too_large` (field `path`) when the file is over `maxBytes`.
 */
async function fileEntry(cache: Cache, sha: string, filePath: string, maxBytes: number): Promise<{ object: string; size: number } | null> {
  await ensureCommit(cache, sha);
  const entry = parseLsTree(await cache.git(['ls-tree', '-l', '-z', '--full-tree', '--end-of-options', sha, '--', filePath], literal()))[0];
  if (!entry || entry.path !== filePath || entry.type !== 'blob' || entry.mode === '120000') return null;
  if (entry.size > maxBytes) {
    throw new ApiError('payload_too_large', `${filePath} is ${formatBytes(entry.size)}; files over ${formatBytes(maxBytes)} are not read.`, {
      field: 'path',
      issue: `is larger than ${formatBytes(maxBytes)}`,
      max: maxBytes,
      actual: entry.size,
    });
  }
  return entry;
}

/**
 * Files that differ between `fromSha` and `toSha` (trees compared, renames as delete + add), sorted
 * by path. A type change (file to link) counts as `modified`.
 * @throws ApiError (see the module comment); `invalid_request` for an unknown commit.
 */
export async function changedPaths(
  ctx: AppContext,
  repo: ProjectRepo,
  fromSha: string,
  toSha: string,
): Promise<Array<{ path: string; change: 'added' | 'modified' | 'deleted' }>> {
  const from = requireSha(fromSha, 'fromSha');
  const to = requireSha(toSha, 'toSha');
  return withCache(ctx, repo, async (cache) => {
    await ensureCommit(cache, from);
    await ensureCommit(cache, to);
    const out = await cache.git(['diff', '--name-status', '-z', '--no-renames', '--no-ext-diff', '--no-textconv', from, to, '--'], listingBound('The list of changes'));
    const parts = out.split('\0');
    const changes: Array<{ path: string; change: 'added' | 'modified' | 'deleted' }> = [];
    for (let i = 0; i + 1 < parts.length; i += 2) {
      const status = parts[i]!;
      const file = parts[i + 1]!;
      changes.push({ path: file, change: status.startsWith('A') ? 'added' : status.startsWith('D') ? 'deleted' : 'modified' });
    }
    return changes.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  });
}

/**
 * When each of `paths` last changed in the history of `commitSha`: the committer date of the newest
 * commit touching it (git log with history simplification, renames not followed). Paths never
 * changed in that history (e.g. that do not exist) are absent from the map. The history is deepened
 * while a path existing at `commitSha` has no change found in a shallow cache.
 * @throws ApiError (see the module comment); `invalid_request` for an unknown commit or bad path.
 */
export async function lastChangedAt(ctx: AppContext, repo: ProjectRepo, commitSha: string, paths: string[]): Promise<Map<string, Date>> {
  const sha = requireSha(commitSha, 'commitSha');
  const wanted = [...new Set(paths.map(repoPath))];
  return withCache(ctx, repo, async (cache) => {
    await ensureCommit(cache, sha);
    const found = new Map<string, Date>();
    if (wanted.length === 0) return found;
    let pending = wanted;
    for (let round = 0; ; round++) {
      // A shallow boundary commit shows every file as added: its dates say nothing.
      const boundary = new Set(readShallow(cache));
      for (const chunk of chunks(pending)) {
        const out = await cache.git(
          ['log', '-z', '--name-only', '--no-renames', '--format=%x1e%H %ct', '--end-of-options', sha, '--', ...chunk],
          { ...literal(), ...listingBound('The history') },
        );
        const want = new Set(chunk);
        for (const record of out.split('\x1e')) {
          const [header = '', ...names] = record.split('\0');
          const [commit = '', ct = ''] = header.split(' ');
          const seconds = Number(ct);
          if (!ct || !Number.isFinite(seconds) || boundary.has(commit)) continue;
          for (const raw of names) {
            const name = raw.replace(/^\n/, '');
            if (want.has(name) && !found.has(name)) found.set(name, new Date(seconds * 1000));
          }
        }
      }
      pending = pending.filter((p) => !found.has(p));
      if (pending.length === 0 || round >= MAX_DEEPEN_ROUNDS || !(await isShallow(cache))) return found;
      // Only paths that exist at the commit must have a change in its history: deepen for them.
      const existing = new Set<string>();
      for (const chunk of chunks(pending)) {
        const out = await cache.git(['ls-tree', '-r', '-z', '--full-tree', '--end-of-options', sha, '--', ...chunk], literal());
        for (const e of parseLsTree(out)) existing.add(e.path);
      }
      pending = pending.filter((p) => existing.has(p));
      if (pending.length === 0) return found;
      await deepen(cache, sha, round + 1 >= MAX_DEEPEN_ROUNDS);
    }
  });
}

/** `paths` in groups of {@link PATHS_PER_LOG}. */
function chunks(paths: string[]): string[][] {
  const out: string[][] = [];
  for (let i = 0; i < paths.length; i += PATHS_PER_LOG) out.push(paths.slice(i, i + PATHS_PER_LOG));
  return out;
}

// ---------------------------------------------------------------------------------------------

/** Runs `fn` with the project's cache, after every earlier operation on it has finished. */
async function withCache<T>(ctx: AppContext, repo: ProjectRepo, fn: (cache: Cache) => Promise<T>): Promise<T> {
  const { config } = ctx;
  const checked = gitUrlOf(repo.repoUrl, config);
  if (!checked.ok) {
    throw new ApiError('invalid_request', `The project's repository URL is refused: it ${checked.message}.`, { field: 'repoUrl', issue: checked.message });
  }
  const dir = dataPaths(config.dataDir).repoReadCache(repo.projectId);
  const maxFetchBytes = config.buildMaxRepoMb * 1024 * 1024;
  const useCache = async (): Promise<T> => {
    const git = (args: string[], options: GitRunOptions = {}) => runGit(dir, args, { timeoutMs: LOCAL_TIMEOUT_MS, ...options });
    if (!fs.existsSync(path.join(dir, '.git'))) {
      fs.rmSync(dir, { recursive: true, force: true });
      fs.mkdirSync(dir, { recursive: true });
      await git(['init', '--quiet']);
    }
    const fetchOptions: GitRunOptions = {
      timeoutMs: FETCH_TIMEOUT_MS,
      maxFetchBytes,
      onFetchTooLarge: (bytes) =>
        new ApiError('payload_too_large', `The repository download passed ${formatBytes(bytes)}; at most ${formatBytes(maxFetchBytes)} is read (QUIRE_BUILD_MAX_REPO_MB).`),
      // each fetch resolves the host once, checks it and pins git to it (decisions.md section 10)
      remote: { url: checked.url, allowPrivateNetwork: config.allowPrivateNetwork },
    };
    const cache: Cache = {
      url: checked.url,
      dir,
      git,
      async fetch(what, extra = []) {
        // A fresh cache starts shallow; later fetches bring only what is new (no --depth: it would
        // cut the history fetched so far).
        const fresh = !(await hasCommits(git));
        const depth = fresh && !extra.some((a) => a.startsWith('--deepen') || a === '--unshallow') ? [`--depth=${INITIAL_DEPTH}`] : [];
        await runGit(dir, ['fetch', '--quiet', ...depth, ...extra, '--no-tags', '--no-recurse-submodules', '--', checked.url, what], fetchOptions);
        // A ref per fetched name keeps later fetches incremental: git negotiates from refs.
        const name = createHash('sha256').update(what).digest('hex');
        await git(['update-ref', `refs/quire/fetched/${name}`, 'FETCH_HEAD']);
      },
    };
    try {
      return await fn(cache);
    } catch (err) {
      if (err instanceof ApiError) throw err;
      throw unreachable(err);
    }
  };
  // In-process callers queue on the app's locks; the directory lock keeps other processes on this
  // data directory (build workers, a second server) out while the cache is fetched into or read.
  return ctx.locks.run(`git-cache:${dir}`, () => withDirLock(dir, useCache, { waitMs: CACHE_WAIT_MS }).catch(cacheBusy));
}

/** Longest wait (ms) for a repository cache another process is using: a request's patience. */
const CACHE_WAIT_MS = 60_000;

function cacheBusy(err: unknown): never {
  if (err instanceof DirLockTimeoutError) throw new ApiError('service_unavailable', `The project's repository is busy (${err.message}).`);
  throw err;
}

/** Makes sure `sha` is a commit in the cache, fetching it by id when missing. */
async function ensureCommit(cache: Cache, sha: string): Promise<void> {
  if (await hasCommit(cache, sha)) return;
  try {
    await cache.fetch(sha);
  } catch (err) {
    if (err instanceof GitError && /not our ref|couldn't find remote ref|no such remote ref|unadvertised object|upload-pack: not|remote error/i.test(err.stderr)) {
      throw commitNotFound(sha);
    }
    throw unreachable(err);
  }
  if (!(await hasCommit(cache, sha))) throw commitNotFound(sha);
}

async function hasCommit(cache: Cache, sha: string): Promise<boolean> {
  const type = await cache.git(['cat-file', '-t', '--end-of-options', sha]).catch(() => '');
  return type.trim() === 'commit';
}

async function hasCommits(git: Cache['git']): Promise<boolean> {
  const out = await git(['rev-list', '--all', '--max-count=1']).catch(() => '');
  return out.trim() !== '';
}

async function isShallow(cache: Cache): Promise<boolean> {
  return readShallow(cache).length > 0;
}

/** The shallow boundary commits of the cache (`.git/shallow`), none when its history is whole. */
function readShallow(cache: Cache): string[] {
  try {
    return fs.readFileSync(path.join(cache.dir, '.git', 'shallow'), 'utf8').split('\n').filter(Boolean);
  } catch {
    return [];
  }
}

/**
 * Deepens the cache's history by {@link DEEPEN_STEP} commits below its shallow boundary, or fetches
 * it whole (`whole`). Servers that refuse fetching by id are asked through their default branch.
 */
async function deepen(cache: Cache, sha: string, whole: boolean): Promise<void> {
  const args = whole ? ['--unshallow'] : [`--deepen=${DEEPEN_STEP}`];
  try {
    await cache.fetch(sha, args);
  } catch (err) {
    if (!(err instanceof GitError) || err instanceof GitRemoteRefusedError) throw err;
    await cache.fetch('HEAD', args);
  }
}

function commitNotFound(sha: string): ApiError {
  return new ApiError('invalid_request', `Commit ${sha} was not found in the repository.`, { field: 'ref', issue: 'was not found in the repository' });
}

/** An unexpected failure reading the repository, as a safe ApiError. */
function unreachable(err: unknown): Error {
  if (err instanceof ApiError || (err instanceof Error && err.name === 'AbortError')) return err;
  if (err instanceof GitRemoteRefusedError) {
    return new ApiError('invalid_request', `The project's repository URL is refused: ${err.reason}.`, { field: 'repoUrl', issue: err.reason });
  }
  if (err instanceof GitError) return new ApiError('service_unavailable', `The project's repository could not be read: ${err.reason}.`);
  return err instanceof Error ? err : new Error(String(err));
}

/** A full commit id (any case) as lowercase, or null. */
function asCommitSha(ref: string): string | null {
  const lower = ref.toLowerCase();
  return checkCommitSha(lower).ok ? lower : null;
}

function requireSha(value: string, field: string): string {
  const sha = asCommitSha(value);
  if (!sha) throw new ApiError('invalid_request', `${field}: it must be a full 40 hex digit commit id.`, { field, issue: 'must be a full 40 hex digit commit id' });
  return sha;
}

/**
 * A repository path normalised by the change-set rule (`@quire/shared/collab/change-set`: POSIX form,
 * relative, no empty/`.`/`..`/`.git` segment, no control characters, bounded length).
 * @throws ApiError `invalid_request` (field `path`) naming the issue.
 */
function repoPath(p: string): string {
  const check = normaliseChangePath(p);
  // eslint-disable-next-line no-control-regex
  if (!check.ok) throw new ApiError('invalid_request', `path: "${p.slice(0, 200).replace(/[\x00-\x1f\x7f]/g, '?')}" ${check.issue}.`, { field: 'path', issue: check.issue });
  return check.path;
}

/** Pathspecs taken literally (no globs, no magic), so a path can only name itself. */
function literal(): GitRunOptions {
  return { env: { GIT_LITERAL_PATHSPECS: '1' } };
}

function listingBound(what: string): GitRunOptions {
  return {
    maxStdoutBytes: MAX_LISTING_CHARS,
    onTooMuchOutput: () => new ApiError('payload_too_large', `${what} is larger than ${formatBytes(MAX_LISTING_CHARS)}; it is not read.`),
  };
}

/** Records of `git ls-tree -l -z`: `<mode> <type> <object> <size>\t<path>` (size `-` for submodules). */
function parseLsTree(out: string): Array<{ mode: string; type: string; object: string; size: number; path: string }> {
  const entries: Array<{ mode: string; type: string; object: string; size: number; path: string }> = [];
  for (const record of out.split('\0')) {
    const tab = record.indexOf('\t');
    if (tab < 0) continue;
    const [mode = '', type = '', object = '', size = ''] = record.slice(0, tab).trim().split(/\s+/);
    entries.push({ mode, type, object, size: Number(size) || 0, path: record.slice(tab + 1) });
  }
  return entries;
}
