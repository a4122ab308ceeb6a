import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCore, type DesktopCore } from '../src/core/compose';
import { createCoreCaller } from '../src/core/router';
import { fileTokenVault } from '../src/core/token-vault';
import { createWebServer } from '../src/core/web-server';

/** The preview shows a page's images, logo and math as the site does: the core serves the workspace's published files and KaTeX's assets. */
let dataDir: string;
let folder: string;
let core: DesktopCore;
let server: http.Server;
let port: number;
let projectId: string;
let html: string;

const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d, 0x49, 0x48, 0x44, 0x52]);
const SVG = '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect width="10" height="10"/></svg>\n';

/** A raw GET (fetch would normalize `..` out of the path). */
function get(pathname: string): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, path: pathname, headers: { host: `127.0.0.1:${port}` } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
    req.end();
  });
}

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-desktop-preview-files-'));
  folder = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-docs-preview-files-'));
  const write = (rel: string, content: string | Buffer) => {
    fs.mkdirSync(path.dirname(path.join(folder, rel)), { recursive: true });
    fs.writeFileSync(path.join(folder, rel), content);
  };
  write('docs/docs.json', JSON.stringify({ name: 'Pictures', logo: '/images/logo.svg', navigation: { groups: [{ group: 'Start', pages: ['index'] }] } }));
  write('docs/index.mdx', '---\ntitle: Home\n---\n\n![Flow](/images/flow.png)\n\nThe area is $A = \\pi r^2$.\n');
  write('docs/images/flow.png', PNG);
  write('docs/images/logo.svg', SVG);
  write('docs/.env', 'SECRET=1\n');
  write('secret.txt', 'outside the docs folder\n');
  fs.symlinkSync('/etc/hostname', path.join(folder, 'docs', 'images', 'linked.png'));
  core = createCore({ dataDir, vault: fileTokenVault(dataDir) });
  const c = createCoreCaller(core);
  projectId = (await c.workspace.openFolder({ path: folder })).projectId;
  const r = await c.preview.render({ projectId, path: 'docs/index.mdx', text: fs.readFileSync(path.join(folder, 'docs/index.mdx'), 'utf8'), theme: 'light' });
  if (!r.ok) throw new Error(r.message);
  html = r.html;
  server = createWebServer(core);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  port = (server.address() as AddressInfo).port;
});

afterAll(async () => {
  await new Promise((r) => server?.close(r));
  await core?.close();
  for (const d of [dataDir, folder]) if (d) fs.rmSync(d, { recursive: true, force: true });
});

/** The URL of the first `<img>` whose src ends with `name`. */
function imageUrl(name: string): string {
  const src = [...html.matchAll(/<img[^>]*\ssrc="([^"]+)"/g)].map((m) => m[1]!).find((s) => s.endsWith(name));
  if (!src) throw new Error(`no image ${name} in the preview`);
  return src.replace(/&amp;/g, '&');
}

describe('the preview\'s files', () => {
  it('serves an image the page references with its bytes and type, binary files of a local folder from disk', async () => {
    const src = imageUrl('/images/flow.png');
    expect(src).toBe(`/_quire-preview/${encodeURIComponent(projectId)}/images/flow.png`);
    const res = await get(src);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('image/png');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.body.equals(PNG)).toBe(true);
  });

  it('serves the logo of docs.json as an inert SVG', async () => {
    const res = await get(imageUrl('/images/logo.svg'));
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('image/svg+xml');
    expect(res.headers['content-security-policy']).toContain('sandbox');
    expect(res.body.toString('utf8')).toBe(SVG);
  });

  it('links KaTeX\'s stylesheet, served with its fonts from the installed package', async () => {
    expect(html).toContain('<link rel="stylesheet" href="/_quire-preview/_assets/katex.css">');
    const css = await get('/_quire-preview/_assets/katex.css');
    expect(css.status).toBe(200);
    expect(css.headers['content-type']).toBe('text/css; charset=utf-8');
    const font = /url\((fonts\/KaTeX_Main-Regular\.woff2)\)/.exec(css.body.toString('utf8'))?.[1];
    expect(font).toBeDefined();
    const res = await get(`/_quire-preview/_assets/${font}`);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('font/woff2');
    expect(res.body.length).toBeGreaterThan(1000);
  });

  it('loads the site\'s scripts and the frame\'s own from the core, served as JavaScript', async () => {
    expect(html).toContain('<script defer src="/_quire-preview/_assets/site.js"></script><script defer src="/_quire-preview/_assets/frame.js"></script>');
    expect(html).not.toContain('quire-preview:');
    for (const name of ['site.js', 'frame.js', 'mermaid.js']) {
      const res = await get(`/_quire-preview/_assets/${name}`);
      expect(res.status, name).toBe(200);
      expect(res.headers['content-type']).toBe('text/javascript; charset=utf-8');
    }
    expect((await get('/_quire-preview/_assets/frame.js')).body.toString('utf8')).toContain('quire-preview-scroll');
  });

  it('refuses paths that leave the workspace, pages, hidden files and links out of the folder', async () => {
    const base = `/_quire-preview/${encodeURIComponent(projectId)}`;
    for (const p of [
      `${base}/../secret.txt`,
      `${base}/images/../../secret.txt`,
      `${base}/%2e%2e/secret.txt`,
      `${base}/images%2f..%2f..%2fsecret.txt`,
      `${base}/..%5csecret.txt`,
      `${base}//etc/hostname`,
      `${base}/index.mdx`,
      `${base}/docs.json`,
      `${base}/.env`,
      `${base}/images/linked.png`,
      '/_quire-preview/local%3A0000000000000000/images/flow.png',
      '/_quire-preview/_assets/../../../package.json',
    ]) {
      const res = await get(p);
      expect(res.status, p).toBe(404);
      expect(res.body.toString('utf8')).not.toContain('outside the docs folder');
    }
  });
});
