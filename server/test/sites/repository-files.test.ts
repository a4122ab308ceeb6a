import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RenderedPage, SiteConfig } from '@quire/shared/docs/types';
import { createCheckoutFiles } from '../../src/builder/checkout-files';
import { writeSite } from '../../src/builder/site-writer';
import { createSiteHarness, siteFiles, type SiteHarness } from './site-fixture';
import { parseCsp } from './csp';

// The attack of the security review: a repository whose static files try to run script on the
// site's origin (an HTML page loading a repository script, a service worker, an SVG with script).
const REPOSITORY: Record<string, string | Buffer> = {
  'docs.json': '{}',
  'index.mdx': '# Welcome',
  'evil.html': '<!doctype html><script src="evil.js"></script><script>navigator.serviceWorker.register("/sw.js")</script>',
  'evil.htm': '<script>alert(1)</script>',
  'evil.xhtml': '<html xmlns="http://www.w3.org/1999/xhtml"><script>alert(1)</script></html>',
  'evil.xml': '<?xml version="1.0"?><x:script xmlns:x="http://www.w3.org/1999/xhtml">alert(1)</x:script>',
  'evil.js': 'fetch("/_quire/token", { method: "POST" })',
  'evil.mjs': 'export default 1',
  'evil.cjs': 'module.exports = 1',
  'sw.js': 'self.addEventListener("fetch", (e) => e.respondWith(new Response("owned")))',
  'evil.wasm': Buffer.from([0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00]),
  'icon.svg': '<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"><script>alert(2)</script><circle r="4"/></svg>',
  'images/logo.png': Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3]),
  'guide.pdf': '%PDF-1.4\n%%EOF\n',
  'data.json': '{"a":1}',
};

const site: SiteConfig = {
  source: 'docs.json',
  name: 'Evil Docs',
  colors: { primary: '#0a7f5a' },
  navbar: { links: [] },
  footer: { socials: [], links: [] },
  redirects: [],
  variables: {},
  navigation: [{ type: 'page', path: 'index', title: 'Welcome' }],
  openapi: [],
  raw: {},
};

const page: RenderedPage = {
  html: '<p>Our icon: <img src="/icon.svg" alt="icon"></p>',
  toc: [],
  frontmatter: {},
  title: 'Welcome',
  markdown: '# Welcome\n',
  text: 'Our icon',
  links: [],
  assets: [],
  dependencies: [],
  warnings: [],
};

let h: SiteHarness;
let tmp: string;
let themeScript: string;
const HOST = 'evil-docs.localhost:4000';
const get = (url: string, headers: Record<string, string> = {}, host = HOST) =>
  h.app.inject({ method: 'GET', url, headers: { host, ...headers } });

/** Every file under `dir`, by `/`-separated relative path. */
function readTree(dir: string, prefix = ''): Record<string, Buffer> {
  const out: Record<string, Buffer> = {};
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const rel = prefix ? `${prefix}/${e.name}` : e.name;
    if (e.isDirectory()) Object.assign(out, readTree(path.join(dir, e.name), rel));
    else out[rel] = fs.readFileSync(path.join(dir, e.name));
  }
  return out;
}

beforeAll(async () => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-repo-files-'));
  const repo = path.join(tmp, 'repo');
  for (const [rel, content] of Object.entries(REPOSITORY)) {
    fs.mkdirSync(path.dirname(path.join(repo, rel)), { recursive: true });
    fs.writeFileSync(path.join(repo, rel), content);
  }
  const out = path.join(tmp, 'out');
  const written = writeSite({
    outDir: out,
    buildId: 'bld_1',
    projectId: 'prj_1',
    site,
    nav: site.navigation,
    pages: [{ path: 'index', filePath: 'index.mdx', page, hidden: false }],
    home: 'index',
    files: createCheckoutFiles(repo),
    siteUrl: `http://${HOST}`,
  });
  themeScript = written.manifest.assets.find((a) => a.endsWith('.js'))!;
  h = await createSiteHarness();
  h.deploy(h.addProject('evil'), readTree(out));
  // A deployment written before the manifest listed generated files.
  const legacy = siteFiles('LEGACY', { 'evil.html': '<script src="evil.js"></script>', 'evil.js': 'alert(1)' });
  const manifest = JSON.parse(legacy['manifest.json']) as { generated?: string[] };
  delete manifest.generated;
  h.deploy(h.addProject('legacy'), { ...legacy, 'manifest.json': JSON.stringify(manifest) });
});
afterAll(async () => {
  await h.close();
  fs.rmSync(tmp, { recursive: true, force: true });
});

