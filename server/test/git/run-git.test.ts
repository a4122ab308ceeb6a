/**
 * The shared git runner's connection checks (decisions.md section 10) over ssh: the host is
 * resolved once, checked, and ssh is told to connect to that address (HostName) while checking the
 * host key of the name (HostKeyAlias). A stand-in ssh command records what git ran it with.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { GitError, GitRemoteRefusedError, runGit } from '../../src/git/run-git';
import { scriptedResolver } from '../net/scripted-resolver';

describe('runGit with a remote over ssh', () => {
  let tmp: string;
  let record: string;
  let env: Record<string, string>;
  beforeAll(() => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-run-git-'));
    record = path.join(tmp, 'ssh-args');
    const fakeSsh = path.join(tmp, 'fake-ssh');
    // prints each argument on its own line, then fails like an unreachable host
    fs.writeFileSync(fakeSsh, `#!/bin/sh\nprintf '%s\\n' "$@" > '${record}'\necho 'ssh: connect to host: Connection refused' >&2\nexit 255\n`, { mode: 0o755 });
    // a base command with options of its own, as the push credential's is
    env = { GIT_SSH_COMMAND: `${fakeSsh} -o BatchMode=yes`, GIT_SSH_VARIANT: 'ssh' };
  });
  afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

  const lsRemote = (url: string, answers: string[][], allowPrivateNetwork = false) => {
    fs.rmSync(record, { force: true });
    const resolve = scriptedResolver(...answers);
    const run = runGit(tmp, ['ls-remote', '--', url], { env, timeoutMs: 30_000, remote: { url, allowPrivateNetwork, resolve } });
    return { run, resolve };
  };

  it('connects ssh:// to the address it checked, with the name and port for the host key', async () => {
    const { run, resolve } = lsRemote('ssh://git@git.quire-test.invalid:2222/acme/docs.git', [['93.184.215.14'], ['10.0.0.5']]);
    await expect(run).rejects.toBeInstanceOf(GitError);
    expect(resolve.calls).toEqual(['git.quire-test.invalid']);
    const args = fs.readFileSync(record, 'utf8').trim().split('\n');
    expect(args.slice(0, 6)).toEqual(['-o', 'BatchMode=yes', '-o', 'HostName=93.184.215.14', '-o', 'HostKeyAlias=[git.quire-test.invalid]:2222']);
    expect(args.slice(-3)).toEqual(['2222', 'git@git.quire-test.invalid', "git-upload-pack '/acme/docs.git'"]);
  });

  it('connects an scp-like URL to the address it checked', async () => {
    const { run } = lsRemote('git@git.quire-test.invalid:acme/docs.git', [['2606:4700::1111']]);
    await expect(run).rejects.toBeInstanceOf(GitError);
    const args = fs.readFileSync(record, 'utf8').trim().split('\n');
    expect(args).toEqual(expect.arrayContaining(['HostName=2606:4700::1111', 'HostKeyAlias=git.quire-test.invalid', 'git@git.quire-test.invalid']));
  });

  it('refuses a host resolving to a private address without starting ssh', async () => {
    const { run } = lsRemote('git@git.quire-test.invalid:acme/docs.git', [['10.0.0.5']]);
    const err = await run.catch((e: unknown) => e);
    expect(err).toBeInstanceOf(GitRemoteRefusedError);
    expect((err as GitRemoteRefusedError).reason).toBe(
      'git.quire-test.invalid resolves to 10.0.0.5, a private address; loopback, private and link-local hosts are not allowed (QUIRE_ALLOW_PRIVATE_NETWORK=1 allows them)',
    );
    expect(fs.existsSync(record)).toBe(false);
  });

  it('reaches a private address when private networks are allowed, still pinned', async () => {
    const { run } = lsRemote('git@git.quire-test.invalid:acme/docs.git', [['10.0.0.5']], true);
    await expect(run).rejects.toBeInstanceOf(GitError);
    expect(fs.readFileSync(record, 'utf8')).toContain('HostName=10.0.0.5\n');
  });
});

describe('runGit with a remote over https and a git too old to pin it', () => {
  it('refuses to connect to a name unless private networks are allowed', async () => {
    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-old-git-'));
    const realGit = execFileSync('sh', ['-c', 'command -v git'], { encoding: 'utf8' }).trim();
    // a git that says it is 2.36 (before http.curloptResolve) and otherwise is the real one
    fs.writeFileSync(path.join(tmp, 'git'), `#!/bin/sh\nfor last; do :; done\nif [ "$last" = version ]; then echo 'git version 2.36.6'; exit 0; fi\nexec '${realGit}' "$@"\n`, { mode: 0o755 });
    const savedPath = process.env.PATH;
    process.env.PATH = `${tmp}:${savedPath ?? ''}`;
    try {
      const url = 'https://git.quire-test.invalid/acme/docs.git';
      const resolve = scriptedResolver(['93.184.215.14']);
      const err = await runGit(tmp, ['ls-remote', '--', url], { timeoutMs: 30_000, remote: { url, allowPrivateNetwork: false, resolve } }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(GitRemoteRefusedError);
      expect((err as GitRemoteRefusedError).reason).toContain('git version 2.36.6 cannot be held to the address it was checked against');
      // with private networks allowed there is nothing to hold it to: git runs (and fails to connect here)
      const open = await runGit(tmp, ['ls-remote', '--', url], { timeoutMs: 30_000, remote: { url, allowPrivateNetwork: true, resolve: scriptedResolver(['127.0.0.1']) } }).catch((e: unknown) => e);
      expect(open).toBeInstanceOf(GitError);
      expect(open).not.toBeInstanceOf(GitRemoteRefusedError);
    } finally {
      process.env.PATH = savedPath;
      fs.rmSync(tmp, { recursive: true, force: true });
    }
  });
});
