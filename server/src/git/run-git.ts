import { spawn } from 'node:child_process';
import { lookup } from 'node:dns/promises';
import net from 'node:net';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describeNonPublic, nonPublicHostReason } from '@quire/shared/repo/host-address';
import { checkRepoUrl as repoUrlRule } from '@quire/shared/repo/repo-url';
import { AbortError, throwIfAborted } from '../builder/errors';
import { formatBytes } from '../builder/build-limits';
import { watchFetchGrowth } from '../builder/fetch-watchdog';

/**
 * The one way Quire runs the system `git` (builds, the repository reader, merges; decisions.md
 * section 10): locked-down transports (`GIT_ALLOW_PROTOCOL=https:ssh:file`, `protocol.ext.allow=never`),
 * no prompts (`GIT_TERMINAL_PROMPT=0`, ssh in batch mode), no hooks, no fsmonitor, no LFS smudge,
 * no inherited repository variables, a time limit, and optional bounds on what a fetch downloads and
 * what a command prints. Failures carry git's last error line with credentials in URLs redacted.
 * Callers validate URLs ({@link gitUrlOf}) and refs (`@quire/shared/repo/git-ref`) and pass refs
 * after `--`.
 */

/** git failed (non-zero exit, could not start, or killed by its time limit). `message` is safe to show. */
export class GitError extends Error {
  override name = 'GitError';
  constructor(
    message: string,
    /** git's last error line without its `fatal:`/`error:` prefix, credentials redacted */
    readonly reason: string,
    /** the end of git's stderr (at most 4000 characters), credentials redacted; for classifying the failure */
    readonly stderr = '',
  ) {
    super(message);
  }
}

/** Options of one git command. */
export interface GitRunOptions {
  signal?: AbortSignal;
  /** time limit in milliseconds (default 10 minutes) */
  timeoutMs?: number;
  /** extra environment variables (e.g. `GIT_CONFIG_*` credentials, `GIT_SSH_COMMAND`, author identity) */
  env?: Record<string, string>;
  /** text written to git's stdin */
  stdin?: string;
  /** kill a fetch whose packfile (in `<cwd>/.git/objects/pack` or `<cwd>/objects/pack`) grows past this many bytes */
  maxFetchBytes?: number;
  /** the error a fetch over {@link maxFetchBytes} fails with (default a GitError naming the size) */
  onFetchTooLarge?: (bytes: number) => Error;
  /** kill the command once its stdout passes this many bytes (UTF-16 units of the decoded text) */
  maxStdoutBytes?: number;
  /** the error a command over {@link maxStdoutBytes} fails with (default a GitError naming the size) */
  onTooMuchOutput?: () => Error;
}

/** Removes credentials from URLs in text shown to users (`https://user:token@host` -> `https://***@host`). */
export function redactUrls(text: string): string {
  return text.replace(/([a-z][a-z0-9+.-]*:\/\/)[^/@\s]+@/gi, '$1***@');
}

/**
 * Checks `repoUrl` with the shared rule (`@quire/shared/repo/repo-url`, decisions.md section 10) and
 * gives the URL to hand to git: the parser's serialization of https/ssh/file URLs (so git connects
 * to the host that was classified), scp-like URLs as given, absolute paths as `file://` URLs (so
 * shallow fetches work). Never throws.
 * @returns `{ok: true, url, local}` (`local`: a file URL or path) or `{ok: false, message}` where
 *   `message` completes "Repository URL refused: it ...".
 */
export function gitUrlOf(repoUrl: string, allowFileRepos: boolean): { ok: true; url: string; local: boolean } | { ok: false; message: string } {
  const check = repoUrlRule(repoUrl, { allowFileRepos });
  if (!check.ok) return { ok: false, message: check.message };
  if (check.kind === 'path') return { ok: true, url: pathToFileURL(path.resolve(check.gitUrl)).href, local: true };
  return { ok: true, url: check.gitUrl, local: check.gitUrl.startsWith('file:') };
}

/**
 * Best-effort DNS check of the address policy (decisions.md section 10): the host of `url` must not
 * resolve to an address the shared classifier (`@quire/shared/repo/host-address`) does not call public.
 * @returns null when fine (or no host / a literal already classified), else the refusal in words
 *   ("<host> resolves to <address>, a loopback address").
 */
export async function nonPublicResolution(url: string): Promise<string | null> {
  const check = repoUrlRule(url, { allowFileRepos: true });
  const host = check.ok ? check.host : null;
  if (!host || net.isIP(host)) return null;
  const addresses = await lookup(host, { all: true }).catch(() => []);
  for (const { address } of addresses) {
    const reason = nonPublicHostReason(address);
    if (reason) return `${host} resolves to ${address}, ${describeNonPublic(reason)}`;
  }
  return null;
}

const locks = new Map<string, Promise<unknown>>();

