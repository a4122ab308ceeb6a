import net from 'node:net';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseCsp } from './csp';
import { createSiteHarness, siteFiles, type SiteHarness } from './site-fixture';

let h: SiteHarness;
let acme: string;
let other: string;
const HOST = 'acme-docs.localhost:4000';

const get = (url: string, headers: Record<string, string> = {}, host = HOST) =>
  h.app.inject({ method: 'GET', url, headers: { host, ...headers } });

beforeAll(async () => {
  h = await createSiteHarness();
  // its preview is read here for routing by Host, not for the preview gate: open to every reader
  acme = h.addProject('acme', 'docs.acme.test', { protectPreviews: false });
  other = h.addProject('other');
  h.deploy(acme, siteFiles('ACME-CONTENT', {
    'leak.html': { symlink: '/etc/passwd' },
    'etc-dir': { symlink: '/etc' },
    'inner-link.html': { symlink: 'introduction.html' },
  }));
  h.deploy(other, siteFiles('OTHER-CONTENT'));
  h.deploy(acme, siteFiles('ACME-PREVIEW'), 'feature-x');
  await h.app.listen({ port: PORT, host: '127.0.0.1' });
});
afterAll(async () => h.close());

describe('routing by Host', () => {
  it('serves the home page at / with security headers', async () => {
    const res = await get('/');
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('<h1>Introduction</h1>');
    expect(res.body).toContain('ACME-CONTENT');
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['referrer-policy']).toBeTruthy();
    expect(res.headers['cache-control']).toBe('public, max-age=0, must-revalidate');
  });

  it('serves each project only its own deployment, on any port and in any case', async () => {
    expect((await get('/introduction', {}, 'other-docs.localhost')).body).toContain('OTHER-CONTENT');
    expect((await get('/introduction', {}, 'OTHER-docs.localhost:8080')).body).not.toContain('ACME');
    expect((await get('/introduction', {}, 'docs.acme.test')).body).toContain('ACME-CONTENT');
  });

  it('serves a preview deployment on its branch host', async () => {
    const res = await get('/guides/setup', {}, 'feature-x--acme-docs.localhost:4000');
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('ACME-PREVIEW');
    expect((await get('/guides/setup')).body).toContain('ACME-CONTENT');
  });

  it('answers unknown site hosts with a plain 404 that shows no project', async () => {
    for (const host of ['nobody-docs.localhost:4000', 'ghost--acme-docs.localhost', 'a--b--acme-docs.localhost']) {
      const res = await get('/introduction', {}, host);
      expect(res.statusCode).toBe(404);
      expect(res.body).toContain('404');
      expect(res.body).not.toMatch(/ACME|OTHER/);
    }
  });

  it('leaves other hosts to the API, even when a project claims one as its custom domain', async () => {
    h.addProject('hijack', '127.0.0.1');
    h.events.emit('project.changed', { projectId: 'x' });
    for (const host of ['127.0.0.1:4000', 'localhost:4000', 'example.org']) {
      const res = await get('/v1/projects', {}, host);
      expect(res.json()).toEqual({ api: true });
    }
  });

  it('refuses other methods with 405', async () => {
    const res = await h.app.inject({ method: 'POST', url: '/introduction', headers: { host: HOST }, payload: {} });
    expect(res.statusCode).toBe(405);
    expect(res.headers.allow).toBe('GET, HEAD');
  });
});

describe('Content-Security-Policy of site pages', () => {
  /** Source expressions that would let script from elsewhere, inline or eval run (CSP3 section 2.3.1). */
  const UNSAFE_SCRIPT_SOURCE = /^(?:'unsafe-inline'|'unsafe-eval'|'unsafe-hashes'|'wasm-unsafe-eval'|\*|https?:|data:|blob:|filesystem:|\*\..*)$/i;

  it.each(['/', '/guides/setup', '/missing'])('lets only same-origin scripts run on %s, and no plugins, base or framing', async (url) => {
    const csp = parseCsp((await get(url)).headers['content-security-policy'] as string);
    // script-src, or default-src when script-src is absent (CSP3 "effective directive")
    const scripts = csp.get('script-src') ?? csp.get('default-src');
    expect(scripts).toBeDefined();
    expect(scripts!.length).toBeGreaterThan(0);
    for (const source of scripts!) expect(source).not.toMatch(UNSAFE_SCRIPT_SOURCE);
    expect(csp.get('script-src-elem') ?? []).toEqual([]);
    expect(csp.get('script-src-attr') ?? []).toEqual([]);
    expect(csp.get('object-src')).toEqual(["'none'"]);
    expect(csp.get('base-uri')).toEqual(["'none'"]);
    expect(csp.get('worker-src')).toEqual(["'none'"]);
    const ancestors = csp.get('frame-ancestors');
    expect(ancestors).toBeDefined();
    expect(ancestors!.every((s) => s === "'self'" || s === "'none'")).toBe(true);
  });

  it('never serves a deployment file outside _quire/assets/ with a JavaScript type', async () => {
    const p = h.addProject('scripted');
    h.deploy(p, siteFiles('SCRIPTED', { 'evil.js': 'alert(1)', 'lib/evil.mjs': 'export {}', 'sw.js': 'self.onfetch = () => {}' }));
    for (const url of ['/evil.js', '/lib/evil.mjs', '/sw.js']) {
      const res = await get(url, {}, 'scripted-docs.localhost');
      expect(res.statusCode).toBe(200);
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['content-type']).not.toMatch(/javascript|ecmascript/i);
    }
  });
});

