/**
 * The one `repoUrl` rule (decisions.md section 10), used by the projects API and by the builder:
 * `https://`, `ssh://` or scp-like `user@host:path`. `file://` URLs, absolute paths and `http://`
 * only when file repositories are allowed (`QUIRE_ALLOW_FILE_REPOS=1`); hosts that are not public
 * (./host-address: loopback, private, link-local, `localhost`, ... in every literal form) only
 * when private networks are allowed (`QUIRE_ALLOW_PRIVATE_NETWORK=1`, a separate setting: file
 * repositories do not imply it). Host names are not resolved here: every git command
 * that connects resolves them and pins the checked address (server/src/net/git-remote.ts).
 *
 * Also refused: more than 2048 characters, spaces, control characters and backslashes (parsers
 * disagree on them), a leading `-` in the URL, its user, host or scp path (git would take it for
 * an option), passwords in http(s) URLs, `<transport>::` remote helpers (`ext::`, ...) and any
 * other scheme.
 */
import { UNSAFE_URL_CHARS, URL_MAX_LENGTH } from '../net/url-text';
import { nonPublicHostRefusal } from './host-address';

/** Longest repository URL accepted, in characters. */
export const REPO_URL_MAX_LENGTH = URL_MAX_LENGTH;

/** What may be reached (the server config has both fields, both off by default). */
export interface RepoUrlPolicy {
  /** `QUIRE_ALLOW_FILE_REPOS=1`: also `file://` URLs, absolute paths and `http://` */
  allowFileRepos: boolean;
  /** `QUIRE_ALLOW_PRIVATE_NETWORK=1`: loopback, private, link-local, ... hosts too */
  allowPrivateNetwork: boolean;
}

/** Why a URL was refused. */
export type RepoUrlProblem = 'malformed' | 'too_long' | 'option_like' | 'transport' | 'local_repo' | 'private_host' | 'password';

/** An accepted repository URL. */
export interface RepoUrlAccepted {
  ok: true;
  kind: 'https' | 'http' | 'ssh' | 'scp' | 'file' | 'path';
  /**
   * The URL to hand to git: the WHATWG serialization for `https`/`http`/`ssh`/`file` (so git
   * connects to the host that was classified), the input for `scp` and `path`.
   */
  gitUrl: string;
  /** the host to resolve and connect to (IPv6 without brackets); null for `file` and `path` */
  host: string | null;
}

/** A refused repository URL. */
export interface RepoUrlRefused {
  ok: false;
  problem: RepoUrlProblem;
  /** user-facing, e.g. `the host 127.0.0.1 is a loopback address; ...` */
  message: string;
}

/** The outcome of {@link checkRepoUrl}. */
export type RepoUrlCheck = RepoUrlAccepted | RepoUrlRefused;

const ALLOWED_HINT = 'use https://, ssh:// or git@host:path';
const FILE_HINT = 'local repositories (file://, paths, http://) are only allowed when QUIRE_ALLOW_FILE_REPOS=1';
// user@host:path, host a name or [IPv6]; git reads it this way when no "://" comes first.
const SCP_LIKE = /^([A-Za-z0-9._-]+)@(\[[^\]/]*\]|[^:/[\]]+):(.+)$/;
const SSH_HOST = /^(?:[A-Za-z0-9._-]+|\[[0-9A-Fa-f:.]+\])$/;
const SSH_HOST_ISSUE = "the host may hold only letters, digits, '.', '_' and '-', or be an [IPv6] address";
const REMOTE_HELPER = /^([A-Za-z][A-Za-z0-9+.-]*)::/;

/**
 * Parses and classifies a repository URL under `policy`.
 * @returns {@link RepoUrlAccepted} with what to hand git, or {@link RepoUrlRefused} with the
 *   problem and a message; never throws. Callers map a refusal to their own error (API:
 *   `invalidField('repoUrl', message)`; builder: `BuildError`).
 */
