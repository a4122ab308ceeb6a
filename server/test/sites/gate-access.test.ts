import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, type TestApp } from '../helpers/app';
import type { FixtureRepo } from '../helpers/git-repo';
import { buildAndDeploy, createGatedProject, gatedDocsRepo, issueToken, SECRETS, setCookies, sidebarOf } from './gate-fixture';

/**
 * The site gate on previews (the same gate as production, preview links, private previews) and with
 * the project's access rules and IP allowlists, through HTTP on real builds.
 */

let t: TestApp;
let repo: FixtureRepo;
let projectId: string;
let partners: string;
let staff: string;
const PROD = 'acc-docs.localhost:4000';
const PREVIEW = 'main--acc-docs.localhost:4000';

const get = (url: string, host: string, headers: Record<string, string> = {}, remoteAddress?: string) =>
  t.app.inject({ method: 'GET', url, headers: { host, ...headers }, ...(remoteAddress ? { remoteAddress } : {}) });
const postForm = (url: string, host: string, fields: Record<string, string>, headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'POST', url, payload: new URLSearchParams(fields).toString(), headers: { host, 'content-type': 'application/x-www-form-urlencoded', ...headers } });
const api = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: unknown) =>
  t.app.inject({ method, url: `/v1/projects/${projectId}${url}`, headers: bearer(t.adminKey), ...(payload !== undefined ? { payload: payload as object } : {}) });
const cookiePair = (setCookie: string) => setCookie.split(';')[0]!;

/** Creates a preview link of the `main` preview; returns its id and its path on the preview host. */
async function previewLink(body: Record<string, unknown> = {}): Promise<{ id: string; path: string }> {
  const res = await api('POST', '/previews', { previewName: 'main', ...body });
  expect(res.statusCode).toBe(201);
  const link = res.json().data as { id: string; url: string };
  const url = new URL(link.url);
  expect(url.host).toBe(PREVIEW);
  return { id: link.id, path: url.pathname };
}

/** Turns the project's `settings.protectPreviews` on or off through the API. */
async function protectPreviews(on: boolean): Promise<void> {
  const res = await api('PATCH', '', { settings: { protectPreviews: on } });
  expect(res.statusCode).toBe(200);
  expect(res.json().data.settings.protectPreviews).toBe(on);
}

/** A team member's `quire_preview` cookie pair for the preview (through a member pass). */
async function memberCookie(): Promise<string> {
  const pass = await api('POST', '/preview-passes', { url: `http://${PREVIEW}/` });
  expect(pass.statusCode).toBe(201);
  const url = new URL(pass.json().data.url as string);
  return cookiePair(setCookies((await get(url.pathname, PREVIEW)).headers)[0]!);
}

beforeAll(async () => {
  t = await createTestApp({ runJobs: true });
  repo = gatedDocsRepo();
  // the gate on previews without links, as an unprotected project shows them; protection has its own tests below
  projectId = await createGatedProject(t, repo, 'acc', { protectPreviews: false });
  await buildAndDeploy(t, projectId);
  await buildAndDeploy(t, projectId, { preview: true });
  partners = (await issueToken(t, projectId, 'partners', ['partners'])).token;
  staff = (await issueToken(t, projectId, 'staff', ['staff'])).token;
}, 120_000);
afterAll(async () => {
  await t?.close();
  repo?.cleanup();
});

describe('previews', () => {
  it('gate their gated pages the same way as production', async () => {
    const gate = await get('/partners', PREVIEW);
    expect(gate.statusCode).toBe(401);
    expect(gate.headers['cache-control']).toBe('private, no-store');
    for (const secret of SECRETS) expect(gate.body).not.toContain(secret);
    expect(sidebarOf((await get('/setup', PREVIEW)).body)).not.toContain('Partner Portal');
    expect((await get('/partners.md', PREVIEW)).statusCode).toBe(401);
    const open = await get('/partners', PREVIEW, { 'x-audience-token': partners });
    expect(open.statusCode).toBe(200);
    expect(open.body).toContain('PARTNER-BODY');
    // the magic link works on the preview host too (its own cookie)
    const magic = await get(`/setup?_quire_token=${partners}`, PREVIEW);
    expect(magic.statusCode).toBe(302);
    expect(magic.headers.location).toBe('/');
    expect((await get('/partners', PREVIEW, { cookie: cookiePair(setCookies(magic.headers)[0]!) })).statusCode).toBe(200);
  });

  it('stay open without a link while the project does not protect them', async () => {
    expect((await get('/setup', PREVIEW)).statusCode).toBe(200);
  });
});