/** Runs `fn` after every earlier call for the same key has settled (in-process mutex, e.g. per cache directory). */
export async function withLock<T>(key: string, fn: () => Promise<T>): Promise<T> {
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
function gitEnv(extra: Record<string, string> | undefined): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const k of ['GIT_DIR', 'GIT_WORK_TREE', 'GIT_INDEX_FILE', 'GIT_OBJECT_DIRECTORY', 'GIT_ALTERNATE_OBJECT_DIRECTORIES', 'GIT_CEILING_DIRECTORIES', 'GIT_NAMESPACE']) {
    delete env[k];
  }
  // URLs are checked by gitUrlOf; `file` only serves the operator's insteadOf rewrites to local mirrors
  // (decisions.md section 1) unless file repos are allowed.
  env.GIT_ALLOW_PROTOCOL = 'https:ssh:file';
  env.GIT_TERMINAL_PROMPT = '0';
  env.GIT_ASKPASS = 'true';
  env.SSH_ASKPASS = 'true';
  env.GIT_SSH_COMMAND = process.env.GIT_SSH_COMMAND ?? 'ssh -o BatchMode=yes';
  env.GIT_LFS_SKIP_SMUDGE = '1';
  env.LC_ALL = 'C';
  return { ...env, ...extra };
}

// fetch.unpackLimit=1: a fetch always keeps its packfile (never loose objects), so that
// watchFetchGrowth sees every byte it downloads.
const SAFE_CONFIG = [
  '-c', 'core.hooksPath=/dev/null', '-c', 'protocol.ext.allow=never', '-c', 'core.fsmonitor=false', '-c', 'advice.detachedHead=false',
  '-c', 'gc.auto=0', '-c', 'fetch.unpackLimit=1',
];

/**
 * Runs `git <args>` in `cwd` and resolves with its stdout (UTF-8).
 * @throws GitError `git <command> failed: <reason>` (credentials redacted) on a non-zero exit, a
 *   failure to start or the time limit
 * @throws the error of `onFetchTooLarge` / `onTooMuchOutput` when a bound was crossed
 * @throws AbortError when `signal` fires (git is killed)
 */
export function runGit(cwd: string, args: string[], options: GitRunOptions = {}): Promise<string> {
  throwIfAborted(options.signal);
  return new Promise((resolve, reject) => {
    const child = spawn('git', [...SAFE_CONFIG, ...args], {
      cwd,
      env: gitEnv(options.env),
      stdio: [options.stdin === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
      timeout: options.timeoutMs ?? 10 * 60_000,
      killSignal: 'SIGKILL',
    });
    if (options.stdin !== undefined) {
      child.stdin!.on('error', () => undefined);
      child.stdin!.end(options.stdin);
    }
    let stdout = '';
    let stderr = '';
    /** a limit this process enforced by killing git: the reason replaces git's own message */
    let limitHit: Error | undefined;
    const stop = (reason: Error) => {
      limitHit ??= reason;
      child.kill('SIGKILL');
    };
    const { maxStdoutBytes, maxFetchBytes } = options;
    child.stdout!.setEncoding('utf8').on('data', (d: string) => {
      stdout += d;
      if (maxStdoutBytes !== undefined && stdout.length > maxStdoutBytes) {
        stdout = '';
        stop(options.onTooMuchOutput?.() ?? new GitError(`git ${args[0]} printed more than ${formatBytes(maxStdoutBytes)}.`, 'too much output'));
      }
    });
    child.stderr!.setEncoding('utf8').on('data', (d: string) => (stderr = (stderr + d).slice(-4000)));
    const tooLarge = (bytes: number) =>
      options.onFetchTooLarge?.(bytes) ?? new GitError(`The repository download passed ${formatBytes(bytes)}.`, 'download too large');
    const stopWatch = maxFetchBytes === undefined ? undefined : watchFetchGrowth(cwd, maxFetchBytes, (bytes) => stop(tooLarge(bytes)));
    const onAbort = () => child.kill('SIGKILL');
    options.signal?.addEventListener('abort', onAbort, { once: true });
    child.on('error', (err) => {
      stopWatch?.();
      options.signal?.removeEventListener('abort', onAbort);
      reject(new GitError(`Could not run git: ${err.message}`, err.message));
    });
    child.on('close', (code, sig) => {
      // a download faster than the watch's interval is judged by what it left
      const grown = stopWatch?.() ?? 0;
      if (maxFetchBytes !== undefined && grown > maxFetchBytes) limitHit ??= tooLarge(grown);
      options.signal?.removeEventListener('abort', onAbort);
      if (options.signal?.aborted) return reject(new AbortError());
      if (limitHit) return reject(limitHit);
      if (code === 0) return resolve(stdout);
      const lines = stderr.trim().split('\n').filter(Boolean);
      const last = lines.filter((l) => /^(fatal|error):/.test(l)).pop() ?? lines.pop() ?? (sig ? `killed by ${sig} (time limit?)` : `exit code ${code}`);
      const reason = redactUrls(last.replace(/^(fatal|error):\s*/, ''));
      reject(new GitError(`git ${args[0]} failed: ${reason}`, reason, redactUrls(stderr)));
    });
  });
}
