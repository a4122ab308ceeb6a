import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PreviewInfo } from '@quire/shared/site/preview-banner';
import { createTestApp, type TestApp } from '../helpers/app';
import { bannerOf, createBareProject, deployByHand, deploymentFiles, linksOf, previewJson, textOf, type HandPage } from './preview-banner-fixture';

/**
 * The preview banner as a reader meets it: deployments written by hand (manifest, pages,
 * `_quire/preview.json`) served through the app by Host.
 */

let t: TestApp;
const PROD = 'acme-docs.localhost:4000';
const PR = 'pr-12--acme-docs.localhost:4000';
const HOSTILE = 'evil--acme-docs.localhost:4000';
const BARE = 'old-branch--acme-docs.localhost:4000';
const MANY = 'many--acme-docs.localhost:4000';

const get = (url: string, host: string, headers: Record<string, string> = {}) => t.app.inject({ url, headers: { host, ...headers } });

const production: HandPage[] = [
  { path: 'index', title: 'Welcome', markdown: '# Welcome\n' },
  { path: 'guides/setup', title: 'Setup', markdown: '# Setup\n\nInstall it.\n' },
  { path: 'old-page', title: 'Old page', markdown: '# Old\n' },
];
const preview: HandPage[] = [
  { path: 'index', title: 'Welcome', markdown: '# Welcome\n' },
  { path: 'guides/setup', title: 'Setup', markdown: '# Setup\n\nInstall it with pnpm.\n' },
  { path: 'guides/login', title: 'Log in', markdown: '# Log in\n' },
];
const prInfo: PreviewInfo = {
  kind: 'pull_request',
  label: '#12 Add login docs',
  branch: 'feature/login',
  pullRequest: 12,
  productionUrl: 'http://acme-docs.localhost:4000/',
  changes: {
    added: [{ path: 'guides/login', title: 'Log in' }],
    changed: [{ path: 'guides/setup', title: 'Setup' }],
    removed: [{ path: 'old-page', title: 'Old page' }],
  },
};

beforeAll(async () => {
  t = await createTestApp();
  const projectId = await createBareProject(t, 'acme');
  await deployByHand(t, projectId, deploymentFiles(production));
  await deployByHand(t, projectId, deploymentFiles(preview, previewJson(prInfo)), 'pr-12');
  const evilTitle = '<img src=x onerror=alert(1)>"quoted"';
  await deployByHand(
    t,
    projectId,
    deploymentFiles([{ path: 'index', title: 'Home', markdown: '# Home\n' }, { path: 'evil/"onmouseover=x', title: evilTitle, markdown: 'x' }], previewJson({
      kind: 'branch',
      label: '"><script>alert(1)</script>',
      branch: '"><script>alert(1)</script>',
      productionUrl: 'javascript:alert(1)//',
      changes: { added: [{ path: 'evil/"onmouseover=x', title: evilTitle }], changed: [], removed: [{ path: 'gone', title: '</aside><script>alert(2)</script>' }] },
    })),
    'evil',
  );
  await deployByHand(t, projectId, deploymentFiles(preview), 'old-branch');
  const many = Array.from({ length: 80 }, (_, i) => ({ path: `p${i}`, title: `Page ${i}` }));
  await deployByHand(t, projectId, deploymentFiles(preview, previewJson({ ...prInfo, kind: 'branch', label: 'big-change', changes: { added: many, changed: [], removed: [] } })), 'many');
});
afterAll(async () => t?.close());

