/**
 * How a merge hands the project's git credential to git (decisions.md section 9): an HTTPS token as
 * an extra header through GIT_CONFIG_* (never in the URL), an SSH key as a 0600 file removed after;
 * no error message ever carries the secret.
 */
import fs from 'node:fs';
import { execFileSync } from 'node:child_process';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { AppContext } from '../../src/context';
import { loadConfig } from '../../src/env';
import { mergeChangeSet } from '../../src/git/merge-change-set';
import { withPushCredential } from '../../src/git/push-credential';
import { KeyedLock } from '../../src/ops/keyed-lock';

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-cred-'));
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

describe('push credentials', () => {
  it('passes an HTTPS token as an Authorization header in GIT_CONFIG_* variables, refusing redirects', async () => {
    const env = await withPushCredential({ kind: 'https_token', username: 'bot', token: 'tok3n' }, root, async (e) => e);
    const count = Number(env.GIT_CONFIG_COUNT);
    const entries = Object.fromEntries(Array.from({ length: count }, (_, i) => [env[`GIT_CONFIG_KEY_${i}`], env[`GIT_CONFIG_VALUE_${i}`]]).filter(([k]) => k));
    expect(entries['http.extraheader']).toBe(`Authorization: Basic ${Buffer.from('bot:tok3n').toString('base64')}`);
    expect(entries['http.followRedirects']).toBe('false');
  });

  it('writes an SSH key to a 0600 file used with IdentitiesOnly and accept-new, removed afterwards', async () => {
    let keyFile = '';
    await withPushCredential({ kind: 'ssh_key', privateKey: '-----BEGIN OPENSSH PRIVATE KEY-----\nAAAA\n-----END OPENSSH PRIVATE KEY-----\n' }, root, async (env) => {
      expect(env.GIT_SSH_COMMAND).toContain('IdentitiesOnly=yes');
      expect(env.GIT_SSH_COMMAND).toContain('StrictHostKeyChecking=accept-new');
      keyFile = /-i '([^']+)'/.exec(env.GIT_SSH_COMMAND!)![1]!;
      expect(fs.statSync(keyFile).mode & 0o777).toBe(0o600);
      expect(fs.readFileSync(keyFile, 'utf8')).toContain('OPENSSH PRIVATE KEY');
    });
    expect(keyFile).not.toBe('');
    expect(fs.existsSync(keyFile)).toBe(false);
    expect(fs.existsSync(path.dirname(keyFile))).toBe(false);
  });

  it('sends the token to the repository host as HTTP Basic, not in the URL', async () => {
    // a local HTTPS "git host" with a throwaway self-signed certificate (git told not to verify it)
    execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-subj', '/CN=127.0.0.1', '-days', '1', '-keyout', path.join(root, 'tls.key'), '-out', path.join(root, 'tls.crt')], { stdio: 'ignore' });
    const seen: Array<{ url: string; authorization: string | undefined }> = [];
    const server = https.createServer({ key: fs.readFileSync(path.join(root, 'tls.key')), cert: fs.readFileSync(path.join(root, 'tls.crt')) }, (req, res) => {
      seen.push({ url: req.url ?? '', authorization: req.headers.authorization });
      res.writeHead(403).end('no');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    process.env.GIT_SSL_NO_VERIFY = '1';
    try {
      const port = (server.address() as AddressInfo).port;
      const ctx = { config: loadConfig({ QUIRE_DATA_DIR: path.join(root, 'data'), QUIRE_ALLOW_PRIVATE_NETWORK: '1', QUIRE_LOG_LEVEL: 'silent' }), locks: new KeyedLock() } as AppContext;
      const err = await mergeChangeSet({
        ctx,
        projectId: 'prj_http',
        repoUrl: `https://127.0.0.1:${port}/acme/docs.git`,
        branch: 'main',
        baseCommit: 'a'.repeat(40),
        changes: [{ path: 'a.md', content: 'a' }],
        author: { name: 'A', email: 'a@example.com' },
        message: 'x',
        credential: { kind: 'https_token', username: 'bot', token: 'tok3n' },
      }).catch((e: unknown) => e);
      expect(err).toMatchObject({ code: 'service_unavailable' });
      expect((err as Error).message).not.toContain('tok3n');
      expect(seen.length).toBeGreaterThan(0);
      expect(seen[0]!.authorization).toBe(`Basic ${Buffer.from('bot:tok3n').toString('base64')}`);
      expect(seen.every((s) => !s.url.includes('tok3n'))).toBe(true);
    } finally {
      delete process.env.GIT_SSL_NO_VERIFY;
      server.close();
    }
  });

  it('never shows the token in the error of a failed merge', async () => {
    const ctx = { config: loadConfig({ QUIRE_DATA_DIR: path.join(root, 'data'), QUIRE_LOG_LEVEL: 'silent' }), locks: new KeyedLock() } as AppContext;
    const err = await mergeChangeSet({
      ctx,
      projectId: 'prj_x',
      repoUrl: 'https://quire-test.invalid/acme/docs.git',
      branch: 'main',
      baseCommit: 'a'.repeat(40),
      changes: [{ path: 'a.md', content: 'a' }],
      author: { name: 'A', email: 'a@example.com' },
      message: 'x',
      credential: { kind: 'https_token', username: 'bot', token: 'tok3n-very-secret' },
    }).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'service_unavailable' });
    expect(JSON.stringify(err) + String((err as Error).message)).not.toMatch(/tok3n|Ym90/);
    expect(fs.readdirSync(path.join(root, 'data', 'git-merge'))).toEqual([]);
  });
});
