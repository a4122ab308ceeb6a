import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCore, type Core } from '../src/core/core';
import { loadWebConfig } from '../src/core/env';
import { fileTokenVault } from '../src/core/token-vault';
import { createWebServer } from '../src/core/web-server';

/** Web mode's HTTP server: the core router at /trpc on the page's own origin, for this computer only. */
let core: Core;
let server: http.Server;
let port: number;
let dataDir: string;

/** A raw request (fetch cannot set Host). */
function request(pathname: string, headers: Record<string, string> = {}, method = 'GET'): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, path: pathname, method, headers: { host: `127.0.0.1:${port}`, ...headers } }, (res) => {
      let body = '';
      res.on('data', (c: Buffer) => (body += c.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-desktop-web-'));
  core = createCore({ dataDir, vault: fileTokenVault(dataDir) });
  server = createWebServer(core);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  port = (server.address() as AddressInfo).port;
});

afterAll(async () => {
  await new Promise((r) => server.close(r));
  await core.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe('desktop:web server', () => {
  it('serves the core router at /trpc', async () => {
    const res = await request('/trpc/session.status');
    expect(res.status).toBe(200);
    expect(JSON.parse(res.body)).toEqual({ result: { data: { signedIn: false, serverUrl: null, user: null, org: null } } });
  });

  it('refuses another site\'s page calling the core, and a Host that is not this computer', async () => {
    expect((await request('/trpc/session.status', { origin: 'http://evil.example' })).status).toBe(403);
    expect((await request('/trpc/session.status', { host: 'evil.example' })).status).toBe(403);
    expect((await request('/trpc/session.status', { origin: `http://127.0.0.1:${port}` })).status).toBe(200);
  });

  it('validates inputs and asks for a session before project calls', async () => {
    const bad = await request(`/trpc/workspace.tree?input=${encodeURIComponent(JSON.stringify({ projectId: '' }))}`);
    expect(bad.status).toBe(400);
    const unauth = await request('/trpc/projects.list');
    expect(unauth.status).toBe(401);
    expect(unauth.body).toContain('Sign in to a Quire server first.');
  });

  it('never serves files outside the renderer build', async () => {
    expect((await request('/..%2f..%2fpackage.json')).status).toBe(404);
    expect((await request('/trpc/session.status', {}, 'DELETE')).status).not.toBe(200);
  });

  it('reads its port and data directory from the environment, with defaults', () => {
    expect(loadWebConfig({})).toMatchObject({ port: 5199, host: '127.0.0.1', dataDir: path.resolve('.quire-desktop') });
    expect(loadWebConfig({ QUIRE_DESKTOP_PORT: '6001', QUIRE_DESKTOP_DATA_DIR: '/tmp/x' })).toMatchObject({ port: 6001, dataDir: '/tmp/x' });
    expect(() => loadWebConfig({ QUIRE_DESKTOP_PORT: 'abc' })).toThrow(/QUIRE_DESKTOP_PORT/);
  });
});
