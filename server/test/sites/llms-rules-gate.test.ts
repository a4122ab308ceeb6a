import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, type TestApp } from '../helpers/app';
import { createFixtureRepo, type FixtureRepo } from '../helpers/git-repo';
import { createProject, trigger, waitForStatus } from '../routes/builds/build-fixture';
import { versionedRepo } from '../versions/versioned-repo';
import { buildAndDeploy, createGatedProject, issueToken } from './gate-fixture';

/**
 * The index files (`llms.txt`, `llms-full.txt`, `sitemap.xml`) obey the project's access rules and
 * path-scoped IP allowlists page by page (decisions.md sections 6 and 9; sites/page-filter.ts): a
 * reader gets them without the pages the rules refuse them, on production and previews, through
 * HTTP on a real build. The visitor's address comes from X-Forwarded-For through a trusted proxy.
 */

let t: TestApp;
let repo: FixtureRepo;
let projectId: string;
let staff: string;
let partners: string;
let both: string;
const PROD = 'rules-docs.localhost:4000';
const PREVIEW = 'main--rules-docs.localhost:4000';
const OUTSIDE = '198.51.100.7';
const INSIDE = '203.0.113.5';
const FILES = ['/llms.txt', '/llms-full.txt', '/sitemap.xml'];

/** What each protected page shows in each file: its Markdown (llms-full.txt) and its URL (all three). */
const ROADMAP = { body: 'ROADMAP-BODY', url: `http://${PROD}/internal/roadmap` };
const PLANS = { body: 'PLANS-BODY', url: `http://${PROD}/private/plans` };

/** A GET through the trusted proxy (the test's socket address) for a client at `ip`. */
const get = (url: string, ip: string, headers: Record<string, string> = {}, host = PROD) =>
  t.app.inject({ method: 'GET', url, headers: { host, 'x-forwarded-for': ip, ...headers } });
const api = (method: 'POST' | 'DELETE', url: string, payload?: object) =>
  t.app.inject({ method, url: `/v1/projects/${projectId}${url}`, headers: bearer(t.adminKey), ...(payload ? { payload } : {}) });

/** Whether a file's text names the page (its URL, in any of the three files: `.md` links in llms.txt). */
const names = (text: string, page: { url: string }) => text.includes(`${page.url}.md`) || text.includes(`${page.url}\n`) || text.includes(`<loc>${page.url}</loc>`);

beforeAll(async () => {
  t = await createTestApp({ runJobs: true, env: { QUIRE_TRUSTED_PROXIES: '127.0.0.1' } });
  repo = createFixtureRepo(undefined, {
    extraFiles: {
      'docs.json': JSON.stringify({
        name: 'Rules Docs',
        navigation: {
          groups: [
            { group: 'Start', pages: ['index', 'setup'] },
            { group: 'Internal', pages: ['internal/roadmap'] },
            { group: 'Private', pages: ['private/plans', 'private-notes'] },
            { group: 'Partners', pages: ['partners'] },
          ],
        },
      }),
      'index.mdx': '---\ntitle: Welcome\n---\n\nPUBLIC-HOME text.\n',
      // text with multi-byte characters before the protected pages: the cut ranges are in bytes
      'setup.mdx': '---\ntitle: Setup für Café ✓\ndescription: Réglages 🚀\n---\n\nPUBLIC-SETUP crème brûlée ✓ 🚀 text.\n',
      'internal/roadmap.mdx': '---\ntitle: Roadmap\n---\n\nROADMAP-BODY text.\n',
      'private/plans.mdx': '---\ntitle: Plans\n---\n\nPLANS-BODY text.\n',
      'private-notes.mdx': '---\ntitle: Notes\n---\n\nPUBLIC-NOTES text.\n',
      'partners.mdx': '---\ntitle: Partner Portal\naudience: partners\n---\n\nPARTNER-BODY text.\n',
    },
  });
  // previews are read here for their index files, not for the preview gate: open to every reader
  projectId = await createGatedProject(t, repo, 'rules', { protectPreviews: false });
  await buildAndDeploy(t, projectId);
  await buildAndDeploy(t, projectId, { preview: true });
  staff = (await issueToken(t, projectId, 'staff', ['staff'])).token;
  partners = (await issueToken(t, projectId, 'partners', ['partners'])).token;
  both = (await issueToken(t, projectId, 'both', ['staff', 'partners'])).token;
  expect((await api('POST', '/access-rules', { name: 'Internal for staff', pathPattern: 'internal/**', audiences: ['staff'] })).statusCode).toBe(201);
  expect((await api('POST', '/ip-allowlists', { name: 'Office', cidrs: ['203.0.113.0/24'], paths: ['private/**'] })).statusCode).toBe(201);
}, 180_000);
afterAll(async () => {
  await t?.close();
  repo?.cleanup();
});