describe('preview banner', () => {
  it('shows the banner on preview pages: what is previewed, the changed pages as links, and production', async () => {
    const res = await get('/guides/setup', PR);
    expect(res.statusCode).toBe(200);
    const banner = bannerOf(res.body);
    expect(banner).toBeDefined();
    expect(textOf(banner!)).toContain('Preview of pull request #12: Add login docs');
    expect(textOf(banner!)).toContain('Changed pages (3)');
    expect(banner).toMatch(/<details class="q-preview-changes"><summary>/);
    const links = linksOf(banner!);
    expect(links).toContainEqual({ href: '/guides/login', text: 'Log in', current: false });
    // the page being read is marked in the list
    expect(links).toContainEqual({ href: '/guides/setup', text: 'Setup', current: true });
    expect(links).toContainEqual({ href: 'http://acme-docs.localhost:4000/old-page', text: 'Old page (on production)', current: false });
    // "View production" opens this page on production
    expect(links).toContainEqual({ href: 'http://acme-docs.localhost:4000/guides/setup', text: 'View production', current: false });
    expect(textOf(banner!)).toMatch(/Added 1.*Changed 1.*Removed 1/);
  });

  it('puts the banner right after <body> and the skip link, keeping the page around it byte for byte', async () => {
    const res = await get('/guides/login', PR);
    const body = res.body;
    expect(body).toMatch(/<body class="q-body"><a class="q-skip" href="#content">Skip to content<\/a><aside class="q-preview"/);
    expect(body.replace(bannerOf(body)!, '')).toBe(deploymentFiles(preview)['guides/login.html']);
    expect(Number(res.headers['content-length'])).toBe(Buffer.byteLength(body));
    // a page the preview added: "View production" goes to production's home
    expect(linksOf(bannerOf(body)!)).toContainEqual({ href: 'http://acme-docs.localhost:4000/', text: 'View production', current: false });
  });

  it('serves the banner in compressed answers too, and on the home and not-found pages', async () => {
    const br = await get('/guides/setup', PR, { 'accept-encoding': 'br' });
    expect(br.headers['content-encoding']).toBe('br');
    expect(bannerOf(zlib.brotliDecompressSync(br.rawPayload).toString('utf8'))).toBeDefined();
    const gz = await get('/guides/setup', PR, { 'accept-encoding': 'gzip' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(bannerOf(zlib.gunzipSync(gz.rawPayload).toString('utf8'))).toBeDefined();
    expect(bannerOf((await get('/', PR)).body)).toBeDefined();
    const missing = await get('/no-such-page', PR);
    expect(missing.statusCode).toBe(404);
    expect(bannerOf(missing.body)).toBeDefined();
  });

  it('leaves production pages and the Markdown of preview pages untouched', async () => {
    for (const url of ['/', '/guides/setup', '/old-page', '/nope']) {
      const res = await get(url, PROD);
      expect(res.body).toContain('<h1>');
      expect(res.body).not.toContain('q-preview');
      expect(bannerOf(res.body)).toBeUndefined();
    }
    expect((await get('/guides/setup', PROD)).body).toBe(deploymentFiles(production)['guides/setup.html']);
    const md = await get('/guides/setup.md', PR);
    expect(md.body).toBe('# Setup\n\nInstall it with pnpm.\n');
  });

  it('keeps the site CSP: the banner adds no script and no inline style', async () => {
    const prev = await get('/guides/setup', PR);
    const prod = await get('/guides/setup', PROD);
    expect(prev.headers['content-security-policy']).toBe(prod.headers['content-security-policy']);
    expect(prev.headers['content-security-policy']).toMatch(/script-src 'self';/);
    const banner = bannerOf(prev.body)!;
    expect(banner).not.toMatch(/<script|\sstyle=|\son[a-z]+=/i);
  });

  it('escapes branch names, titles and paths, and refuses a production URL that is not http(s)', async () => {
    const res = await get('/', HOSTILE);
    const banner = bannerOf(res.body)!;
    expect(banner).toBeDefined();
    expect(res.body).not.toContain('<script>alert');
    expect(res.body).not.toContain('<img src=x');
    expect(banner).not.toContain('javascript:');
    expect(banner).not.toMatch(/"onmouseover/);
    expect(textOf(banner)).toContain('Preview of branch "><script>alert(1)</script>');
    expect(banner).toContain('&lt;img src=x onerror=alert(1)&gt;&quot;quoted&quot;');
    const links = linksOf(banner);
    expect(links).toContainEqual({ href: '/evil/%22onmouseover%3Dx', text: '<img src=x onerror=alert(1)>"quoted"', current: false });
    // a removed page cannot link anywhere without a usable production URL: listed as text
    expect(textOf(banner)).toContain('</aside><script>alert(2)</script>');
    expect(links.some((l) => l.text.includes('View production'))).toBe(false);
    // the hostile closing tag did not end the banner early: the page's own markup follows it intact
    expect(res.body.split('<aside').length).toBe(2);
    expect(res.body).toContain('</aside><header class="q-header">');
  });

  it('lists at most 50 pages and says how many more there are', async () => {
    const banner = bannerOf((await get('/', MANY)).body)!;
    expect(textOf(banner)).toContain('Changed pages (80)');
    expect(linksOf(banner).filter((l) => /^\/p\d+$/.test(l.href))).toHaveLength(50);
    expect(textOf(banner)).toContain('and 30 more');
  });

  it('still marks a preview built before preview data existed, naming its channel', async () => {
    const banner = bannerOf((await get('/guides/setup', BARE)).body);
    expect(banner).toBeDefined();
    expect(textOf(banner!)).toContain('This is a preview (old-branch), not the production site');
    expect(banner).not.toContain('<details');
  });
});
