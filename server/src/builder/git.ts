import { spawn } from 'node:child_process';
import { lookup } from 'node:dns/promises';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { BuildWarning } from '@quire/shared/docs/types';
import { checkBranchName as branchNameRule, checkCommitSha as commitShaRule } from '@quire/shared/repo/git-ref';
import { describeNonPublic, nonPublicHostReason } from '@quire/shared/repo/host-address';
import { checkRepoUrl as repoUrlRule } from '@quire/shared/repo/repo-url';
import { DEFAULT_BUILD_LIMITS, formatBytes, type BuildLimits } from './build-limits';
import { checkTreeLimits, removeEscapingSymlinks, summarizeTree } from './checkout-tree';
import { AbortError, BuildError, throwIfAborted } from './errors';
import { watchFetchGrowth } from './fetch-watchdog';

/**
 * Fetching a repository ref with the system `git` into a per-project cache directory
 * (issue 3; decisions.md sections 1 and 10):
 * - `repoUrl` must be `https://`, `ssh://` or `user@host:path`; `file://` URLs and absolute paths
 *   only when file repos are allowed (QUIRE_ALLOW_FILE_REPOS=1); loopback, private and link-local
 *   hosts (and `localhost`) are refused unless allowed;
 * - branch names and SHAs are validated and passed after `--`, so no value can become an option;
 * - `GIT_ALLOW_PROTOCOL` is `https:ssh:file`, so `ext::` and other transports stay off. `file` is
 *   there for the operator's `url.<base>.insteadOf` mirrors (decisions.md section 1: an https URL
 *   rewritten to a local path); a user's own file URL or path never gets this far unless file repos
 *   are allowed, because {@link checkRepoUrl} refuses it first. `GIT_TERMINAL_PROMPT=0`, ssh in
 *   batch mode, no hooks, no submodules, no LFS smudge.
 */

/** What {@link checkoutRef} needs. */
export interface CheckoutInput {
  repoUrl: string;
  branch: string;
  /** full 40- (or 64-) hex commit; when set, this commit is checked out instead of the branch tip */
  commitSha?: string;
  allowFileRepos: boolean;
  /** the project's cache directory; created on first use, reused (incrementally fetched) after */
  cacheDir: string;
  signal?: AbortSignal;
  /** git's time limit in milliseconds (default 10 minutes) */
  timeoutMs?: number;
  /** download and tree limits (default {@link DEFAULT_BUILD_LIMITS}) */
  limits?: Pick<BuildLimits, 'maxFetchBytes' | 'maxTreeBytes' | 'maxTreeFiles'>;
}

/** A checked-out commit. */
export interface Checkout {
  /** absolute path of the working tree */
  dir: string;
  commitSha: string;
  /** full commit message, trimmed */
  commitMessage: string;
  /** symbolic links removed because they lead outside the checkout */
  warnings: BuildWarning[];
}

/**
 * Validates a branch (or tag) name with the shared rule (`@quire/shared/repo/git-ref`: git's
 * check-ref-format rules, no leading `-`, `[A-Za-z0-9._/+@-]`, at most 250 characters).
 * @throws BuildError naming the problem.
 */
export function checkBranchName(branch: string): void {
  const check = branchNameRule(branch);
  if (!check.ok) throw new BuildError(`Invalid branch name "${printable(branch)}": it ${check.issue}.`);
}

/**
 * Validates a commit SHA: the full 40 (SHA-1) or 64 (SHA-256) lowercase hex digits (shared rule).
 * @throws BuildError when it is anything else.
 */
export function checkCommitSha(sha: string): void {
  const check = commitShaRule(sha);
  if (!check.ok) throw new BuildError(`Invalid commitSha "${printable(sha)}": it ${check.issue}.`);
}

/**
 * Validates `repoUrl` with the shared rule (`@quire/shared/repo/repo-url`, decisions.md section 10)
 * and returns the URL to hand to git: the parser's serialization of https/ssh/file URLs (so git
 * connects to the host that was classified), scp-like URLs as given, absolute paths as `file://`
 * URLs so that shallow fetches work.
 * @throws BuildError naming what is not allowed.
 */
export function checkRepoUrl(repoUrl: string, allowFileRepos: boolean): string {
  const check = repoUrlRule(repoUrl, { allowFileRepos });
  if (!check.ok) throw new BuildError(`Repository URL refused: it ${check.message}.`);
  return check.kind === 'path' ? pathToFileURL(path.resolve(check.gitUrl)).href : check.gitUrl;
}

/** Removes credentials from URLs in text shown to users (`https://user:token@host` -> `https://***@host`). */
export function redactUrls(text: string): string {
  return text.replace(/([a-z][a-z0-9+.-]*:\/\/)[^/@\s]+@/gi, '$1***@');
}