describe('preview links', () => {
  it('close a preview that has a password link to requests without its cookie, even when the project does not protect previews', async () => {
    expect((await get('/setup', PREVIEW)).statusCode).toBe(200);
    const { path } = await previewLink({ password: 'the closing password' });
    expect((await api('GET', '')).json().data.settings.protectPreviews).toBe(false);
    const refused = await get('/setup', PREVIEW);
    expect(refused.statusCode).toBe(401);
    expect(refused.body).toContain('This preview is private');
    expect(refused.body).not.toContain('PUBLIC-SETUP');
    const right = await postForm(path, PREVIEW, { password: 'the closing password' });
    expect((await get('/setup', PREVIEW, { cookie: cookiePair(setCookies(right.headers)[0]!) })).body).toContain('PUBLIC-SETUP');
  });

  it('open the preview with an HttpOnly SameSite=Lax cookie for that preview host, then 302 to /', async () => {
    const { path } = await previewLink();
    const res = await get(path, PREVIEW);
    expect(res.statusCode).toBe(302);
    expect(res.headers.location).toBe('/');
    const [cookie] = setCookies(res.headers);
    expect(cookie).toMatch(/^quire_preview=[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+; Path=\/; Max-Age=\d+; HttpOnly; SameSite=Lax$/);
    expect(cookie).not.toContain('Domain=');
  });

  it('ask for the password first when the link has one: wrong gets the form again (401), right opens', async () => {
    const { path } = await previewLink({ password: 'correct horse battery' });
    const page = await get(path, PREVIEW);
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain(`<form class="q-gate-form" method="post" action="${path}">`);
    expect(page.body).toContain('<label for="q-gate-password">Password</label>');
    expect(page.headers['cache-control']).toBe('private, no-store');
    const wrong = await postForm(path, PREVIEW, { password: 'wrong password' });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.body).toContain('That password is not correct');
    expect(setCookies(wrong.headers)).toEqual([]);
    const right = await postForm(path, PREVIEW, { password: 'correct horse battery' });
    expect(right.statusCode).toBe(302);
    expect(right.headers.location).toBe('/');
    expect(setCookies(right.headers)[0]).toMatch(/^quire_preview=/);
    expect((await postForm(path, PREVIEW, { password: 'correct horse battery' }, { origin: 'https://evil.com' })).statusCode).toBe(403);
  });

  it('say clearly when they were revoked (410), and 404 for an unknown link or the production host', async () => {
    const { id, path } = await previewLink();
    expect((await api('PATCH', `/previews/${id}`, { revoked: true })).statusCode).toBe(200);
    const revoked = await get(path, PREVIEW);
    expect(revoked.statusCode).toBe(410);
    expect(revoked.body).toContain('This preview link was revoked');
    expect(setCookies(revoked.headers)).toEqual([]);
    const unknown = await get(`/_quire/link/${'A'.repeat(43)}`, PREVIEW);
    expect(unknown.statusCode).toBe(404);
    expect(unknown.body).toContain('This preview link is not valid');
    expect((await get(path, PROD)).statusCode).toBe(404);
  });
});

describe('a project that protects its previews', () => {
  beforeAll(async () => protectPreviews(true));
  afterAll(async () => protectPreviews(false));

  it('shows its previews only through a preview link, and production as before', async () => {
    const refused = await get('/setup', PREVIEW);
    expect(refused.statusCode).toBe(401);
    expect(refused.body).toContain('This preview is private');
    expect(refused.body).not.toContain('PUBLIC-SETUP');
    expect(refused.headers['cache-control']).toBe('private, no-store');
    // nothing of the preview's navigation shows either
    expect(refused.body).not.toContain('Intro');
    expect((await get('/setup', PROD)).statusCode).toBe(200);

    const { id, path } = await previewLink();
    const cookie = cookiePair(setCookies((await get(path, PREVIEW)).headers)[0]!);
    const open = await get('/setup', PREVIEW, { cookie });
    expect(open.statusCode).toBe(200);
    expect(open.body).toContain('PUBLIC-SETUP');
    // the audience gate still applies inside
    expect((await get('/partners', PREVIEW, { cookie })).statusCode).toBe(401);
    expect((await get('/partners', PREVIEW, { cookie: `${cookie}; quire_audience=${partners}` })).statusCode).toBe(200);
    // a forged or foreign cookie opens nothing
    expect((await get('/setup', PREVIEW, { cookie: `${cookie.slice(0, -3)}abc` })).statusCode).toBe(401);
    expect((await get('/setup', PREVIEW, { cookie: `quire_preview=${partners}` })).statusCode).toBe(401);

    // revoking the link closes the preview to its cookie (within seconds)
    expect((await api('PATCH', `/previews/${id}`, { revoked: true })).statusCode).toBe(200);
    const until = Date.now() + 15_000;
    let status = 200;
    while (status === 200 && Date.now() < until) {
      status = (await get('/setup', PREVIEW, { cookie })).statusCode;
      if (status === 200) await new Promise((r) => setTimeout(r, 200));
    }
    expect(status).toBe(401);
  });
});