describe('repository files cannot run script on the site', () => {
  it.each(['/evil.html', '/evil', '/evil.htm', '/evil.xhtml', '/evil.xml', '/evil.js', '/evil.mjs', '/evil.cjs', '/sw.js'])(
    'serves %s as plain text, never as a document or a script',
    async (url) => {
      const res = await get(url);
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe('text/plain; charset=utf-8');
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      const csp = parseCsp(res.headers['content-security-policy'] as string);
      expect(csp.get('sandbox')).toEqual([]);
      expect(csp.get('default-src')).toEqual(["'none'"]);
    },
  );

  it('serves a repository WebAssembly file only as a download', async () => {
    const res = await get('/evil.wasm');
    expect(res.headers['content-type']).toBe('application/octet-stream');
    expect(res.headers['content-disposition']).toBe('attachment');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
  });

  it('serves SVG as an image that cannot run script when opened directly', async () => {
    const res = await get('/icon.svg');
    expect(res.headers['content-type']).toMatch(/^image\/svg\+xml(;|$)/);
    expect(res.headers['content-disposition']).toBeUndefined();
    const csp = parseCsp(res.headers['content-security-policy'] as string);
    expect(csp.get('default-src')).toEqual(["'none'"]);
    expect(csp.get('sandbox')).toEqual([]);
    expect(csp.has('script-src')).toBe(false);
  });

  it('still gives a page its <img> SVG as image/svg+xml', async () => {
    const html = (await get('/')).body;
    const src = /<img src="([^"]+\.svg)"/.exec(html)?.[1];
    expect(src).toBe('/icon.svg');
    const img = await get(src!, { accept: 'image/avif,image/webp,image/svg+xml,image/*,*/*;q=0.8', 'sec-fetch-dest': 'image' });
    expect(img.statusCode).toBe(200);
    expect(img.headers['content-type']).toMatch(/^image\/svg\+xml/);
    expect(img.body).toContain('<circle r="4"/>');
  });

  it('keeps passive repository files as they were', async () => {
    const passive: [string, string][] = [['/images/logo.png', 'image/png'], ['/guide.pdf', 'application/pdf'], ['/data.json', 'application/json; charset=utf-8']];
    for (const [url, type] of passive) {
      const res = await get(url);
      expect(res.headers['content-type']).toBe(type);
      expect(res.headers['content-disposition']).toBeUndefined();
    }
  });

  it('refuses every request for a service worker script, and never allows a wider scope', async () => {
    for (const url of ['/sw.js', '/evil.js', `/${themeScript}`, '/']) {
      const res = await get(url, { 'service-worker': 'script' });
      expect(res.statusCode).toBe(404);
      expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(res.body).not.toContain('respondWith');
    }
    for (const url of ['/sw.js', '/evil.js', `/${themeScript}`, '/', '/icon.svg', '/missing']) {
      expect((await get(url)).headers['service-worker-allowed']).toBeUndefined();
    }
  });

  it('treats repository files of a deployment without a list of generated files as repository files', async () => {
    for (const url of ['/evil.html', '/evil.js']) {
      expect((await get(url, {}, 'legacy-docs.localhost')).headers['content-type']).toBe('text/plain; charset=utf-8');
    }
    const page = await get('/introduction', {}, 'legacy-docs.localhost');
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(page.body).toContain('LEGACY');
    const css = await get('/_quire/assets/site.0123abcd.css', {}, 'legacy-docs.localhost');
    expect(css.headers['content-type']).toBe('text/css; charset=utf-8');
    expect(css.headers['cache-control']).toBe('public, max-age=31536000, immutable');
  });
});

describe("the site's own files keep their headers", () => {
  it('serves generated pages as HTML under the site CSP', async () => {
    for (const url of ['/', '/index', '/missing']) {
      const res = await get(url);
      expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(res.headers['cache-control']).toBe('public, max-age=0, must-revalidate');
      expect(res.headers['content-disposition']).toBeUndefined();
      expect(parseCsp(res.headers['content-security-policy'] as string).get('script-src')).toEqual(["'self'"]);
    }
    expect((await get('/index.md')).headers['content-type']).toBe('text/markdown; charset=utf-8');
    expect((await get('/llms.txt')).headers['content-type']).toBe('text/plain; charset=utf-8');
    expect((await get('/sitemap.xml')).headers['content-type']).toBe('application/xml; charset=utf-8');
  });

  it('serves the theme scripts under _quire/ as JavaScript, cached for a year', async () => {
    const html = (await get('/')).body;
    for (const src of html.match(/<script[^>]*src="[^"]+"/g)!.map((s) => /src="([^"]+)"/.exec(s)![1]!)) {
      expect(src).toMatch(/^\/_quire\/assets\//);
      const res = await get(src);
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe('text/javascript; charset=utf-8');
      expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    }
  });
});
