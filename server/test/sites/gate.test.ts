import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueAudienceToken } from '../../src/services/audience-tokens';
import { bearer, createTestApp, type TestApp } from '../helpers/app';
import type { FixtureRepo } from '../helpers/git-repo';
import { buildAndDeploy, createGatedProject, gatedDocsRepo, issueToken, pagerLinks, SECRETS, setCookies, sidebarOf } from './gate-fixture';

/**
 * The site gate through HTTP, on a real build of a repository with gated pages (frontmatter
 * `audience`; decisions.md section 6): what a visitor without access, with a token that opens the
 * page and with a token that does not, gets on every surface of the site.
 */

let t: TestApp;
let repo: FixtureRepo;
let projectId: string;
let partners: string;
let staff: string;
let otherProjectToken: string;
const HOST = 'gated-docs.localhost:4000';

const get = (url: string, headers: Record<string, string> = {}, host = HOST) => t.app.inject({ method: 'GET', url, headers: { host, ...headers } });
const post = (url: string, payload: string, headers: Record<string, string> = {}, host = HOST) =>
  t.app.inject({ method: 'POST', url, payload, headers: { host, 'content-type': 'application/x-www-form-urlencoded', ...headers } });
/** The text of an answer, decoded by its `Content-Encoding`. */
const zlibText = (res: Awaited<ReturnType<typeof get>>): string => {
  const encoding = res.headers['content-encoding'];
  if (encoding === 'br') return zlib.brotliDecompressSync(res.rawPayload).toString('utf8');
  if (encoding === 'gzip') return zlib.gunzipSync(res.rawPayload).toString('utf8');
  return res.body;
};
const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();
const showsNoSecret = (text: string) => {
  for (const secret of SECRETS) expect(text, `must not show "${secret}"`).not.toContain(secret);
};
const expectGate = (res: Awaited<ReturnType<typeof get>>) => {
  expect(res.statusCode).toBe(401);
  expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
  expect(res.headers['cache-control']).toBe('private, no-store');
  expect(res.headers.vary).toContain('Cookie');
  expect(res.body).toContain('This page needs access');
  expect(res.body).toContain('<form class="q-gate-form" method="post" action="/_quire/token">');
  showsNoSecret(res.body);
};

beforeAll(async () => {
  t = await createTestApp({ runJobs: true });
  repo = gatedDocsRepo();
  projectId = await createGatedProject(t, repo, 'gated');
  await buildAndDeploy(t, projectId);
  partners = (await issueToken(t, projectId, 'partners', ['partners'])).token;
  staff = (await issueToken(t, projectId, 'staff', ['staff'])).token;
  const other = await createGatedProject(t, repo, 'other');
  otherProjectToken = (await issueToken(t, other, 'partners', ['partners'])).token;
}, 120_000);
afterAll(async () => {
  await t?.close();
  repo?.cleanup();
});

describe('a visitor without a token', () => {
  it('gets the gate form (401) instead of a gated page, with nothing of the page', async () => {
    for (const url of ['/partners', '/internal', '/guides/vault']) expectGate(await get(url));
    const gate = await get('/partners');
    expect(gate.body).toContain('<input type="hidden" name="next" value="/partners">');
    expect(gate.headers['www-authenticate']).toBeTruthy();
    // the gate shows inside the site's own chrome (header, public navigation)
    expect(gate.body).toContain('<header class="q-header">');
    expect(sidebarOf(gate.body)).toContain('Setup');
  });

  it("gets 401 for a gated page's Markdown", async () => {
    const res = await get('/partners.md');
    expect(res.statusCode).toBe(401);
    expect(res.headers['cache-control']).toBe('private, no-store');
    showsNoSecret(res.body);
  });

  it('reads public pages whose navigation leaves the gated pages out, previous/next included', async () => {
    const home = await get('/');
    expect(home.statusCode).toBe(200);
    expect(home.body).toContain('PUBLIC-HOME');
    showsNoSecret(home.body);
    expect(sidebarOf(home.body)).toContain('Setup');
    // the next readable page after the home page is Setup (Partner Portal and Internal Runbook are skipped)
    expect(pagerLinks(home.body)).toEqual([{ rel: 'next', href: '/setup', title: 'Setup' }]);
    const setup = await get('/setup');
    expect(pagerLinks(setup.body)).toEqual([
      { rel: 'prev', href: '/', title: 'Welcome' },
      { rel: 'next', href: '/guides/intro', title: 'Intro' },
    ]);
    showsNoSecret(setup.body);
    // the group holding a gated page keeps its public pages; no tag of a gated page is named
    expect(sidebarOf(setup.body)).toContain('Intro');
    expect(setup.body).not.toContain('data-audience');
    expect(home.body).not.toMatch(/partners|staff/);
    expect(setup.headers['cache-control']).toBe('public, max-age=0, must-revalidate');
    expect(setup.headers.vary).toContain('Cookie');
  });

  it('finds no gated page in llms.txt, sitemap.xml or the not-found page', async () => {
    for (const url of ['/llms.txt', '/sitemap.xml', '/no-such-page']) {
      const res = await get(url);
      expect(res.body.length).toBeGreaterThan(0);
      showsNoSecret(res.body);
      expect(res.body).not.toMatch(/\/partners|\/internal|guides\/vault/);
    }
    expect((await get('/llms.txt')).body).toContain('/setup.md');
  });
});

