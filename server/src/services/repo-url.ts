/**
 * `repoUrl` validation (decisions.md section 10): `https://`, `ssh://` or scp-like `git@host:path`.
 * `file://` URLs, local paths and hosts that are loopback, private or link-local addresses (or
 * `localhost`) are refused unless `QUIRE_ALLOW_FILE_REPOS=1`. Host names are not resolved here.
 */
import { isIP } from 'node:net';
import { invalidField } from '@quire/shared/errors';

const SCP_LIKE = /^([A-Za-z0-9._-]+)@([A-Za-z0-9.-]+):(?!\/\/)(.+)$/;

/** True for loopback, private (RFC 1918, unique-local), link-local, CGNAT and unspecified addresses. */
export function isPrivateAddress(host: string): boolean {
  const h = host.replace(/^\[|\]$/g, '').toLowerCase();
  if (isIP(h) === 4) {
    const [a = 0, b = 0] = h.split('.').map(Number);
    return a === 0 || a === 10 || a === 127 || (a === 169 && b === 254) || (a === 172 && b >= 16 && b <= 31) ||
      (a === 192 && b === 168) || (a === 100 && b >= 64 && b <= 127);
  }
  if (isIP(h) === 6) {
    if (h === '::' || h === '::1') return true;
    const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(h);
    if (mapped) return isPrivateAddress(mapped[1]!);
    return /^f[cd]/.test(h) || /^fe[89ab]/.test(h);
  }
  return h === 'localhost' || h.endsWith('.localhost');
}

/**
 * Checks a repository URL and returns it unchanged.
 * @param allowLocal `QUIRE_ALLOW_FILE_REPOS=1`: also accept file:// URLs, absolute paths, http:// and private hosts.
 * @throws ApiError invalid_request with `details.field = field` naming what is wrong.
 */
export function validateRepoUrl(value: string, allowLocal: boolean, field = 'repoUrl'): string {
  const fail = (issue: string) => invalidField(field, issue);
  if (/[\s\0]/.test(value)) throw fail('must not contain spaces or control characters');
  if (value.startsWith('-')) throw fail('must not start with "-"');
  if (value.startsWith('/') || value.startsWith('file:')) {
    if (!allowLocal) throw fail('file:// URLs and local paths are not allowed (set QUIRE_ALLOW_FILE_REPOS=1 for local use)');
    return value;
  }
  const scp = SCP_LIKE.exec(value);
  if (scp) {
    if (!allowLocal && isPrivateAddress(scp[2]!)) throw fail('loopback, private and link-local hosts are not allowed');
    return value;
  }
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw fail('must be an https://, ssh:// or git@host:path URL');
  }
  const schemes = allowLocal ? ['https:', 'ssh:', 'http:'] : ['https:', 'ssh:'];
  if (!schemes.includes(url.protocol)) throw fail(`scheme ${url.protocol} is not allowed; use https://, ssh:// or git@host:path`);
  if (!url.hostname) throw fail('must name a host');
  if (!allowLocal && isPrivateAddress(url.hostname)) throw fail('loopback, private and link-local hosts are not allowed');
  if (url.protocol === 'https:' && url.password) throw fail('must not carry a password; use a deploy key or token setting');
  return value;
}
