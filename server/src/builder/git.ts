import fs from 'node:fs';
import path from 'node:path';
import type { BuildWarning } from '@quire/shared/docs/types';
import { checkBranchName as branchNameRule, checkCommitSha as commitShaRule } from '@quire/shared/repo/git-ref';
import type { RepoUrlPolicy } from '@quire/shared/repo/repo-url';
import { GitError, GitRemoteRefusedError, gitUrlOf, redactUrls, runGit as runGitCommand, type GitRemote } from '../git/run-git';
import { withDirLock } from '../git/dir-lock';
import type { Resolver } from '../net/address-check';
import { DEFAULT_BUILD_LIMITS, formatBytes, type BuildLimits } from './build-limits';
import { checkTreeLimits, removeEscapingSymlinks, summarizeTree } from './checkout-tree';
import { BuildError } from './errors';

/**
 * Fetching a repository ref with the system `git` into a per-project cache directory
 * (decisions.md sections 1 and 10):
 * - `repoUrl` must be `https://`, `ssh://` or `user@host:path`; `file://` URLs and absolute paths
 *   only when file repos are allowed (QUIRE_ALLOW_FILE_REPOS=1); loopback, private and link-local
 *   hosts (and `localhost`) are refused unless private networks are allowed
 *   (QUIRE_ALLOW_PRIVATE_NETWORK=1), both as written and as resolved when git connects: each fetch
 *   resolves the host once and pins git to the checked addresses (net/git-remote.ts);
 * - branch names and SHAs are validated and passed after `--`, so no value can become an option;
 * - `GIT_ALLOW_PROTOCOL` is `https:ssh:file`, so `ext::` and other transports stay off. `file` is
 *   there for the operator's `url.<base>.insteadOf` mirrors (decisions.md section 1: an https URL
 *   rewritten to a local path); a user's own file URL or path never gets this far unless file repos
 *   are allowed, because {@link checkRepoUrl} refuses it first. `GIT_TERMINAL_PROMPT=0`, ssh in
 *   batch mode, no hooks, no submodules, no LFS smudge (the shared runner, git/run-git.ts).
 */

/** What {@link checkoutRef} needs. */
export interface CheckoutInput {
  repoUrl: string;
  branch: string;
  /** full 40- (or 64-) hex commit; when set, this commit is checked out instead of the branch tip */
  commitSha?: string;
  /** QUIRE_ALLOW_FILE_REPOS: file:// URLs, paths and http:// */
  allowFileRepos: boolean;
  /** QUIRE_ALLOW_PRIVATE_NETWORK: loopback, private and link-local hosts */
  allowPrivateNetwork: boolean;
  /** how host names are resolved (tests); default getaddrinfo */
  resolve?: Resolver;
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
 * @param policy QUIRE_ALLOW_FILE_REPOS and QUIRE_ALLOW_PRIVATE_NETWORK
 * @throws BuildError naming what is not allowed.
 */
export function checkRepoUrl(repoUrl: string, policy: RepoUrlPolicy): string {
  const check = gitUrlOf(repoUrl, policy);
  if (!check.ok) throw new BuildError(`Repository URL refused: it ${check.message}.`);
  return check.url;
}

/** Removes credentials from URLs in text shown to users (`https://user:token@host` -> `https://***@host`). */
export { redactUrls };

/**
 * Fetches `branch` (or `commitSha`) shallowly into `cacheDir` and checks it out there, replacing
 * what a previous build left. Builds of one project are serialized on the cache directory, across processes (git/dir-lock.ts).
 * @throws BuildError (bad URL/ref, git failure with its last message, credentials redacted)
 * @throws AbortError when `signal` fires (the git process is killed).
 */
export async function checkoutRef(input: CheckoutInput): Promise<Checkout> {
  const url = checkRepoUrl(input.repoUrl, input);
  checkBranchName(input.branch);
  if (input.commitSha !== undefined) checkCommitSha(input.commitSha);
  const remote = { url, allowPrivateNetwork: input.allowPrivateNetwork, ...(input.resolve ? { resolve: input.resolve } : {}) };
  return withDirLock(input.cacheDir, async () => {
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
          remote,
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
        if (!(err instanceof BuildError) || err instanceof AddressRefusedError) throw err;
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
  }, input.signal ? { signal: input.signal } : {});
}

/** The address policy refused the repository's host as git would connect to it. */
class AddressRefusedError extends BuildError {}

/** Limits of one git command beyond its time limit, and the repository it talks to. */
interface GitRunLimits {
  /** the repository a fetch connects to (checked and pinned by the shared runner) */
  remote?: GitRemote;
  /** kill a fetch whose packfile grows past this many bytes */
  maxFetchBytes?: number;
  /** kill the command once its stdout passes this many bytes, failing with `onTooMuchOutput()` */
  maxStdoutBytes?: number;
  onTooMuchOutput?: () => BuildError;
}

/** Runs one git command in `cwd` through the shared runner; resolves with stdout, fails with BuildError. */
async function runGit(cwd: string, args: string[], input: CheckoutInput, limits: GitRunLimits = {}): Promise<string> {
  const { maxFetchBytes } = limits;
  try {
    return await runGitCommand(cwd, args, {
      ...(input.signal ? { signal: input.signal } : {}),
      ...(input.timeoutMs !== undefined ? { timeoutMs: input.timeoutMs } : {}),
      ...(limits.maxStdoutBytes !== undefined ? { maxStdoutBytes: limits.maxStdoutBytes } : {}),
      ...(limits.onTooMuchOutput ? { onTooMuchOutput: limits.onTooMuchOutput } : {}),
      ...(limits.remote ? { remote: limits.remote } : {}),
      ...(maxFetchBytes !== undefined
        ? {
            maxFetchBytes,
            onFetchTooLarge: (bytes: number) =>
              Object.assign(
                new BuildError(`The repository download passed ${formatBytes(bytes)}; a build downloads at most ${formatBytes(maxFetchBytes)} (QUIRE_BUILD_MAX_REPO_MB).`),
                { limit: 'maxFetchBytes' as const },
              ),
          }
        : {}),
    });
  } catch (err) {
    if (err instanceof GitRemoteRefusedError) throw new AddressRefusedError(`Repository URL refused: ${err.reason}.`);
    if (err instanceof GitError) throw new BuildError(err.message);
    throw err;
  }
}

function printable(s: string): string {
  // eslint-disable-next-line no-control-regex
  return s.replace(/[\x00-\x1f\x7f]/g, '?').slice(0, 80);
}
