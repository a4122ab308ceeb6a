import { spawn } from 'node:child_process';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { checkRepoUrl as repoUrlRule, type RepoUrlPolicy } from '@quire/shared/repo/repo-url';
import { AbortError, throwIfAborted } from '../builder/errors';
import { formatBytes } from '../builder/build-limits';
import { watchFetchGrowth } from '../builder/fetch-watchdog';
import type { Resolver } from '../net/address-check';
import { OutboundNetworkError, OutboundRefusedError } from '../net/errors';
import { CURLOPT_RESOLVE_GIT, pinGitRemote, type GitRemotePin } from '../net/git-remote';

/**
 * The one way Quire runs the system `git` (builds, the repository reader, merges; decisions.md
 * section 10): locked-down transports (`GIT_ALLOW_PROTOCOL=https:ssh:file`, `protocol.ext.allow=never`),
 * no prompts (`GIT_TERMINAL_PROMPT=0`, ssh in batch mode), no hooks, no fsmonitor, no LFS smudge,
 * no inherited repository variables, a time limit, and optional bounds on what a fetch downloads and
 * what a command prints. Failures carry git's last error line with credentials in URLs redacted.
 * Callers validate URLs ({@link gitUrlOf}) and refs (`@quire/shared/repo/git-ref`) and pass refs
 * after `--`; a command that talks to a repository names it in {@link GitRunOptions.remote}, so its
 * connection goes through the address policy (net/git-remote.ts).
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

/**
 * The address policy refused the host git would connect to (decisions.md section 10); nothing was
 * sent. `reason` says why: "github.com resolves to 10.0.0.5, a private address; ...".
 */
export class GitRemoteRefusedError extends GitError {
  override name = 'GitRemoteRefusedError';
  constructor(reason: string) {
    super(`The repository's address is refused: ${reason}.`, reason);
  }
}

/** The repository a git command talks to (fetch, ls-remote, push). */
export interface GitRemote {
  /** the URL as handed to git ({@link gitUrlOf}) */
  url: string;
  /** `QUIRE_ALLOW_PRIVATE_NETWORK=1`: loopback, private and link-local addresses may be reached */
  allowPrivateNetwork: boolean;
  /** the command pushes: git applies `url.<base>.pushInsteadOf` before `insteadOf` */
  push?: boolean;
  /** how names are resolved (tests); default getaddrinfo */
  resolve?: Resolver;
}