describe('a visitor with a token', () => {
  it('reads the gated pages their tags open, with x-audience-token', async () => {
    const res = await get('/partners', { 'x-audience-token': partners });
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('PARTNER-BODY');
    expect(res.headers['cache-control']).toBe('private, no-store');
    expect(res.headers.vary).toContain('Cookie');
    const md = await get('/partners.md', { 'x-audience-token': partners });
    expect(md.statusCode).toBe(200);
    expect(md.body).toContain('PARTNER-BODY');
    expect(md.headers['cache-control']).toBe('private, no-store');
    expect((await get('/guides/vault', { 'x-audience-token': partners })).body).toContain('VAULT-BODY');
  });

  it('never lets a second reader without access have what the first one was served from memory', async () => {
    for (const encoding of ['br', 'gzip', 'identity']) {
      const first = await get('/partners', { 'x-audience-token': partners, 'accept-encoding': encoding });
      expect(first.statusCode).toBe(200);
      expect(first.headers['cache-control']).toBe('private, no-store');
      const etag = first.headers.etag as string;
      // the same page, right after, for a reader without a token: the gate, whatever they send
      expectGate(await get('/partners', { 'accept-encoding': encoding }));
      const conditional = await get('/partners', { 'accept-encoding': encoding, 'if-none-match': etag });
      expect(conditional.statusCode).toBe(401);
      expect(conditional.headers.etag).toBeUndefined();
      // and a page naming the gated one: the first reader's variant (private) is not the second one's
      const withEntry = await get('/setup', { 'x-audience-token': partners, 'accept-encoding': encoding });
      const without = await get('/setup', { 'accept-encoding': encoding, 'if-none-match': withEntry.headers.etag as string });
      expect(without.statusCode).toBe(200);
      expect(without.headers.etag).not.toBe(withEntry.headers.etag);
      expect(sidebarOf(zlibText(without))).not.toContain('Partner Portal');
    }
  });

  it("sees in the navigation the gated pages they can open, and only those", async () => {
    const res = await get('/setup', { 'x-audience-token': partners });
    const sidebar = sidebarOf(res.body);
    expect(sidebar).toContain('Partner Portal');
    expect(sidebar).toContain('Vault Plans');
    expect(sidebar).not.toContain('Internal Runbook');
    expect(pagerLinks(res.body)).toEqual([
      { rel: 'prev', href: '/partners', title: 'Partner Portal' },
      { rel: 'next', href: '/guides/intro', title: 'Intro' },
    ]);
    // the variant showing gated entries is private, and names no tags
    expect(res.headers['cache-control']).toBe('private, no-store');
    expect(res.body).not.toContain('data-audience');
    const home = await get('/', { 'x-audience-token': staff });
    expect(pagerLinks(home.body)).toEqual([{ rel: 'next', href: '/internal', title: 'Internal Runbook' }]);
    expect(sidebarOf(home.body)).not.toContain('Partner Portal');
  });

  it("gets the gate form for a gated page their tags do not open, told so", async () => {
    const res = await get('/partners', { 'x-audience-token': staff });
    expectGate(res);
    expect(res.body).toContain('Your access token does not open this page');
    expect((await get('/partners.md', { 'x-audience-token': staff })).statusCode).toBe(401);
  });
});