describe('paths', () => {
  it('maps page paths, index pages, trailing slashes and exact files', async () => {
    expect((await get('/guides/setup')).body).toContain('<h1>Setup</h1>');
    expect((await get('/guides/setup/')).body).toContain('<h1>Setup</h1>');
    expect((await get('/guides')).body).toContain('<h1>Guides</h1>');
    const md = await get('/guides/setup.md');
    expect(md.headers['content-type']).toBe('text/markdown; charset=utf-8');
    expect(md.body).toBe('# Setup\n\nACME-CONTENT\n');
    expect((await get('/llms.txt')).body).toContain('ACME-CONTENT');
    expect((await get('/sitemap.xml')).headers['content-type']).toMatch(/xml/);
    expect((await get('/images/logo.png')).headers['content-type']).toBe('image/png');
  });

  it('answers unknown paths with the site 404 page and status 404', async () => {
    for (const url of ['/missing', '/404', '/guides/missing/']) {
      const res = await get(url);
      expect(res.statusCode).toBe(404);
      expect(res.body).toContain('Page not found');
    }
  });

  it('follows config redirects: 308 permanent, 307 with wildcards', async () => {
    const perm = await get('/old-setup');
    expect(perm.statusCode).toBe(308);
    expect(perm.headers.location).toBe('/guides/setup');
    const temp = await get('/beta/setup?x=1');
    expect(temp.statusCode).toBe(307);
    expect(temp.headers.location).toBe('/guides/setup');
  });

  it.each([
    '/../../../../etc/passwd',
    '/guides/../../etc/passwd',
    '/%2e%2e/%2e%2e/etc/passwd',
    '/%2e%2e%2f%2e%2e%2fetc%2fpasswd',
    '/%252e%252e%252f%252e%252e%252fetc%252fpasswd',
    '/..%5c..%5cetc%5cpasswd',
    '/guides\\..\\..\\manifest.json',
    '//etc/passwd',
    '/etc/passwd',
    '/leak.html',
    '/leak',
    '/etc-dir/passwd',
    '/inner-link.html',
    '/%00introduction.html',
    '/manifest.json',
  ])('never reaches a file outside the deployment: %s', async (url) => {
    // Over a real socket: inject() would normalise the path before the server sees it.
    const res = await rawGet(url);
    expect(res.status).toBe(404);
    expect(res.text).not.toContain('root:');
    expect(res.text).not.toContain('"version":1');
    expect(res.text).not.toContain('<h1>Introduction</h1>');
  });
});

/** Port of the listening harness (tests and benches listen on ports 47700-47799). */
const PORT = 47711;

/** Sends `GET <target>` byte for byte over TCP and returns the status and the whole answer. */
function rawGet(target: string): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(PORT, '127.0.0.1', () => {
      socket.write(`GET ${target} HTTP/1.1\r\nHost: ${HOST}\r\nConnection: close\r\n\r\n`);
    });
    let text = '';
    socket.setEncoding('latin1');
    socket.on('data', (d: string) => (text += d));
    socket.on('end', () => resolve({ status: Number(text.slice(9, 12)), text }));
    socket.on('error', reject);
  });
}