export function checkRepoUrl(value: string, policy: RepoUrlPolicy): RepoUrlCheck {
  const allowPrivate = policy.allowPrivateNetwork;
  const refuse = (problem: RepoUrlProblem, message: string): RepoUrlRefused => ({ ok: false, problem, message });
  if (value.length === 0) return refuse('malformed', `must not be empty; ${ALLOWED_HINT}`);
  if (value.length > REPO_URL_MAX_LENGTH) return refuse('too_long', `must be at most ${REPO_URL_MAX_LENGTH} characters`);
  if (UNSAFE_URL_CHARS.test(value)) return refuse('malformed', 'must not contain spaces, control characters or backslashes');
  if (value.startsWith('-')) return refuse('option_like', 'must not start with "-"');

  if (value.startsWith('/')) {
    return policy.allowFileRepos ? { ok: true, kind: 'path', gitUrl: value, host: null } : refuse('local_repo', FILE_HINT);
  }
  const helper = REMOTE_HELPER.exec(value);
  if (helper) return refuse('transport', `the "${helper[1]}::" transport is not allowed; ${ALLOWED_HINT}`);

  const scp = value.includes('://') ? null : SCP_LIKE.exec(value);
  if (scp) {
    const [, user, host, repoPath] = scp as unknown as [string, string, string, string];
    if (user.startsWith('-') || host.startsWith('-') || repoPath.startsWith('-')) {
      return refuse('option_like', 'no part of it may start with "-"');
    }
    return checkHost('scp', value, host, allowPrivate);
  }

  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return refuse('malformed', `is not a URL git can use; ${ALLOWED_HINT}`);
  }
  const scheme = url.protocol.slice(0, -1);
  switch (scheme) {
    case 'file':
      return policy.allowFileRepos ? { ok: true, kind: 'file', gitUrl: url.href, host: null } : refuse('local_repo', FILE_HINT);
    case 'http':
      if (!policy.allowFileRepos) return refuse('transport', `http:// is not allowed (${FILE_HINT}); use https://`);
      break;
    case 'https':
    case 'ssh':
      break;
    default:
      return refuse('transport', `the "${scheme}" transport is not allowed; ${ALLOWED_HINT}`);
  }
  if (url.password && scheme !== 'ssh') return refuse('password', 'must not carry a password; use a deploy key or token setting');
  if (safeDecode(url.username).startsWith('-')) return refuse('option_like', 'the user name must not start with "-"');
  if (!url.hostname) return refuse('malformed', 'must name a host');
  return checkHost(scheme as 'https' | 'http' | 'ssh', url.href, url.hostname, allowPrivate);
}

/**
 * Normalizes `host` the way a connection would read it and refuses non-public hosts.
 * `https`/`http` hosts come normalized from the URL parser. `ssh` hosts are opaque to it and scp
 * hosts never met it, while ssh hands them to getaddrinfo (which reads `127.1`, `0x7f.1`, ...):
 * they are read with the URL parser's IPv4 number rules, which match inet_aton's.
 */
function checkHost(kind: 'https' | 'http' | 'ssh' | 'scp', gitUrl: string, rawHost: string, allowPrivate: boolean): RepoUrlCheck {
  let host = rawHost;
  if (host.startsWith('-')) return { ok: false, problem: 'option_like', message: 'the host must not start with "-"' };
  if (kind === 'ssh' || kind === 'scp') {
    // Also keeps out percent-encoding, which git decodes in ssh:// URLs before connecting.
    if (!SSH_HOST.test(host)) return { ok: false, problem: 'malformed', message: SSH_HOST_ISSUE };
    try {
      host = new URL(`https://${host}/`).hostname;
    } catch {
      return { ok: false, problem: 'malformed', message: `${rawHost} is not a valid host name` };
    }
  }
  const bare = host.replace(/^\[(.*)\]$/, '$1');
  const refusal = allowPrivate ? null : nonPublicHostRefusal(bare);
  if (refusal) return { ok: false, problem: 'private_host', message: refusal };
  return { ok: true, kind, gitUrl, host: bare };
}

function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}