describe('the magic link', () => {
  it('sets the 30-day HttpOnly SameSite=Lax cookie and redirects to / only', async () => {
    for (const url of [`/?_quire_token=${partners}`, `/setup?_quire_token=${partners}&next=//evil.com`, `/partners?next=https://evil.com&_quire_token=${partners}`]) {
      const res = await get(url);
      expect(res.statusCode).toBe(302);
      expect(res.headers.location).toBe('/');
      expect(res.headers['cache-control']).toBe('private, no-store');
      const [cookie] = setCookies(res.headers);
      expect(cookie).toBe(`quire_audience=${partners}; Path=/; Max-Age=2592000; HttpOnly; SameSite=Lax`);
    }
  });

  it('marks the cookie Secure when the request came over https', async () => {
    const res = await get(`/?_quire_token=${partners}`, { 'x-forwarded-proto': 'https' });
    expect(setCookies(res.headers)[0]).toMatch(/; Secure$/);
  });

  it('opens gated pages through the cookie it set', async () => {
    const cookie = setCookies((await get(`/?_quire_token=${partners}`)).headers)[0]!.split(';')[0]!;
    const res = await get('/partners', { cookie });
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('PARTNER-BODY');
    expect(sidebarOf((await get('/', { cookie })).body)).toContain('Partner Portal');
  });

  it('answers an invalid token with the gate page and an error, setting nothing', async () => {
    for (const token of ['garbage', `${partners.slice(0, -2)}xx`, otherProjectToken]) {
      const res = await get(`/?_quire_token=${encodeURIComponent(token)}`);
      expectGate(res);
      expect(res.body).toContain('This access token is not valid');
      expect(setCookies(res.headers)).toEqual([]);
    }
  });
});

describe('the gate form', () => {
  it('takes a pasted token: cookie, then 303 back to the page', async () => {
    const res = await post('/_quire/token', form({ token: ` ${partners}\n`, next: '/partners' }));
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toBe('/partners');
    expect(setCookies(res.headers)[0]).toBe(`quire_audience=${partners}; Path=/; Max-Age=2592000; HttpOnly; SameSite=Lax`);
  });

  it('returns only to paths of this site', async () => {
    const hostile = ['//evil.com', '/\\evil.com', 'https://evil.com/x', 'javascript:alert(1)', '/%2e%2e/x', '', '/x\r\nSet-Cookie: a=b'];
    for (const next of hostile) {
      const res = await post('/_quire/token', form({ token: partners, next }));
      expect(res.statusCode).toBe(303);
      expect(res.headers.location, next).toBe('/');
    }
    // an encoded double slash stays a path of this site
    expect((await post('/_quire/token', form({ token: partners, next: '/%2F%2Fevil.com' }))).headers.location).toBe('/evil.com');
    expect((await post('/_quire/token', form({ token: partners, next: '/guides/vault?x=1' }))).headers.location).toBe('/guides/vault');
  });

  it('shows the form again with an error for a token that is not valid', async () => {
    const res = await post('/_quire/token', form({ token: 'not-a-token', next: '/partners' }));
    expectGate(res);
    expect(res.body).toContain('This access token is not valid');
    expect(res.body).toContain('name="next" value="/partners"');
    expect(setCookies(res.headers)).toEqual([]);
  });

  it('refuses posts from another site, other methods and other bodies', async () => {
    expect((await post('/_quire/token', form({ token: partners, next: '/' }), { origin: 'https://evil.com' })).statusCode).toBe(403);
    expect((await post('/_quire/token', form({ token: partners, next: '/' }), { 'sec-fetch-site': 'cross-site' })).statusCode).toBe(403);
    expect((await post('/_quire/token', JSON.stringify({ token: partners }), { 'content-type': 'application/json' })).statusCode).toBe(415);
    expect((await post('/_quire/token', `token=${'a'.repeat(20_000)}`)).statusCode).toBe(413);
    const getForm = await get('/_quire/token');
    expect(getForm.statusCode).toBe(405);
    expect(getForm.headers.allow).toBe('POST');
    expect((await post('/partners', form({ token: partners }))).statusCode).toBe(405);
  });
});