describe('access rules and IP allowlists', () => {
  it('refuse the paths a rule guards to visitors without one of its audiences, on every form of the path', async () => {
    const created = await api('POST', '/access-rules', { name: 'Guides for staff', pathPattern: 'guides/**', audiences: ['staff'] });
    expect(created.statusCode).toBe(201);
    const ruleId = (created.json().data as { id: string }).id;
    try {
      for (const url of ['/guides/intro', '/guides/intro.md', '/guides//intro', '/guides/intro/']) {
        const res = await get(url, PROD);
        expect(res.statusCode, url).toBe(401);
        expect(res.body).not.toContain('PUBLIC-INTRO');
      }
      expect((await get('/guides/intro', PROD)).body).toContain('This page needs access');
      const staffRes = await get('/guides/intro', PROD, { 'x-audience-token': staff });
      expect(staffRes.statusCode).toBe(200);
      expect(staffRes.body).toContain('PUBLIC-INTRO');
      // the rule does not reach other paths; previews follow the same rules (for a member too)
      expect((await get('/setup', PROD)).statusCode).toBe(200);
      const member = await memberCookie();
      expect((await get('/setup', PREVIEW, { cookie: member })).statusCode).toBe(200);
      const previewIntro = await get('/guides/intro', PREVIEW, { cookie: member });
      expect(previewIntro.statusCode).toBe(401);
      expect(previewIntro.body).toContain('This page needs access');
      // a gated page under the rule needs both: staff opens the rule, not the partners page
      expect((await get('/guides/vault', PROD, { 'x-audience-token': staff })).statusCode).toBe(401);
    } finally {
      expect((await api('DELETE', `/access-rules/${ruleId}`)).statusCode).toBe(204);
    }
    expect((await get('/guides/intro', PROD)).statusCode).toBe(200);
  });

  it('refuse addresses outside an allowlist with 403, and serve those inside', async () => {
    const created = await api('POST', '/ip-allowlists', { name: 'Office', cidrs: ['203.0.113.0/24'], paths: ['setup'] });
    expect(created.statusCode).toBe(201);
    const allowlistId = (created.json().data as { id: string }).id;
    try {
      const outside = await get('/setup', PROD, {}, '198.51.100.7');
      expect(outside.statusCode).toBe(403);
      expect(outside.body).toContain('not available from your network');
      expect(outside.body).not.toContain('PUBLIC-SETUP');
      expect(outside.headers['cache-control']).toBe('private, no-store');
      expect((await get('/setup.md', PROD, {}, '198.51.100.7')).statusCode).toBe(403);
      const inside = await get('/setup', PROD, {}, '203.0.113.5');
      expect(inside.statusCode).toBe(200);
      expect(inside.body).toContain('PUBLIC-SETUP');
      expect((await get('/', PROD, {}, '198.51.100.7')).statusCode).toBe(200);
    } finally {
      expect((await api('DELETE', `/ip-allowlists/${allowlistId}`)).statusCode).toBe(204);
    }
  });

  it('record their denials with the rule that refused', async () => {
    const until = Date.now() + 10_000;
    let entries: { reason: string; rule: { id: string; type: string } | null }[] = [];
    while (Date.now() < until) {
      entries = (await api('GET', '/access-logs?pageSize=100')).json().data as typeof entries;
      const reasons = new Set(entries.map((e) => e.reason));
      if (reasons.has('access_rule') && reasons.has('ip_allowlist') && reasons.has('preview_link')) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(entries.find((e) => e.reason === 'access_rule')?.rule?.type).toBe('access_rule');
    expect(entries.find((e) => e.reason === 'ip_allowlist')?.rule?.type).toBe('ip_allowlist');
    expect(entries.some((e) => e.reason === 'preview_link')).toBe(true);
  });
});