describe('caching and compression', () => {
  it('answers 304 for a matching ETag or a recent If-Modified-Since', async () => {
    const first = await get('/guides/setup');
    const etag = first.headers.etag as string;
    const lastModified = first.headers['last-modified'] as string;
    expect(etag).toMatch(/^"[\w-]+"$/);
    expect(lastModified).toBeTruthy();
    const byTag = await get('/guides/setup', { 'if-none-match': etag });
    expect(byTag.statusCode).toBe(304);
    expect(byTag.body).toBe('');
    expect(byTag.headers.etag).toBe(etag);
    expect((await get('/guides/setup', { 'if-none-match': `W/${etag}` })).statusCode).toBe(304);
    expect((await get('/guides/setup', { 'if-none-match': '"other"' })).statusCode).toBe(200);
    expect((await get('/guides/setup', { 'if-modified-since': lastModified })).statusCode).toBe(304);
    expect((await get('/guides/setup', { 'if-modified-since': 'Thu, 01 Jan 1970 00:00:00 GMT' })).statusCode).toBe(200);
  });

  it('caches hashed assets for a year and pages not at all', async () => {
    expect((await get('/_quire/assets/site.0123abcd.css')).headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect((await get('/images/logo.png')).headers['cache-control']).toBe('public, max-age=0, must-revalidate');
  });

  it('sends brotli or gzip by Accept-Encoding, with Vary', async () => {
    const br = await get('/guides/setup', { 'accept-encoding': 'gzip, deflate, br' });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toBe('Accept-Encoding');
    expect(zlib.brotliDecompressSync(br.rawPayload).toString()).toContain('<h1>Setup</h1>');
    const gz = await get('/guides/setup', { 'accept-encoding': 'gzip' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(zlib.gunzipSync(gz.rawPayload).toString()).toContain('<h1>Setup</h1>');
    expect(gz.headers.etag).not.toBe(br.headers.etag);
    const plain = await get('/guides/setup', { 'accept-encoding': 'br;q=0, identity' });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toContain('<h1>Setup</h1>');
  });

  it('answers 304 to the ETag of any encoding of the page, with the headers of the encoding asked for', async () => {
    const br = await get('/guides/setup', { 'accept-encoding': 'br' });
    const gz = await get('/guides/setup', { 'accept-encoding': 'gzip' });
    for (const etag of [br.headers.etag as string, gz.headers.etag as string]) {
      const again = await get('/guides/setup', { 'accept-encoding': 'br', 'if-none-match': etag });
      expect(again.statusCode).toBe(304);
      expect(again.rawPayload.length).toBe(0);
      expect(again.headers.etag).toBe(br.headers.etag);
      expect(again.headers.vary).toBe('Accept-Encoding');
      expect(again.headers['content-security-policy']).toBe(br.headers['content-security-policy']);
    }
    // a client preferring gzip (q-values), and one refusing every compression
    expect((await get('/guides/setup', { 'accept-encoding': 'br;q=0.5, gzip;q=1' })).headers['content-encoding']).toBe('gzip');
    const none = await get('/guides/setup', { 'accept-encoding': 'br;q=0, gzip;q=0' });
    expect(none.headers['content-encoding']).toBeUndefined();
    expect(Number(none.headers['content-length'])).toBe(Buffer.byteLength(none.body));
  });

  it('answers HEAD with headers only', async () => {
    const res = await h.app.inject({ method: 'HEAD', url: '/guides/setup', headers: { host: HOST } });
    expect(res.statusCode).toBe(200);
    expect(Number(res.headers['content-length'])).toBeGreaterThan(100);
    expect(res.body).toBe('');
  });
});

describe('gated pages', () => {
  it('never serves a page with an audience to a visitor without a token, as HTML or Markdown (the gate answers 401)', async () => {
    const files = siteFiles('GATED-SITE', { 'secret.html': '<h1>TOP SECRET</h1>', 'secret.md': '# TOP SECRET' });
    const manifest = JSON.parse(files['manifest.json']) as { pages: object[] };
    manifest.pages.push({ path: 'secret', title: 'Secret', file: 'secret.html', audience: ['partners'] });
    const p = h.addProject('gated');
    h.deploy(p, { ...files, 'manifest.json': JSON.stringify(manifest) });
    for (const url of ['/secret', '/secret.html', '/secret.md']) {
      const res = await get(url, {}, 'gated-docs.localhost');
      expect(res.statusCode).toBe(401);
      expect(res.body).not.toContain('TOP SECRET');
    }
    expect((await get('/introduction', {}, 'gated-docs.localhost')).statusCode).toBe(200);
  });
});

describe('deployments', () => {
  it('switches to a new deployment on deployment.changed and serves from memory', async () => {
    expect((await get('/introduction', {}, 'other-docs.localhost')).body).toContain('OTHER-CONTENT');
    h.deploy(other, siteFiles('OTHER-V2'));
    const res = await get('/introduction', {}, 'other-docs.localhost');
    expect(res.body).toContain('OTHER-V2');
  });

  it('falls back to the first page when the manifest names no home', async () => {
    const files = siteFiles('NOHOME');
    const manifest = JSON.parse(files['manifest.json']) as { home?: string };
    delete manifest.home;
    const p = h.addProject('nohome');
    h.deploy(p, { ...files, 'manifest.json': JSON.stringify(manifest) });
    const res = await get('/', {}, 'nohome-docs.localhost');
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('<h1>Introduction</h1>');
  });
});