/** Options of one git command. */
export interface GitRunOptions {
  /**
   * The repository the command connects to. Before git runs, the URL git will use (after the
   * operator's insteadOf rewrites) is resolved once, every address checked and the connection
   * pinned to them (net/git-remote.ts); a local path or file URL (a mirror) is not resolved.
   */
  remote?: GitRemote;
  signal?: AbortSignal;
  /** time limit in milliseconds (default 10 minutes) */
  timeoutMs?: number;
  /** extra environment variables (e.g. `GIT_CONFIG_*` credentials, `GIT_SSH_COMMAND`, author identity) */
  env?: Record<string, string>;
  /** written to git's stdin: text (as UTF-8) or bytes as they are */
  stdin?: string | Uint8Array;
  /** kill a fetch whose packfile (in `<cwd>/.git/objects/pack` or `<cwd>/objects/pack`) grows past this many bytes */
  maxFetchBytes?: number;
  /** the error a fetch over {@link maxFetchBytes} fails with (default a GitError naming the size) */
  onFetchTooLarge?: (bytes: number) => Error;
  /** kill the command once its stdout passes this many bytes (UTF-16 units of the decoded text; bytes for {@link runGitBytes}) */
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
 * @param policy `QUIRE_ALLOW_FILE_REPOS` and `QUIRE_ALLOW_PRIVATE_NETWORK` (the server config has both fields)
 * @returns `{ok: true, url, local}` (`local`: a file URL or path) or `{ok: false, message}` where
 *   `message` completes "Repository URL refused: it ...".
 */
export function gitUrlOf(repoUrl: string, policy: RepoUrlPolicy): { ok: true; url: string; local: boolean } | { ok: false; message: string } {
  const check = repoUrlRule(repoUrl, { allowFileRepos: policy.allowFileRepos, allowPrivateNetwork: policy.allowPrivateNetwork });
  if (!check.ok) return { ok: false, message: check.message };
  if (check.kind === 'path') return { ok: true, url: pathToFileURL(path.resolve(check.gitUrl)).href, local: true };
  return { ok: true, url: check.gitUrl, local: check.gitUrl.startsWith('file:') };
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
 * Runs `git <args>` in `cwd` and resolves with its stdout (UTF-8). With `options.remote`, the
 * address policy runs first (see {@link GitRunOptions.remote}).
 * @throws GitRemoteRefusedError the address policy refused the host git would connect to
 * @throws GitError `git <command> failed: <reason>` (credentials redacted) on a non-zero exit, a
 *   failure to start, the time limit, or a repository host that does not resolve
 * @throws the error of `onFetchTooLarge` / `onTooMuchOutput` when a bound was crossed
 * @throws AbortError when `signal` fires (git is killed)
 */
export async function runGit(cwd: string, args: string[], options: GitRunOptions = {}): Promise<string> {
  throwIfAborted(options.signal);
  const pin = options.remote ? await pinRemote(cwd, args[0] ?? 'git', options.remote, options) : undefined;
  return spawnGit(cwd, args, options, pin);
}

/**
 * {@link runGit} for a local command whose output is bytes (`git cat-file blob` of an image): resolves
 * with stdout as it is, undecoded; `maxStdoutBytes` counts bytes. Never talks to a repository
 * (`options.remote` is refused). @throws as {@link runGit}.
 */
export async function runGitBytes(cwd: string, args: string[], options: GitRunOptions = {}): Promise<Buffer> {
  if (options.remote) throw new Error('runGitBytes runs local commands only.');
  return spawnGit(cwd, args, options, undefined, true);
}

/** Time limit of the local commands that find the URL git will use, in milliseconds. */
const LOCAL_QUERY_TIMEOUT_MS = 60_000;
/** A remote name no caller uses: pushes read their effective URL through it. */
const PUSH_CHECK_REMOTE = 'quire-address-check';

/** Finds the URL `remote` becomes for git (insteadOf / pushInsteadOf) and pins its checked addresses. */
async function pinRemote(cwd: string, command: string, remote: GitRemote, options: GitRunOptions): Promise<GitRemotePin> {
  const local = (args: string[]) =>
    spawnGit(cwd, args, {
      ...(options.env ? { env: options.env } : {}),
      ...(options.signal ? { signal: options.signal } : {}),
      timeoutMs: LOCAL_QUERY_TIMEOUT_MS,
      maxStdoutBytes: 64 * 1024,
    });
  let effective: string;
  if (remote.push) {
    // `git remote get-url --push` is the one query that applies pushInsteadOf; it reads remotes of
    // the repository's own configuration only, so one is written there for the query.
    await local(['config', '--local', '--replace-all', `remote.${PUSH_CHECK_REMOTE}.url`, remote.url]);
    try {
      effective = await local(['remote', 'get-url', '--push', PUSH_CHECK_REMOTE]);
    } finally {
      await local(['config', '--local', '--remove-section', `remote.${PUSH_CHECK_REMOTE}`]).catch(() => undefined);
    }
  } else {
    effective = await local(['ls-remote', '--get-url', '--', remote.url]);
  }
  let pin: GitRemotePin;
  try {
    pin = await pinGitRemote(effective.trim(), { allowPrivateNetwork: remote.allowPrivateNetwork }, {
      ...(remote.resolve ? { resolve: remote.resolve } : {}),
      ...(options.signal ? { signal: options.signal } : {}),
    });
  } catch (err) {
    if (options.signal?.aborted) throw new AbortError();
    if (err instanceof OutboundRefusedError) throw new GitRemoteRefusedError(redactUrls(err.message));
    if (err instanceof OutboundNetworkError) {
      const reason = redactUrls(err.message);
      throw new GitError(`git ${command} failed: ${reason}`, reason);
    }
    throw err;
  }
  if (pin.curlResolve && !remote.allowPrivateNetwork) {
    // an older git ignores http.curloptResolve silently: curl would resolve the name again
    const version = await local(['version']);
    const [major = 0, minor = 0] = (/(\d+)\.(\d+)/.exec(version) ?? []).slice(1).map(Number);
    const [needMajor, needMinor] = CURLOPT_RESOLVE_GIT;
    if (major < needMajor || (major === needMajor && minor < needMinor)) {
      throw new GitRemoteRefusedError(
        `${version.trim()} cannot be held to the address it was checked against (http.curloptResolve needs git ${needMajor}.${needMinor} or later); upgrade git or set QUIRE_ALLOW_PRIVATE_NETWORK=1`,
      );
    }
  }
  return pin;
}

/** `text` as one single-quoted shell word. */
function shellQuote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

/** Spawns git once (see {@link runGit}), with the pinning options of `pin`; `raw`: stdout as bytes ({@link runGitBytes}). */
function spawnGit(cwd: string, args: string[], options: GitRunOptions, pin?: GitRemotePin): Promise<string>;
function spawnGit(cwd: string, args: string[], options: GitRunOptions, pin: GitRemotePin | undefined, raw: true): Promise<Buffer>;
function spawnGit(cwd: string, args: string[], options: GitRunOptions, pin?: GitRemotePin, raw = false): Promise<string | Buffer> {
  throwIfAborted(options.signal);
  return new Promise((resolve, reject) => {
    const env = gitEnv(options.env);
    if (pin && pin.sshOptions.length > 0) env.GIT_SSH_COMMAND = `${env.GIT_SSH_COMMAND} ${pin.sshOptions.map(shellQuote).join(' ')}`;
    const child = spawn('git', [...SAFE_CONFIG, ...(pin?.config ?? []), ...args], {
      cwd,
      env,
      stdio: [options.stdin === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
      timeout: options.timeoutMs ?? 10 * 60_000,
      killSignal: 'SIGKILL',
    });
    if (options.stdin !== undefined) {
      child.stdin!.on('error', () => undefined);
      child.stdin!.end(options.stdin);
    }
    let stdout = '';
    let chunks: Buffer[] = [];
    let rawBytes = 0;
    let stderr = '';
    /** a limit this process enforced by killing git: the reason replaces git's own message */
    let limitHit: Error | undefined;
    const stop = (reason: Error) => {
      limitHit ??= reason;
      child.kill('SIGKILL');
    };
    const { maxStdoutBytes, maxFetchBytes } = options;
    const tooMuch = () => stop(options.onTooMuchOutput?.() ?? new GitError(`git ${args[0]} printed more than ${formatBytes(maxStdoutBytes!)}.`, 'too much output'));
    if (raw) {
      child.stdout!.on('data', (d: Buffer) => {
        chunks.push(d);
        rawBytes += d.length;
        if (maxStdoutBytes !== undefined && rawBytes > maxStdoutBytes) {
          chunks = [];
          tooMuch();
        }
      });
    } else {
      child.stdout!.setEncoding('utf8').on('data', (d: string) => {
        stdout += d;
        if (maxStdoutBytes !== undefined && stdout.length > maxStdoutBytes) {
          stdout = '';
          tooMuch();
        }
      });
    }
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
      if (code === 0) return resolve(raw ? Buffer.concat(chunks) : stdout);
      const lines = stderr.trim().split('\n').filter(Boolean);
      const last = lines.filter((l) => /^(fatal|error):/.test(l)).pop() ?? lines.pop() ?? (sig ? `killed by ${sig} (time limit?)` : `exit code ${code}`);
      const reason = redactUrls(last.replace(/^(fatal|error):\s*/, ''));
      reject(new GitError(`git ${args[0]} failed: ${reason}`, reason, redactUrls(stderr)));
    });
  });
}
