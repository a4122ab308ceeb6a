import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, type TestApp } from '../helpers/app';
import { createFixtureRepo, type FixtureRepo } from '../helpers/git-repo';
import { buildAndDeploy, createGatedProject, issueToken, pagerLinks, sidebarOf } from './gate-fixture';

/**
 * Every surface of a site that names pages obeys the project's access rules page by page
 * (decisions.md sections 6 and 9; sites/page-filter.ts, sites/page-links.ts): a reader the rule
 * refuses never sees the protected pages' titles in the chrome of the pages they may read (sidebar,
 * previous/next cards, tabs, navbar), in the not-found page (its links and "Did you mean"), on the
 * gate page, in search, in the MCP server or in the index files; a reader the rule opens to (by
 * token or by address) sees all of it. Through HTTP on a real build.
 */

let t: TestApp;
let repo: FixtureRepo;
let projectId: string;
let staff: string;
const HOST = 'navrules-docs.localhost:4000';
const PREVIEW = 'main--navrules-docs.localhost:4000';
const OUTSIDE = '198.51.100.7';
const INSIDE = '203.0.113.5';
/** What a reader outside the rule must never see: the protected pages' titles, their group's and tab's titles, the navbar link's label. */
const PROTECTED = ['Internal title', 'Internal runbook', 'Internal group', 'Internal tab', 'Ops handbook', 'Internal shortcut'];

/** A GET through the trusted proxy (the test's socket address) for a client at `ip`. */
const get = (url: string, ip: string, headers: Record<string, string> = {}, host = HOST) =>
  t.app.inject({ method: 'GET', url, headers: { host, 'x-forwarded-for': ip, ...headers } });
const api = (method: 'POST' | 'DELETE', url: string, payload?: object) =>
  t.app.inject({ method, url: `/v1/projects/${projectId}${url}`, headers: bearer(t.adminKey), ...(payload ? { payload } : {}) });
