/**
 * The address policy for git's connections (decisions.md section 10): before each git command that
 * talks to a remote, the host of the URL git will really use (after the operator's
 * `url.<base>.insteadOf` rewrites) is resolved once, every address is checked (./address-check.ts)
 * and the connection is pinned to the checked addresses, so a DNS answer that changes in between
 * (rebinding) is never used:
 * - https (curl): `-c http.curloptResolve=<host>:<port>:<addresses>` fills curl's DNS cache, so curl
 *   does not resolve the name itself; the name stays in the URL, so TLS (SNI, certificate) and the
 *   Host header are unchanged;
 * - ssh: `-o HostName=<address> -o HostKeyAlias=<host>` added to the ssh command, so ssh connects
 *   to the address and checks the host key recorded for the name;
 * - redirects are never followed (`-c http.followRedirects=false`).
 * A URL that git turns into a local path or `file://` URL (the operator's mirror) is not resolved.
 *
 * `http.curloptResolve` needs git 2.37 or later: the runner refuses to connect to a name with an
 * older git unless private networks are allowed (git/run-git.ts).
 *
 * Limitations: an HTTP proxy configured for git (`http.proxy`, `https_proxy`) resolves the name
 * itself; ssh `ProxyCommand`s of the operator's ssh configuration connect where they say.
 */
import net from 'node:net';
import { checkRepoUrl } from '@quire/shared/repo/repo-url';
import type { OutboundPolicy } from '@quire/shared/net/outbound-url';
import { OutboundRefusedError } from './errors';
import { resolveAllowed, type ResolveOptions } from './address-check';

/** What to add to one git command so it connects only to checked addresses. */
export interface GitRemotePin {
  /** `-c name=value` pairs to put before the git subcommand */
  config: string[];
  /** options to append to the ssh command (`GIT_SSH_COMMAND`); empty unless git connects over ssh */
  sshOptions: string[];
  /** `config` holds an `http.curloptResolve` entry, which git reads from version {@link CURLOPT_RESOLVE_GIT} on (older ones ignore it) */
  curlResolve: boolean;
}

/** The first git version that passes `http.curloptResolve` to curl (git commit 511cfd3, Git 2.37). */
export const CURLOPT_RESOLVE_GIT: readonly [number, number] = [2, 37];

/** git options every remote command gets: redirects are not followed (decisions.md section 10). */
const NO_REDIRECTS = ['-c', 'http.followRedirects=false'];

/**
 * True when git reads `url` from the file system: a `file://` URL, or a path (git's rule: no
 * `://`, and no `:` before the first `/`).
 */
export function isLocalGitUrl(url: string): boolean {
  if (/^file:/i.test(url)) return true;
  if (url.includes('://')) return false;
  const colon = url.indexOf(':');
  const slash = url.indexOf('/');
  return colon < 0 || (slash >= 0 && slash < colon);
}

/**
 * Resolves and checks the host of `effectiveUrl` (the URL git will use, after insteadOf) and gives
 * the options that pin git to the checked addresses.
 * @param effectiveUrl as printed by `git ls-remote --get-url` (or `git remote get-url --push`)
 * @throws OutboundRefusedError an address (or the literal host) is not public and private networks
 *   are not allowed, or the URL is not one git may reach (https, ssh, scp-like, local)
 * @throws OutboundNetworkError the name does not resolve
 */
export async function pinGitRemote(effectiveUrl: string, policy: OutboundPolicy, options: ResolveOptions = {}): Promise<GitRemotePin> {
  const unpinned: GitRemotePin = { config: [...NO_REDIRECTS], sshOptions: [], curlResolve: false };
  if (isLocalGitUrl(effectiveUrl)) return unpinned;
  // parsed by the repoUrl rule itself (hosts normalized as the connection reads them); the
  // address policy is applied below, on the literal host or the resolved addresses
  const parsed = checkRepoUrl(effectiveUrl, { allowFileRepos: true, allowPrivateNetwork: true });
  if (!parsed.ok || parsed.host === null) {
    throw new OutboundRefusedError(`git would connect to a URL Quire cannot check: ${parsed.ok ? 'it names no host' : parsed.message}`);
  }
  const { host } = parsed;
  const addresses = await resolveAllowed(host, policy, options);
  if (net.isIP(host) !== 0) return unpinned;
  if (parsed.kind === 'https' || parsed.kind === 'http') {
    const url = new URL(parsed.gitUrl);
    const port = url.port || (parsed.kind === 'https' ? '443' : '80');
    const list = addresses.map((a) => (a.family === 6 ? `[${a.address}]` : a.address)).join(',');
    return { config: [...NO_REDIRECTS, '-c', `http.curloptResolve=${url.hostname}:${port}:${list}`], sshOptions: [], curlResolve: true };
  }
  // ssh / scp-like: one address; known_hosts entries of other ports read `[host]:port`
  const port = parsed.kind === 'ssh' ? new URL(parsed.gitUrl).port : '';
  const alias = port && port !== '22' ? `[${host}]:${port}` : host;
  return { config: [...NO_REDIRECTS], sshOptions: ['-o', `HostName=${addresses[0]!.address}`, '-o', `HostKeyAlias=${alias}`], curlResolve: false };
}
