/**
 * The project's git credential over the API (decisions.md section 9: write-only, stored encrypted,
 * never returned): PUT/GET/DELETE, permissions, foreign projects, audit without the secret.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadGitCredential } from '../../src/services/git-credentials';
import { bearer, createKey, createOrgWithKey, createTestApp, type TestApp } from '../helpers/app';

let t: TestApp;
let projectId: string;
let sshKey: string;
const TOKEN = 'ghp_SuperSecretToken1234567890';

beforeAll(async () => {
  t = await createTestApp();
  const res = await t.app.inject({ method: 'POST', url: '/v1/projects', headers: bearer(t.adminKey), payload: { name: 'Docs' } });
  projectId = res.json().data.id;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-key-'));
  execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-C', 'deploy', '-f', path.join(dir, 'k')]);
  sshKey = fs.readFileSync(path.join(dir, 'k'), 'utf8');
  fs.rmSync(dir, { recursive: true, force: true });
});
afterAll(async () => t?.close());

const call = (method: 'GET' | 'PUT' | 'DELETE', payload?: object, key = t.adminKey, id = projectId) =>
  t.app.inject({ method, url: `/v1/projects/${id}/git-credential`, headers: bearer(key), ...(payload ? { payload } : {}) });

describe('git credential routes', () => {
  it('answers set: false before anything is set', async () => {
    const res = await call('GET');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ data: { set: false } });
  });

  it('sets an HTTPS token, answers its status without the token, and the merge can open it', async () => {
    const put = await call('PUT', { kind: 'https_token', token: TOKEN });
    expect(put.statusCode, put.body).toBe(200);
    expect(put.json()).toEqual({ data: { set: true, kind: 'https_token', username: 'x-access-token', updatedAt: expect.any(String) } });
    expect(put.body).not.toContain(TOKEN);
    const get = await call('GET');
    expect(get.json().data).toMatchObject({ set: true, kind: 'https_token', username: 'x-access-token' });
    expect(get.body).not.toContain(TOKEN);
    const stored = await t.ctx.db.prisma.gitCredential.findUnique({ where: { projectId } });
    expect(stored!.secret).toMatch(/^v1\./);
    expect(stored!.secret).not.toContain(TOKEN);
    expect(await loadGitCredential(t.ctx, projectId)).toEqual({ kind: 'https_token', username: 'x-access-token', token: TOKEN });
  });

  it('replaces it with an SSH deploy key (CRLF line endings accepted)', async () => {
    const put = await call('PUT', { kind: 'ssh_key', privateKey: sshKey.replace(/\n/g, '\r\n') });
    expect(put.statusCode, put.body).toBe(200);
    expect(put.json().data).toEqual({ set: true, kind: 'ssh_key', updatedAt: expect.any(String) });
    expect(put.body).not.toContain('PRIVATE KEY');
    expect(await loadGitCredential(t.ctx, projectId)).toEqual({ kind: 'ssh_key', privateKey: sshKey });
  });

  it('refuses bad input with 400 naming the field and keeps what was set', async () => {
    const cases: Array<[object, string]> = [
      [{ kind: 'https_token', token: 'has space' }, 'token'],
      [{ kind: 'https_token', token: '' }, 'token'],
      [{ kind: 'https_token', token: 'abc', username: 'a:b' }, 'username'],
      [{ kind: 'ssh_key', privateKey: 'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI deploy' }, 'privateKey'],
      [{ kind: 'ssh_key', privateKey: 'hello' }, 'privateKey'],
      [{ kind: 'password', password: 'x' }, 'kind'],
      [{ kind: 'https_token', token: 'abc', extra: 1 }, 'extra'],
    ];
    for (const [body, field] of cases) {
      const res = await call('PUT', body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().error.code).toBe('invalid_request');
      expect(res.json().error.details.field, JSON.stringify(body)).toContain(field);
    }
    const publicKey = await call('PUT', { kind: 'ssh_key', privateKey: 'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI deploy' });
    expect(publicKey.json().error.message).toMatch(/public key/);
    expect((await call('GET')).json().data.kind).toBe('ssh_key');
  });

  it('refuses a passphrase-protected OpenSSH key', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-key-'));
    try {
      execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', 'passphrase', '-f', path.join(dir, 'k')]);
      const res = await call('PUT', { kind: 'ssh_key', privateKey: fs.readFileSync(path.join(dir, 'k'), 'utf8') });
      expect(res.statusCode).toBe(400);
      expect(res.json().error.message).toMatch(/passphrase/);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('needs the admin permission: 403 for a projects:write key', async () => {
    const { key } = await createKey(t, ['projects:read', 'projects:write']);
    expect((await call('GET', undefined, key)).statusCode).toBe(403);
    expect((await call('PUT', { kind: 'https_token', token: 'x' }, key)).statusCode).toBe(403);
    expect((await call('DELETE', undefined, key)).statusCode).toBe(403);
    expect((await call('GET')).json().data.kind).toBe('ssh_key');
  });

  it('answers 404 for another organization\'s project and for an unknown project', async () => {
    const other = await createOrgWithKey(t);
    expect((await call('GET', undefined, other.key)).statusCode).toBe(404);
    expect((await call('PUT', { kind: 'https_token', token: 'x' }, other.key)).statusCode).toBe(404);
    expect((await call('DELETE', undefined, other.key)).statusCode).toBe(404);
    expect((await call('GET', undefined, t.adminKey, 'prj_unknown')).statusCode).toBe(404);
    expect((await call('GET')).json().data.kind).toBe('ssh_key');
  });

  it('deletes it (204, then set: false and 404 on a second delete)', async () => {
    expect((await call('DELETE')).statusCode).toBe(204);
    expect((await call('GET')).json()).toEqual({ data: { set: false } });
    expect(await loadGitCredential(t.ctx, projectId)).toBeNull();
    expect((await call('DELETE')).statusCode).toBe(404);
  });

  it('audits updates and deletion without the secret', async () => {
    const audit = await t.app.inject({ url: `/v1/projects/${projectId}/audit-log?limit=100`, headers: bearer(t.adminKey) });
    const entries = audit.json().data as Array<{ action: string; metadata: Record<string, unknown> }>;
    const actions = entries.map((e) => e.action).filter((a) => a.startsWith('git_credential.'));
    expect(actions).toEqual(['git_credential.deleted', 'git_credential.updated', 'git_credential.updated']);
    expect(entries.find((e) => e.action === 'git_credential.updated')!.metadata).toMatchObject({ kind: 'ssh_key', replaced: true });
    expect(audit.body).not.toContain(TOKEN);
    expect(audit.body).not.toContain('PRIVATE KEY');
    const exported = await t.app.inject({ url: `/v1/projects/${projectId}/audit-log/export?format=jsonl`, headers: bearer(t.adminKey) });
    expect(exported.statusCode).toBe(200);
    expect(exported.body).not.toContain(TOKEN);
  });
});
