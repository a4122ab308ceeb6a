/**
 * Which repository a URL names, whatever form it is written in: the one rule that matches a git
 * provider's webhook payload (`repository.clone_url`, `html_url`, `ssh_url`, `git_url`) to the
 * projects whose `repoUrl` names the same repository (interface-spec.md "Events": `builds` is
 * empty "when no project is connected to the repository").
 *
 * The identity is `host/path`, lower case (GitHub, GitLab and Bitbucket treat owner and repository
 * names case-insensitively), with the scheme, user, port, a trailing `/` and a trailing `.git`
 * left out, so `https://github.com/Octo/Hello.git`, `https://github.com/octo/hello/`,
 * `ssh://git@github.com:22/octo/hello.git`, `git@github.com:Octo/Hello.git` and
 * `git://github.com/octo/hello.git` all give `github.com/octo/hello`. Parsing is the repository
 * URL rule's ({@link checkRepoUrl}, repo-url.ts); `git://` (only ever seen in payloads) is read
 * like `https://`. Local repositories (`file://`, paths) have no identity.
 */
import { checkRepoUrl } from './repo-url';

/** Reads every form, private hosts included: an identity is compared, never connected to. */
const PARSE_ALL = { allowFileRepos: true, allowPrivateNetwork: true } as const;

/**
 * The identity `host/owner/name` (more path segments kept as they are, e.g. GitLab subgroups) of
 * a repository URL, lower case.
 * @returns null for what names no remote repository: refused or malformed URLs, `file://` URLs,
 *   paths, and URLs without a path. Never throws.
 * @example repoIdentity('git@github.com:Codertocat/Hello-World.git') === 'github.com/codertocat/hello-world'
 */
export function repoIdentity(url: string): string | null {
  const readable = /^git:\/\//i.test(url) ? `https://${url.slice('git://'.length)}` : url;
  const checked = checkRepoUrl(readable, PARSE_ALL);
  if (!checked.ok || checked.host === null) return null;
  let repoPath: string;
  if (checked.kind === 'scp') {
    // user@host:path, where host may be a bracketed IPv6 address holding ':'
    const afterUser = readable.slice(readable.indexOf('@') + 1);
    const hostEnd = afterUser.startsWith('[') ? afterUser.indexOf(']') + 1 : 0;
    repoPath = afterUser.slice(afterUser.indexOf(':', hostEnd) + 1);
  } else {
    repoPath = new URL(checked.gitUrl).pathname;
  }
  const segments = safeDecode(repoPath)
    .split('/')
    .filter((s) => s !== '');
  const last = segments.length - 1;
  if (last >= 0 && /\.git$/i.test(segments[last]!)) segments[last] = segments[last]!.slice(0, -'.git'.length);
  const parts = segments.filter((s) => s !== '');
  if (parts.length === 0) return null;
  return `${checked.host}/${parts.join('/')}`.toLowerCase();
}

/**
 * Whether two repository URLs name the same repository ({@link repoIdentity} of both, and known).
 */
export function sameRepository(a: string, b: string): boolean {
  const identity = repoIdentity(a);
  return identity !== null && identity === repoIdentity(b);
}

function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}