/**
 * Fetches `branch` (or `commitSha`) shallowly into `cacheDir` and checks it out there, replacing
 * what a previous build left. Builds of one project are serialized on the cache directory.
 * @throws BuildError (bad URL/ref, git failure with its last message, credentials redacted)
 * @throws AbortError when `signal` fires (the git process is killed).
 */
export async function checkoutRef(input: CheckoutInput): Promise<Checkout> {
  const url = checkRepoUrl(input.repoUrl, input.allowFileRepos);
  checkBranchName(input.branch);
  if (input.commitSha !== undefined) checkCommitSha(input.commitSha);
  if (!input.allowFileRepos) await checkResolvedHost(url);
  return withLock(input.cacheDir, async () => {
    const dir = input.cacheDir;
    const run = (args: string[]) => runGit(dir, args, input);
    if (!fs.existsSync(path.join(dir, '.git'))) {
      fs.rmSync(dir, { recursive: true, force: true });
      fs.mkdirSync(dir, { recursive: true });
      await run(['init', '--quiet']);
    }
    const limits = input.limits ?? DEFAULT_BUILD_LIMITS;
    const fetch = async (ref: string, depth: number) => {
      try {
        await runGit(dir, ['fetch', '--quiet', `--depth=${depth}`, '--no-tags', '--no-recurse-submodules', '--', url, ref], input, {
          maxFetchBytes: limits.maxFetchBytes,
        });
      } catch (err) {
        // what an oversized download left behind is not kept: the next build starts a fresh cache
        if (err instanceof BuildError && err.limit) fs.rmSync(dir, { recursive: true, force: true });
        throw err;
      }
    };
    if (input.commitSha) {
      try {
        await fetch(input.commitSha, 1);
      } catch (err) {
        if (!(err instanceof BuildError)) throw err;
        // Servers that refuse fetching by id: fetch the branch's recent history and look there.
        await fetch(input.branch, 500);
        const found = await run(['cat-file', '-t', input.commitSha]).catch(() => '');
        if (found.trim() !== 'commit') {
          throw new BuildError(`Commit ${input.commitSha} was not found on branch ${input.branch}.`);
        }
        await run(['update-ref', 'FETCH_HEAD', input.commitSha]);
      }
    } else {
      await fetch(input.branch, 1);
    }
    // Sizes and file count come from the tree before a single file is written (decisions.md section 10).
    const tree = summarizeTree(
      await runGit(dir, ['ls-tree', '-r', '-l', '-z', '--full-tree', 'FETCH_HEAD'], input, {
        maxStdoutBytes: limits.maxTreeFiles * 512,
        onTooMuchOutput: () => new BuildError(`The repository has more than ${limits.maxTreeFiles.toLocaleString('en-US')} files; a build takes at most that many (QUIRE_BUILD_MAX_FILES).`),
      }),
    );
    checkTreeLimits(tree, limits);
    await run(['checkout', '--quiet', '--force', '--detach', 'FETCH_HEAD']);
    await run(['clean', '-ffdxq']);
    const warnings = removeEscapingSymlinks(dir, tree.symlinks);
    const commitSha = (await run(['rev-parse', 'HEAD'])).trim();
    if (input.commitSha && commitSha !== input.commitSha) {
      throw new BuildError(`Checked out ${commitSha} instead of ${input.commitSha}.`);
    }
    const commitMessage = (await run(['log', '-1', '--format=%B', 'HEAD'])).trim();
    return { dir, commitSha, commitMessage, warnings };
  });
}

/**
 * Best-effort DNS check: refuses a host name that resolves to an address the shared classifier
 * (`@quire/shared/repo/host-address`) does not call public.
 */
async function checkResolvedHost(url: string): Promise<void> {
  const check = repoUrlRule(url, { allowFileRepos: true });
  const host = check.ok ? check.host : null;
  if (!host || net.isIP(host)) return; // no host, or a literal the URL check classified already
  const addresses = await lookup(host, { all: true }).catch(() => []);
  for (const { address } of addresses) {
    const reason = nonPublicHostReason(address);
    if (reason) throw new BuildError(`Repository URL refused: ${host} resolves to ${address}, ${describeNonPublic(reason)}.`);
  }
}

const locks = new Map<string, Promise<unknown>>();

/** Runs `fn` after every earlier call for the same key has settled (in-process mutex). */
async function withLock<T>(key: string, fn: () => Promise<T>): Promise<T> {
  const previous = locks.get(key) ?? Promise.resolve();
  const current = previous.catch(() => undefined).then(fn);
  locks.set(key, current);
  try {
    return await current;
  } finally {
    if (locks.get(key) === current) locks.delete(key);
  }
}

