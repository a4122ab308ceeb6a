import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadWebConfig } from '../src/core/env';
import { ensureRendererBuilt } from '../src/core/web-server';
import { startWebCore, type WebCore } from './helpers/web-core';

/** Web mode's HTTP server: the core router at /trpc on the page's own origin, for this computer only. */
let web: WebCore;
let port: number;
let dataDir: string;
const DESKTOP = path.resolve(import.meta.dirname, '..');

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

/** A POST of `input` as JSON (how the renderer's tRPC link sends queries and mutations). */
function post(pathname: string, input: unknown, headers: Record<string, string> = {}): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const body = JSON.stringify(input);
    const req = http.request(
      { host: '127.0.0.1', port, path: pathname, method: 'POST', headers: { host: `127.0.0.1:${port}`, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), ...headers } },
      (res) => {
        let text = '';
        res.on('data', (c: Buffer) => (text += c.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

beforeAll(async () => {
  web = await startWebCore('web');
  ({ port, dataDir } = web);
});

afterAll(async () => {
  await web?.close();
});

describe('desktop:web server', () => {
  it('serves the core router at /trpc', async () => {
    const res = await request('/trpc/session.status');
    expect(res.status).toBe(200);
    expect(JSON.parse(res.body)).toEqual({ result: { data: { signedIn: false, serverUrl: null, user: null, org: null } } });
  });

  it('lints a long page through a query sent as POST, as the renderer sends it (its text would not fit in a URL)', async () => {
    const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-docs-long-'));
    try {
      fs.writeFileSync(path.join(folder, 'docs.json'), JSON.stringify({ name: 'Long', navigation: { pages: ['index'] } }));
      fs.writeFileSync(path.join(folder, 'index.mdx'), '# Home\n');
      const opened = await post('/trpc/workspace.openFolder', { path: folder });
      expect(opened.status).toBe(200);
      const projectId = (JSON.parse(opened.body) as { result: { data: { projectId: string } } }).result.data.projectId;
      // 40 KB of prose, one paragraph with a doubled word at its end
      const text = `---\ntitle: Long\n---\n\n${'Plain words of a long page. '.repeat(1_500)}The the end.\n`;
      const res = await post('/trpc/lint.run', { projectId, path: 'index.mdx', text }, { 'x-trpc-source': 'test' });
      expect(res.status, res.body).toBe(200);
      const findings = (JSON.parse(res.body) as { result: { data: { ruleId: string; line: number }[] } }).result.data;
      // the doubled word at the very end of the page is found: the whole text arrived
      expect(findings).toContainEqual(expect.objectContaining({ ruleId: 'prose/repeated-words', line: 5 }));
    } finally {
      fs.rmSync(folder, { recursive: true, force: true });
    }
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

  it('answers /favicon.ico with the app\'s icon instead of 404', async () => {
    const res = await fetch(`http://127.0.0.1:${port}/favicon.ico`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/svg+xml');
    expect(await res.text()).toMatch(/^<svg [^>]*xmlns="http:\/\/www\.w3\.org\/2000\/svg"[\s\S]*<title>Quire<\/title>/);
  });

  it('never serves files outside the renderer build', async () => {
    expect((await request('/..%2f..%2fpackage.json')).status).toBe(404);
    expect((await request('/trpc/session.status', {}, 'DELETE')).status).not.toBe(200);
  });

  it('reads its port, host and data directory from the environment, with defaults', () => {
    expect(loadWebConfig({})).toMatchObject({ port: 5199, host: '127.0.0.1', allowRemote: false, dataDir: path.resolve('.quire-desktop') });
    expect(loadWebConfig({ QUIRE_DESKTOP_PORT: '6001', QUIRE_DESKTOP_DATA_DIR: '/tmp/x' })).toMatchObject({ port: 6001, dataDir: '/tmp/x' });
    expect(() => loadWebConfig({ QUIRE_DESKTOP_PORT: 'abc' })).toThrow(/QUIRE_DESKTOP_PORT/);
  });

  it.each(['127.0.0.1', '127.0.0.2', 'localhost', '::1', '[::1]', '::ffff:127.0.0.1'])('listens on the loopback host %s', (host) => {
    expect(loadWebConfig({ QUIRE_DESKTOP_HOST: host })).toMatchObject({ host: host.replace(/^\[(.*)\]$/, '$1'), allowRemote: false });
  });

  it.each(['0.0.0.0', '::', '192.168.1.20', '10.0.0.5', '8.8.8.8', 'fe80::1', 'desktop.example.com', 'localhost.example.com'])(
    'refuses the host %s other computers could reach, unless QUIRE_DESKTOP_ALLOW_REMOTE=1',
    (host) => {
      expect(() => loadWebConfig({ QUIRE_DESKTOP_HOST: host })).toThrow(/is not a loopback address or localhost.*QUIRE_DESKTOP_ALLOW_REMOTE=1/);
      expect(() => loadWebConfig({ QUIRE_DESKTOP_HOST: host, QUIRE_DESKTOP_ALLOW_REMOTE: '0' })).toThrow(/QUIRE_DESKTOP_ALLOW_REMOTE=1/);
      expect(loadWebConfig({ QUIRE_DESKTOP_HOST: host, QUIRE_DESKTOP_ALLOW_REMOTE: '1' })).toMatchObject({ host, allowRemote: true });
    },
  );

  it('refuses a QUIRE_DESKTOP_ALLOW_REMOTE that is not a flag', () => {
    expect(() => loadWebConfig({ QUIRE_DESKTOP_ALLOW_REMOTE: 'yes' })).toThrow(/QUIRE_DESKTOP_ALLOW_REMOTE is invalid/);
  });

  it('does not start on 0.0.0.0 without QUIRE_DESKTOP_ALLOW_REMOTE=1: one line on stderr, exit status 1, nothing created', () => {
    const data = path.join(dataDir, 'refused');
    const run = spawnSync(process.execPath, ['--import', 'tsx', path.join(DESKTOP, 'src/core/web.ts')], {
      cwd: DESKTOP,
      env: { ...process.env, QUIRE_DESKTOP_HOST: '0.0.0.0', QUIRE_DESKTOP_PORT: '0', QUIRE_DESKTOP_DATA_DIR: data },
      encoding: 'utf8',
      timeout: 50_000,
    });
    expect(run.status).toBe(1);
    expect(run.stderr.trim()).toBe(
      'Quire Desktop: QUIRE_DESKTOP_HOST=0.0.0.0 is not a loopback address or localhost, so other computers could use your session ' +
        'through it. Listen on 127.0.0.1 (the default), or set QUIRE_DESKTOP_ALLOW_REMOTE=1 to allow it.',
    );
    expect(run.stdout).not.toContain('Quire Desktop:');
    expect(fs.existsSync(data)).toBe(false);
  }, 60_000);
});

describe('the renderer build on first start', () => {
  it('says that it builds and how long it took, and builds nothing when the build is newer than the sources', async () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-renderer-build-'));
    try {
      const sourceDir = path.join(root, 'src');
      const rendererDir = path.join(root, 'dist');
      fs.mkdirSync(sourceDir);
      fs.writeFileSync(path.join(sourceDir, 'main.tsx'), 'export {};\n');
      const lines: string[] = [];
      let builds = 0;
      const build = async () => {
        builds++;
        fs.mkdirSync(rendererDir, { recursive: true });
        fs.writeFileSync(path.join(rendererDir, 'index.html'), '<!doctype html>');
      };
      expect(await ensureRendererBuilt({ log: (l) => lines.push(l), rendererDir, sourceDir, build })).toBe(true);
      expect(builds).toBe(1);
      expect(lines[0]).toBe('Building the desktop renderer (first start only)...');
      expect(lines[1]).toMatch(/^Desktop renderer built in \d+\.\d s\.$/);
      // a second start finds the build up to date: no build, no message
      expect(await ensureRendererBuilt({ log: (l) => lines.push(l), rendererDir, sourceDir, build })).toBe(false);
      expect(builds).toBe(1);
      expect(lines).toHaveLength(2);
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
    }
  });
});