/** One JSON-RPC call to the site's MCP server. */
const mcp = (method: string, params: object, ip: string, headers: Record<string, string> = {}) =>
  t.app.inject({
    method: 'POST',
    url: '/mcp',
    headers: { host: HOST, 'x-forwarded-for': ip, 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
    payload: { jsonrpc: '2.0', id: 1, method, params },
  });
/** The protected words a text shows. */
const leaked = (text: string) => PROTECTED.filter((w) => text.includes(w));

beforeAll(async () => {
  t = await createTestApp({ runJobs: true, env: { QUIRE_TRUSTED_PROXIES: '127.0.0.1' } });
  repo = createFixtureRepo(undefined, {
    extraFiles: {
      'docs.json': JSON.stringify({
        name: 'Nav Rules Docs',
        navbar: { links: [{ label: 'Internal shortcut', href: '/internal/guide' }, { label: 'Public shortcut', href: '/after' }] },
        navigation: {
          tabs: [
            {
              tab: 'Docs',
              groups: [
                { group: 'Start', pages: ['index', 'setup', 'internal/guide', 'after'] },
                { group: 'Internal group', pages: ['internal/runbook'] },
              ],
            },
            { tab: 'Internal tab', groups: [{ group: 'Ops', pages: ['internal/ops'] }] },
          ],
        },
      }),
      'index.mdx': '---\ntitle: Welcome\n---\n\nPUBLIC-HOME text.\n',
      'setup.mdx': '---\ntitle: Setup\n---\n\nPUBLIC-SETUP text.\n',
      'internal/guide.mdx': '---\ntitle: Internal title\n---\n\nINTERNAL-BODY zanzibar text.\n',
      'after.mdx': '---\ntitle: After\n---\n\nPUBLIC-AFTER text.\n',
      'internal/runbook.mdx': '---\ntitle: Internal runbook\n---\n\nRUNBOOK-BODY zanzibar text.\n',
      'internal/ops.mdx': '---\ntitle: Ops handbook\n---\n\nOPS-BODY text.\n',
    },
  });
  // previews open to everyone here: this file is about access rules, not preview protection
  projectId = await createGatedProject(t, repo, 'navrules', { protectPreviews: false });
  await buildAndDeploy(t, projectId);
  await buildAndDeploy(t, projectId, { preview: true });
  staff = (await issueToken(t, projectId, 'staff', ['staff'])).token;
  const rule = await api('POST', '/access-rules', { name: 'Internal', pathPattern: 'internal/**', audiences: ['staff'], cidrs: ['203.0.113.0/24'] });
  expect(rule.statusCode).toBe(201);
}, 180_000);
afterAll(async () => {
  await t?.close();
  repo?.cleanup();
});

describe('page chrome under an access rule', () => {
  it('leaves the protected pages out of the sidebar, previous/next, tabs and navbar of a public page for a reader outside the rule', async () => {
    expect((await get('/internal/guide', OUTSIDE)).statusCode).toBe(401);
    for (const url of ['/', '/setup', '/after']) {
      const res = await get(url, OUTSIDE);
      expect(res.statusCode, url).toBe(200);
      expect(leaked(res.body), url).toEqual([]);
      expect(res.body, url).not.toContain('href="/internal/');
      // what the reader may open stays
      expect(sidebarOf(res.body), url).toMatch(/Welcome[^]*Setup[^]*After/);
      expect(res.body, url).toContain('Public shortcut');
    }
    // the cards naming the protected neighbour go; the other side stays
    expect(pagerLinks((await get('/setup', OUTSIDE)).body)).toEqual([{ rel: 'prev', href: '/', title: 'Welcome' }]);
    expect(pagerLinks((await get('/after', OUTSIDE)).body)).toEqual([]);
    // a group whose every page is protected goes with its title
    expect(sidebarOf((await get('/setup', OUTSIDE)).body)).not.toContain('q-nav-section"><p class="q-nav-heading"><span class="q-nav-text">Internal');
  });

  it('shows them to a reader the rule opens to, by token or by address, privately', async () => {
    for (const headers of [{ 'x-audience-token': staff }, { cookie: `quire_audience=${staff}` }] as Record<string, string>[]) {
      const res = await get('/setup', OUTSIDE, headers);
      expect(leaked(res.body)).toEqual(['Internal title', 'Internal runbook', 'Internal group', 'Internal tab', 'Internal shortcut']);
      expect(pagerLinks(res.body)).toContainEqual({ rel: 'next', href: '/internal/guide', title: 'Internal title' });
      expect(res.headers['cache-control']).toBe('private, no-store');
    }
    const inside = await get('/after', INSIDE);
    expect(pagerLinks(inside.body)).toContainEqual({ rel: 'prev', href: '/internal/guide', title: 'Internal title' });
    expect(sidebarOf(inside.body)).toContain('Internal runbook');
    expect((await get('/internal/ops', INSIDE)).body).toContain('Ops handbook');
  });

  it("gives the reader outside the rule a public form of the page with its own ETag", async () => {
    const outside = await get('/setup', OUTSIDE);
    expect(outside.headers['cache-control']).toBe('public, max-age=0, must-revalidate');
    expect(outside.headers.vary).toContain('Cookie');
    const inside = await get('/setup', INSIDE);
    expect(inside.headers.etag).not.toBe(outside.headers.etag);
    const revalidated = await get('/setup', OUTSIDE, { 'if-none-match': String(inside.headers.etag) });
    expect(revalidated.statusCode).toBe(200);
    expect(leaked(revalidated.body)).toEqual([]);
  });

  it('works the same on previews', async () => {
    const outside = await get('/setup', OUTSIDE, {}, PREVIEW);
    expect(outside.statusCode).toBe(200);
    expect(leaked(outside.body)).toEqual([]);
    expect((await get('/setup', INSIDE, {}, PREVIEW)).body).toContain('Internal title');
  });
});

describe('the not-found and gate pages under an access rule', () => {
  it('name no protected page to a reader outside the rule', async () => {
    const missing = await get('/internal-typo', OUTSIDE);
    expect(missing.statusCode).toBe(404);
    expect(leaked(missing.body)).toEqual([]);
    expect(missing.body).toContain('Start here');
    // "Did you mean" for a typo of a protected page's path suggests nothing protected
    const typo = await get('/internal-guide', OUTSIDE);
    expect(typo.statusCode).toBe(404);
    expect(leaked(typo.body)).toEqual([]);
    // the gate page shows the site's chrome without them
    const gate = await get('/internal/guide', OUTSIDE);
    expect(gate.statusCode).toBe(401);
    expect(gate.body).toContain('Setup');
    expect(leaked(gate.body)).toEqual([]);
    const help = await get('/_quire/mcp', OUTSIDE);
    expect(help.statusCode).toBe(200);
    expect(leaked(help.body)).toEqual([]);
  });

  it('name them to a reader the rule opens to', async () => {
    const missing = await get('/internal-typo', OUTSIDE, { 'x-audience-token': staff });
    expect(missing.statusCode).toBe(404);
    expect(missing.body).toContain('Internal title');
    expect(missing.headers['cache-control']).toBe('private, no-store');
    const typo = await get('/internal-guide', INSIDE);
    expect(typo.body).toMatch(/<section class="q-suggest"[^]*Internal title/);
    const help = await get('/_quire/mcp', INSIDE);
    expect(help.body).toContain('Internal title');
    expect(help.headers['cache-control']).toBe('private, no-store');
  });
});

describe('other surfaces naming pages under an access rule', () => {
  it('leave the protected pages out of search, the MCP server, llms.txt, sitemap.xml and the Markdown pages for a reader outside the rule', async () => {
    const search = await get('/_quire/search?q=zanzibar', OUTSIDE);
    expect(search.statusCode).toBe(200);
    expect(search.json().data).toEqual([]);
    const found = await mcp('tools/call', { name: 'search', arguments: { query: 'zanzibar' } }, OUTSIDE);
    expect(found.statusCode).toBe(200);
    expect(leaked(found.body)).toEqual([]);
    const listed = await mcp('resources/list', {}, OUTSIDE);
    expect(listed.body).toContain('Setup');
    expect(leaked(listed.body)).toEqual([]);
    for (const url of ['/llms.txt', '/sitemap.xml', '/llms-full.txt', '/setup.md', '/after.md']) {
      const res = await get(url, OUTSIDE);
      expect(res.statusCode, url).toBe(200);
      expect(leaked(res.body), url).toEqual([]);
      expect(res.body, url).not.toContain('/internal/');
    }
  });

  it('name them to a reader the rule opens to', async () => {
    const search = await get('/_quire/search?q=zanzibar', OUTSIDE, { 'x-audience-token': staff });
    expect(search.json().data.map((h: { title: string }) => h.title).sort()).toEqual(['Internal runbook', 'Internal title']);
    const byAddress = await get('/_quire/search?q=zanzibar', INSIDE);
    expect(byAddress.json().data).toHaveLength(2);
    // an answer naming protected pages is never kept by a shared cache, whatever let the reader in
    expect(byAddress.headers['cache-control']).toBe('private, no-store');
    expect((await mcp('tools/call', { name: 'search', arguments: { query: 'zanzibar' } }, INSIDE)).body).toContain('Internal title');
    expect((await mcp('resources/list', {}, OUTSIDE, { 'x-audience-token': staff })).body).toContain('Internal title');
    for (const url of ['/llms.txt', '/sitemap.xml']) expect((await get(url, INSIDE)).body, url).toContain('/internal/guide');
  });
});

describe('a site without rules', () => {
  it('is served as built again once the rule is gone', async () => {
    const rules = await t.ctx.db.prisma.accessRule.findMany({ where: { projectId } });
    for (const r of rules) expect((await api('DELETE', `/access-rules/${r.id}`)).statusCode).toBe(204);
    const res = await get('/setup', OUTSIDE);
    expect(res.body).toContain('Internal title');
    expect(res.headers['cache-control']).toBe('public, max-age=0, must-revalidate');
    expect(res.headers.vary ?? '').not.toContain('Cookie');
    expect((await get('/internal-typo', OUTSIDE)).body).toContain('Internal title');
  });
});