/** The environment git runs with: locked-down transports, no prompts, no inherited repository. */
function gitEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const k of ['GIT_DIR', 'GIT_WORK_TREE', 'GIT_INDEX_FILE', 'GIT_OBJECT_DIRECTORY', 'GIT_ALTERNATE_OBJECT_DIRECTORIES', 'GIT_CEILING_DIRECTORIES', 'GIT_NAMESPACE']) {
    delete env[k];
  }
  // The URL was checked by checkRepoUrl; `file` only serves insteadOf rewrites to local mirrors.
  env.GIT_ALLOW_PROTOCOL = 'https:ssh:file';
  env.GIT_TERMINAL_PROMPT = '0';
  env.GIT_ASKPASS = 'true';
  env.SSH_ASKPASS = 'true';
  env.GIT_SSH_COMMAND = process.env.GIT_SSH_COMMAND ?? 'ssh -o BatchMode=yes';
  env.GIT_LFS_SKIP_SMUDGE = '1';
  env.LC_ALL = 'C';
  return env;
}

// fetch.unpackLimit=1: a fetch always keeps its packfile (never loose objects), so that
// watchFetchGrowth sees every byte it downloads.
const SAFE_CONFIG = [
  '-c', 'core.hooksPath=/dev/null', '-c', 'protocol.ext.allow=never', '-c', 'core.fsmonitor=false', '-c', 'advice.detachedHead=false',
  '-c', 'gc.auto=0', '-c', 'fetch.unpackLimit=1',
];

/** Limits of one git command beyond its time limit. */
interface GitRunLimits {
  /** kill a fetch whose packfile grows past this many bytes */
  maxFetchBytes?: number;
  /** kill the command once its stdout passes this many bytes, failing with `onTooMuchOutput()` */
  maxStdoutBytes?: number;
  onTooMuchOutput?: () => BuildError;
}

/** Runs one git command in `cwd`; resolves with stdout. */
function runGit(cwd: string, args: string[], input: CheckoutInput, limits: GitRunLimits = {}): Promise<string> {
  throwIfAborted(input.signal);
  return new Promise((resolve, reject) => {
    const child = spawn('git', [...SAFE_CONFIG, ...args], {
      cwd,
      env: gitEnv(),
      stdio: ['ignore', 'pipe', 'pipe'],
      timeout: input.timeoutMs ?? 10 * 60_000,
      killSignal: 'SIGKILL',
    });
    let stdout = '';
    let stderr = '';
    /** a limit this process enforced by killing git: the reason replaces git's own message */
    let limitHit: BuildError | undefined;
    const stop = (reason: BuildError) => {
      limitHit ??= reason;
      child.kill('SIGKILL');
    };
    child.stdout.setEncoding('utf8').on('data', (d: string) => {
      stdout += d;
      if (limits.maxStdoutBytes !== undefined && stdout.length > limits.maxStdoutBytes) {
        stdout = '';
        stop(limits.onTooMuchOutput?.() ?? new BuildError(`git ${args[0]} printed more than ${formatBytes(limits.maxStdoutBytes)}.`));
      }
    });
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr = (stderr + d).slice(-4000)));
    const tooLarge = (bytes: number) =>
      Object.assign(
        new BuildError(`The repository download passed ${formatBytes(bytes)}; a build downloads at most ${formatBytes(limits.maxFetchBytes!)} (QUIRE_BUILD_MAX_REPO_MB).`),
        { limit: 'maxFetchBytes' as const },
      );
    const stopWatch =
      limits.maxFetchBytes === undefined ? undefined : watchFetchGrowth(cwd, limits.maxFetchBytes, (bytes) => stop(tooLarge(bytes)));
    const onAbort = () => child.kill('SIGKILL');
    input.signal?.addEventListener('abort', onAbort, { once: true });
    child.on('error', (err) => {
      stopWatch?.();
      input.signal?.removeEventListener('abort', onAbort);
      reject(new BuildError(`Could not run git: ${err.message}`));
    });
    child.on('close', (code, sig) => {
      // a download faster than the watch's interval is judged by what it left
      const grown = stopWatch?.() ?? 0;
      if (limits.maxFetchBytes !== undefined && grown > limits.maxFetchBytes) limitHit ??= tooLarge(grown);
      input.signal?.removeEventListener('abort', onAbort);
      if (input.signal?.aborted) return reject(new AbortError());
      if (limitHit) return reject(limitHit);
      if (code === 0) return resolve(stdout);
      const lines = stderr.trim().split('\n').filter(Boolean);
      const reason = lines.filter((l) => /^(fatal|error):/.test(l)).pop() ?? lines.pop() ?? (sig ? `killed by ${sig} (time limit?)` : `exit code ${code}`);
      reject(new BuildError(`git ${args[0]} failed: ${redactUrls(reason.replace(/^(fatal|error):\s*/, ''))}`));
    });
  });
}

function printable(s: string): string {
  // eslint-disable-next-line no-control-regex
  return s.replace(/[\x00-\x1f\x7f]/g, '?').slice(0, 80);
}