describe('index files under access rules and path-scoped allowlists', () => {
  it('leave out every page an anonymous reader outside the allowlist is refused, and keep the rest', async () => {
    expect((await get('/internal/roadmap', OUTSIDE)).statusCode).toBe(401);
    expect((await get('/private/plans', OUTSIDE)).statusCode).toBe(403);
    for (const url of FILES) {
      const res = await get(url, OUTSIDE);
      expect(res.statusCode, url).toBe(200);
      expect(names(res.body, ROADMAP), url).toBe(false);
      expect(names(res.body, PLANS), url).toBe(false);
      expect(res.body, url).not.toMatch(/ROADMAP-BODY|PLANS-BODY|PARTNER-BODY/);
      expect(res.body, url).toContain(`http://${PROD}/setup`);
      expect(res.body, url).toContain(`http://${PROD}/private-notes`);
    }
    const full = (await get('/llms-full.txt', OUTSIDE)).body;
    expect(full).toContain('PUBLIC-SETUP crème brûlée ✓ 🚀 text.');
    expect(full).toContain('PUBLIC-NOTES');
    const llms = (await get('/llms.txt', OUTSIDE)).body;
    // a section whose every page is refused goes with its heading; one with a readable page stays
    expect(llms).not.toContain('## Internal');
    expect(llms).toContain('## Private\n\n- [Notes]');
    expect(llms).toContain('- [Setup für Café ✓]');
    const sitemap = (await get('/sitemap.xml', OUTSIDE)).body;
    expect(sitemap.startsWith('<?xml version="1.0" encoding="UTF-8"?>\n<urlset')).toBe(true);
    expect(sitemap.endsWith('</url>\n</urlset>\n')).toBe(true);
    expect(sitemap.match(/<url>/g)).toHaveLength(3);
  });

  it('show the pages an access rule opens to the reader with a token of one of its audiences', async () => {
    for (const url of FILES) {
      const res = await get(url, OUTSIDE, { 'x-audience-token': staff });
      expect(res.statusCode, url).toBe(200);
      expect(names(res.body, ROADMAP), url).toBe(true);
      expect(names(res.body, PLANS), url).toBe(false);
      // a form showing protected pages is never kept by shared caches
      expect(res.headers['cache-control'], url).toBe('private, no-store');
    }
    expect((await get('/llms-full.txt', OUTSIDE, { cookie: `quire_audience=${staff}` })).body).toContain('# Roadmap\nSource: http://rules-docs.localhost:4000/internal/roadmap\n\nROADMAP-BODY text.');
    expect((await get('/llms.txt', OUTSIDE, { 'x-audience-token': staff })).body).toContain('## Internal\n\n- [Roadmap](http://rules-docs.localhost:4000/internal/roadmap.md)');
  });

  it('show the pages an allowlist guards to readers inside its ranges, by X-Forwarded-For', async () => {
    for (const url of FILES) {
      const res = await get(url, INSIDE);
      expect(names(res.body, PLANS), url).toBe(true);
      expect(names(res.body, ROADMAP), url).toBe(false);
    }
    expect((await get('/llms-full.txt', INSIDE)).body).toContain('PLANS-BODY');
    const everything = await get('/llms-full.txt', INSIDE, { 'x-audience-token': staff });
    expect(everything.body).toMatch(/ROADMAP-BODY[^]*PLANS-BODY/);
  });

  it('cut gated blocks and refused pages together in llms-full.txt', async () => {
    const partner = (await get('/llms-full.txt', OUTSIDE, { 'x-audience-token': partners })).body;
    expect(partner).toContain('PARTNER-BODY');
    expect(partner).not.toMatch(/ROADMAP-BODY|PLANS-BODY|data-audience/);
    const insider = (await get('/llms-full.txt', OUTSIDE, { 'x-audience-token': both })).body;
    expect(insider).toMatch(/ROADMAP-BODY[^]*PARTNER-BODY/);
    expect(insider).not.toMatch(/PLANS-BODY|data-audience/);
  });

  it("give each reader's compressed form and ETag their own cut", async () => {
    const anonymous = await get('/llms-full.txt', OUTSIDE, { 'accept-encoding': 'gzip' });
    expect(anonymous.headers['content-encoding']).toBe('gzip');
    const text = gunzipSync(anonymous.rawPayload).toString('utf8');
    expect(text).toContain('PUBLIC-SETUP');
    expect(text).not.toMatch(/ROADMAP-BODY|PLANS-BODY/);
    const insider = await get('/llms-full.txt', INSIDE, { 'x-audience-token': staff });
    expect(insider.headers.etag).not.toBe(anonymous.headers.etag);
    // the anonymous form's ETag does not revalidate the insider's
    const revalidated = await get('/llms-full.txt', OUTSIDE, { 'if-none-match': String(insider.headers.etag) });
    expect(revalidated.statusCode).toBe(200);
    expect(revalidated.body).not.toContain('ROADMAP-BODY');
    expect(anonymous.headers.vary).toContain('Cookie');
  });

  it('work the same on previews', async () => {
    for (const url of FILES) {
      const res = await get(url, OUTSIDE, {}, PREVIEW);
      expect(res.statusCode, url).toBe(200);
      expect(res.body, url).not.toMatch(/internal\/roadmap|private\/plans|ROADMAP-BODY|PLANS-BODY/);
      expect(res.body, url).toContain('/setup');
    }
    expect((await get('/llms-full.txt', INSIDE, { 'x-audience-token': staff }, PREVIEW)).body).toMatch(/ROADMAP-BODY[^]*PLANS-BODY/);
  });

  it('never serve the page entries file', async () => {
    for (const headers of [{}, { 'x-audience-token': staff }] as Record<string, string>[]) {
      const res = await get('/_quire/page-entries.json', INSIDE, headers);
      expect(res.statusCode).toBe(404);
      expect(res.headers['content-type']).toContain('text/html');
      expect(res.body).not.toMatch(/"ranges"|"pages":\[/);
    }
  });

  it('follow the rules as they change, and are the public files again without them', async () => {
    const rules = await t.ctx.db.prisma.accessRule.findMany({ where: { projectId } });
    const lists = await t.ctx.db.prisma.ipAllowlist.findMany({ where: { projectId } });
    for (const r of rules) expect((await api('DELETE', `/access-rules/${r.id}`)).statusCode).toBe(204);
    for (const l of lists) expect((await api('DELETE', `/ip-allowlists/${l.id}`)).statusCode).toBe(204);
    for (const url of FILES) {
      const res = await get(url, OUTSIDE);
      expect(names(res.body, ROADMAP), url).toBe(true);
      expect(names(res.body, PLANS), url).toBe(true);
      expect(res.headers['cache-control'], url).toBe('public, max-age=0, must-revalidate');
    }
    expect((await get('/llms.txt', OUTSIDE)).headers.vary ?? '').not.toContain('Cookie');
    expect((await get('/llms-full.txt', OUTSIDE)).body).not.toContain('PARTNER-BODY');
  });
});

describe('index files of documentation versions under access rules', () => {
  let v: TestApp;
  let versioned: FixtureRepo;
  let staffToken: string;
  const HOST = 'acme-docs.localhost:4000';
  const site = (url: string, headers: Record<string, string> = {}) => v.app.inject({ url, headers: { host: HOST, ...headers } });

  beforeAll(async () => {
    v = await createTestApp();
    versioned = versionedRepo();
    const project = await createProject(v, versioned, 'acme');
    v.app.buildRunner.configure({ pollMs: 100 });
    await v.app.buildRunner.start();
    const started = new Date();
    const prod = (await trigger(v, project.id)).json().data;
    expect(await waitForStatus(v, project.id, prod.id, ['deployed', 'failed'], 60_000)).toMatchObject({ status: 'deployed' });
    const until = Date.now() + 120_000;
    for (;;) {
      const builds = await v.ctx.db.prisma.build.findMany({ where: { projectId: project.id, version: { not: null }, createdAt: { gte: started } } });
      if (builds.length >= 4 && builds.every((b) => b.status !== 'queued' && b.status !== 'building')) break;
      if (Date.now() > until) throw new Error('version builds still running');
      await new Promise((r) => setTimeout(r, 200));
    }
    staffToken = (await issueToken(v, project.id, 'staff', ['staff'])).token;
    const rule = await v.app.inject({ method: 'POST', url: `/v1/projects/${project.id}/access-rules`, headers: bearer(v.adminKey), payload: { name: 'Guides for staff', pathPattern: 'guides/**', audiences: ['staff'] } });
    expect(rule.statusCode).toBe(201);
  }, 240_000);
  afterAll(async () => {
    await v?.close();
    versioned?.cleanup();
  });

  it("leave a version's protected pages out of its own files, and show them to readers the rule opens", async () => {
    expect((await site('/v1/guides/setup')).statusCode).toBe(401);
    for (const url of ['/v1/llms.txt', '/v1/llms-full.txt', '/v1/sitemap.xml']) {
      const anonymous = await site(url);
      expect(anonymous.statusCode, url).toBe(200);
      expect(anonymous.body, url).not.toMatch(/\/v1\/guides\/setup|V1-SETUP/);
      expect(anonymous.body, url).toContain(`http://${HOST}/v1/old`);
      const insider = await site(url, { 'x-audience-token': staffToken });
      expect(insider.body, url).toContain(`http://${HOST}/v1/guides/setup`);
    }
    expect((await site('/v1/llms-full.txt', { 'x-audience-token': staffToken })).body).toContain('V1-SETUP install it the old way.');
    expect((await site('/llms-full.txt')).body).not.toContain('/guides/new');
  });

  it("leave a version's protected pages out of its pages' chrome, under the version's base path", async () => {
    const anonymous = await site('/v1/old');
    expect(anonymous.statusCode).toBe(200);
    expect(anonymous.body).toContain('href="/v1/old"');
    expect(anonymous.body).not.toContain('href="/v1/guides/setup"');
    const insider = await site('/v1/old', { 'x-audience-token': staffToken });
    expect(insider.body).toContain('<a class="q-pager-card q-pager-prev" href="/v1/guides/setup" rel="prev">');
  });
});