describe('refused tokens', () => {
  let expired: string;
  let deleted: string;

  beforeAll(async () => {
    const { profileId } = await issueToken(t, projectId, 'lapsed', ['partners']);
    expired = (await issueAudienceToken(t.ctx, { orgId: '', projectId, profileId, expiresAt: new Date(Date.now() - 60_000), label: null, auth: null })).token;
    const gone = await issueToken(t, projectId, 'gone', ['partners']);
    deleted = gone.token;
    expect((await get('/partners', { 'x-audience-token': deleted })).statusCode).toBe(200);
    const del = await t.app.inject({ method: 'DELETE', url: `/v1/projects/${projectId}/audiences/${gone.profileId}`, headers: bearer(t.adminKey) });
    expect(del.statusCode).toBe(200);
  });

  it('opens nothing with a tampered, expired, other-project or deleted-profile token', async () => {
    const tampered = `${partners.slice(0, 10)}${partners[10] === 'A' ? 'B' : 'A'}${partners.slice(11)}`;
    for (const token of [tampered, expired, otherProjectToken, deleted]) {
      const viaHeader = await get('/partners', { 'x-audience-token': token });
      expectGate(viaHeader);
      expect(viaHeader.body).toContain('This access token is not valid');
      const viaCookie = await get('/partners', { cookie: `quire_audience=${token}` });
      expectGate(viaCookie);
      // the useless cookie is cleared
      expect(setCookies(viaCookie.headers)[0]).toMatch(/^quire_audience=; Path=\/; Max-Age=0; HttpOnly; SameSite=Lax/);
      // a refused token hides gated entries and keeps public pages readable
      const setup = await get('/setup', { cookie: `quire_audience=${token}` });
      expect(setup.statusCode).toBe(200);
      showsNoSecret(setup.body);
    }
  });

  it('follows the profile: changed tags change what a token opens at once', async () => {
    const { profileId, token } = await issueToken(t, projectId, 'moving', ['partners']);
    expect((await get('/partners', { 'x-audience-token': token })).statusCode).toBe(200);
    const patch = await t.app.inject({ method: 'PATCH', url: `/v1/projects/${projectId}/audiences/${profileId}`, headers: bearer(t.adminKey), payload: { audiences: ['staff'] } });
    expect(patch.statusCode).toBe(200);
    expect((await get('/partners', { 'x-audience-token': token })).statusCode).toBe(401);
    const internal = await get('/internal', { 'x-audience-token': token });
    expect(internal.statusCode).toBe(200);
    expect(sidebarOf(internal.body)).not.toContain('Partner Portal');
  });
});

describe('path tricks', () => {
  it('never reaches a gated page by another form of its path', async () => {
    const forms = [
      '/partners', '/partners/', '/partners.md', '/partners.html', '/PARTNERS', '/Partners.md', '/%70artners', '/%70artners.m%64',
      '//partners', '/.//partners', '/./partners', '/x/../partners', '/%2e/partners', '/partners?x=1', '/partners#top',
      '/guides/vault', '/guides//vault', '/guides/%76ault', '/guides/vault/', '/guides/vault.md', '/guides/./vault', '//guides/vault.html',
      '/partners%00', '/partners%2f', '/partners;.md', '/partners%20',
    ];
    for (const url of forms) {
      for (const method of ['GET', 'HEAD'] as const) {
        const res = await t.app.inject({ method, url, headers: { host: HOST } });
        expect(res.statusCode, `${method} ${url}`).not.toBe(200);
        expect(res.statusCode, `${method} ${url}`).not.toBe(304);
        showsNoSecret(res.body);
      }
    }
    // conditional requests do not reveal it either
    const conditional = await get('/partners', { 'if-none-match': '*' });
    expect(conditional.statusCode).toBe(401);
  });

  it('serves every accepted form of a gated path to a visitor with access', async () => {
    for (const url of ['/partners/', '/%70artners', '//partners', '/partners.html', '/guides//vault']) {
      const res = await get(url, { 'x-audience-token': partners });
      expect(res.statusCode, url).toBe(200);
    }
  });
});

describe('denials', () => {
  it('are recorded with their reason for /access-logs', async () => {
    await get('/internal', { 'x-forwarded-for': '203.0.113.9' });
    await get('/partners', { 'x-audience-token': 'garbage.token' });
    const until = Date.now() + 10_000;
    let reasons = new Set<string>();
    let paths = new Set<string>();
    while (Date.now() < until) {
      const res = await t.app.inject({ url: `/v1/projects/${projectId}/access-logs?pageSize=100`, headers: bearer(t.adminKey) });
      const entries = res.json().data as { reason: string; path: string; host: string }[];
      reasons = new Set(entries.map((e) => e.reason));
      paths = new Set(entries.map((e) => e.path));
      if (reasons.has('gated_page') && reasons.has('invalid_token')) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(reasons).toContain('gated_page');
    expect(reasons).toContain('invalid_token');
    expect(paths).toContain('internal');
  });
});
