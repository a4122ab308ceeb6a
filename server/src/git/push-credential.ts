import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/**
 * A project's opened git credential (decisions.md section 9), as merges push with it, and the
 * environment that hands it to git without putting it in a URL, an argument or a log:
 * - HTTPS token: an `http.extraheader` (`Authorization: Basic base64(user:token)`) given through
 *   `GIT_CONFIG_COUNT/KEY/VALUE` environment variables (git 2.31+), so it never appears in the
 *   process list or in `.git/config`; redirects are not followed, so it reaches no other host;
 * - SSH deploy key: a temporary key file (mode 0600) in a private directory and `GIT_SSH_COMMAND`
 *   with `IdentitiesOnly=yes`, `StrictHostKeyChecking=accept-new`, batch mode; removed afterwards.
 */
export type GitPushCredential =
  | { kind: 'https_token'; username: string; token: string }
  | { kind: 'ssh_key'; privateKey: string };

/**
 * Runs `fn` with the environment variables that authenticate git with `credential` (none for null).
 * The SSH key file lives in a fresh directory under `scratchDir` and is removed when `fn` settles.
 * Existing `GIT_CONFIG_COUNT` entries of the process (the operator's insteadOf mirrors) are kept.
 */
export async function withPushCredential<T>(
  credential: GitPushCredential | null,
  scratchDir: string,
  fn: (env: Record<string, string>) => Promise<T>,
): Promise<T> {
  if (!credential) return fn({});
  if (credential.kind === 'https_token') {
    const basic = Buffer.from(`${credential.username}:${credential.token}`, 'utf8').toString('base64');
    // no redirects: the header must never reach another host (decisions.md section 10)
    return fn(gitConfigEnv([['http.followRedirects', 'false'], ['http.extraheader', `Authorization: Basic ${basic}`]]));
  }
  fs.mkdirSync(scratchDir, { recursive: true });
  const dir = fs.mkdtempSync(path.join(scratchDir, 'ssh-'));
  try {
    fs.chmodSync(dir, 0o700);
    const keyFile = path.join(dir, `id-${randomBytes(6).toString('hex')}`);
    fs.writeFileSync(keyFile, credential.privateKey.endsWith('\n') ? credential.privateKey : `${credential.privateKey}\n`, { mode: 0o600, flag: 'wx' });
    const quoted = `'${keyFile.replace(/'/g, `'\\''`)}'`;
    const known = `'${path.join(dir, 'known_hosts').replace(/'/g, `'\\''`)}'`;
    // accept-new: a host seen for the first time is trusted (the temporary known_hosts starts empty),
    // a changed host key is still refused within one push
    const sshCommand = `ssh -i ${quoted} -o IdentitiesOnly=yes -o IdentityAgent=none -o BatchMode=yes -o StrictHostKeyChecking=accept-new -o UserKnownHostsFile=${known} -F /dev/null`;
    return await fn({ GIT_SSH_COMMAND: sshCommand, GIT_SSH_VARIANT: 'ssh' });
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** `GIT_CONFIG_*` variables adding `entries` after the ones the process already has. */
function gitConfigEnv(entries: Array<[string, string]>): Record<string, string> {
  const start = Number(process.env.GIT_CONFIG_COUNT ?? '0') || 0;
  const env: Record<string, string> = { GIT_CONFIG_COUNT: String(start + entries.length) };
  entries.forEach(([key, value], i) => {
    env[`GIT_CONFIG_KEY_${start + i}`] = key;
    env[`GIT_CONFIG_VALUE_${start + i}`] = value;
  });
  return env;
}
