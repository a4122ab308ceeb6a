import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PREVIEW_PASSWORD_LIMITS } from '../../src/access/preview-links';
import { secretKeyOf } from '../../src/git/secret-box';
import { PREVIEW_PASS_SECONDS, previewPassKey, signPreviewPass } from '../../src/access/preview-access';
import { bearer, createKey, createOrgWithKey, createTestApp, type TestApp } from '../helpers/app';
import type { FixtureRepo } from '../helpers/git-repo';
import { buildAndDeploy, createGatedProject, gatedDocsRepo, setCookies } from './gate-fixture';

/**
 * Closed previews (decisions.md section 11: "Previews that have a preview link open only through a
 * link (`settings.protectPreviews`, default true)"): a new project's previews are private, team
 * members open them with a member pass (`POST .../preview-passes`, `/_quire/pass/<pass>`), and
 * preview-link passwords are throttled per link and per address (CWE-307). Through HTTP on a real
 * preview build.
 */

let t: TestApp;
let repo: FixtureRepo;
let projectId: string;
const PROD = 'pva-docs.localhost:4000';
const PREVIEW = 'main--pva-docs.localhost:4000';

const get = (url: string, host: string, headers: Record<string, string> = {}) => t.app.inject({ method: 'GET', url, headers: { host, ...headers } });
const postForm = (url: string, fields: Record<string, string>, remoteAddress: string) =>
  t.app.inject({
    method: 'POST',
    url,
    payload: new URLSearchParams(fields).toString(),
    headers: { host: PREVIEW, 'content-type': 'application/x-www-form-urlencoded' },
    remoteAddress,
  });
const api = (method: 'GET' | 'POST', url: string, payload?: object, key = t.adminKey) =>
  t.app.inject({ method, url: `/v1/projects/${projectId}${url}`, headers: bearer(key), ...(payload ? { payload } : {}) });
const cookiePair = (setCookie: string) => setCookie.split(';')[0]!;

/** A password link of the `main` preview; returns its path on the preview host. */
async function passwordLink(password: string): Promise<string> {
  const res = await api('POST', '/previews', { previewName: 'main', password });
  expect(res.statusCode).toBe(201);
  return new URL(res.json().data.url as string).pathname;
}

beforeAll(async () => {
  t = await createTestApp({ runJobs: true });
  repo = gatedDocsRepo();
  projectId = await createGatedProject(t, repo, 'pva');
  await buildAndDeploy(t, projectId, { preview: true });
}, 120_000);
afterAll(async () => {
  await t?.close();
  repo?.cleanup();
});

describe('a new project', () => {
  it('protects its previews: a visitor without a link gets the private page', async () => {
    expect((await api('GET', '')).json().data.settings.protectPreviews).toBe(true);
    const refused = await get('/setup', PREVIEW);
    expect(refused.statusCode).toBe(401);
    expect(refused.body).toContain('This preview is private');
    expect(refused.body).not.toContain('PUBLIC-SETUP');
    expect(refused.headers['cache-control']).toBe('private, no-store');
  });
});

describe('member passes', () => {
  it('open the preview for a member with a read-only key, on the page asked for, for 12 hours', async () => {
    const { key } = await createKey(t, ['projects:read']);
    const res = await api('POST', '/preview-passes', { url: `http://${PREVIEW}/setup?utm=x` }, key);
    expect(res.statusCode).toBe(201);
    const pass = res.json().data as { url: string; previewName: string; expiresAt: string };
    expect(pass.url).toMatch(/^http:\/\/main--pva-docs\.localhost:4000\/_quire\/pass\/[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/);
    expect(pass.previewName).toBe('main');
    expect(Date.parse(pass.expiresAt) - Date.now()).toBeGreaterThan((PREVIEW_PASS_SECONDS - 60) * 1000);

    const opened = await get(new URL(pass.url).pathname, PREVIEW);
    expect(opened.statusCode).toBe(302);
    expect(opened.headers.location).toBe('/setup');
    const [cookie] = setCookies(opened.headers);
    expect(cookie).toMatch(/^quire_preview=[A-Za-z0-9_.-]+; Path=\/; Max-Age=43200; HttpOnly; SameSite=Lax$/);
    const page = await get('/setup', PREVIEW, { cookie: cookiePair(cookie!) });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('PUBLIC-SETUP');
    // the audience gate still applies inside
    expect((await get('/partners', PREVIEW, { cookie: cookiePair(cookie!) })).statusCode).toBe(401);
  });

  it('open only their own preview, only while valid, and never stand for a cookie', async () => {
    const pass = new URL((await api('POST', '/preview-passes', { url: `http://${PREVIEW}/` })).json().data.url as string).pathname;
    const value = pass.slice(pass.lastIndexOf('/') + 1);
    const tampered = await get(`${pass.slice(0, -2)}AA`, PREVIEW);
    expect(tampered.statusCode).toBe(410);
    expect(tampered.body).toContain('This member link is no longer valid');
    expect(setCookies(tampered.headers)).toEqual([]);
    expect((await get(pass, PROD)).statusCode).toBe(404);
    expect((await get(pass, 'other--pva-docs.localhost:4000')).statusCode).toBe(404);
    expect((await get('/setup', PREVIEW, { cookie: `quire_preview=${value}` })).statusCode).toBe(401);

    const key = previewPassKey(secretKeyOf(t.ctx.config));
    const old = signPreviewPass(key, { projectId, previewName: 'main', path: '/' }, Date.now() - (PREVIEW_PASS_SECONDS + 1) * 1000);
    expect((await get(`/_quire/pass/${old.pass}`, PREVIEW)).statusCode).toBe(410);
  });

  it('are given only for a preview URL of the project, and only to its organization', async () => {
    for (const url of [`http://${PROD}/setup`, 'http://main--other-docs.localhost:4000/', 'not a url', 'http://example.com/']) {
      const res = await api('POST', '/preview-passes', { url });
      expect(res.statusCode, url).toBe(400);
      expect(res.json().error.details.field).toBe('url');
    }
    const other = await createOrgWithKey(t);
    expect((await api('POST', '/preview-passes', { url: `http://${PREVIEW}/` }, other.key)).statusCode).toBe(404);
  });
});

describe('preview link passwords', () => {
  const { link: perLink, ip: perIp } = PREVIEW_PASSWORD_LIMITS.per;
  const windowSeconds = PREVIEW_PASSWORD_LIMITS.windowMs / 1000;

  /** Expects a 429 "wait" page with Retry-After within the window, and no cookie. */
  function expectThrottled(res: Awaited<ReturnType<typeof postForm>>): void {
    expect(res.statusCode).toBe(429);
    const retryAfter = Number(res.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(windowSeconds - 120);
    expect(retryAfter).toBeLessThanOrEqual(windowSeconds);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.body).toContain('Too many wrong passwords');
    expect(res.body).not.toContain('<form');
    expect(setCookies(res.headers)).toEqual([]);
  }

  it(`refuse even the right password with 429 after ${perLink} wrong ones for the link, from any address`, async () => {
    const path = await passwordLink('the right password');
    for (let i = 0; i < perLink; i++) expect((await postForm(path, { password: `guess ${i}` }, '198.51.100.1')).statusCode).toBe(401);
    expectThrottled(await postForm(path, { password: 'the right password' }, '198.51.100.1'));
    expectThrottled(await postForm(path, { password: 'the right password' }, '198.51.100.2'));
  }, 60_000);

  it(`count an address's wrong passwords over all links: ${perIp} refuse it everywhere, other addresses still open`, async () => {
    const ip = '198.51.100.3';
    const first = await passwordLink('the first password');
    const last = await passwordLink('the last password');
    for (let i = 0; i < perLink; i++) expect((await postForm(first, { password: 'a wrong guess' }, ip)).statusCode).toBe(401);
    // the rest of the address's wrong guesses, on other links, counted as the gate counts them (without an scrypt run each)
    for (let i = perLink; i < perIp; i++) expect(await t.ctx.previewPasswordThrottle.attempt({ link: `pvl_other${Math.floor(i / perLink)}`, ip })).toBe(0);
    expectThrottled(await postForm(last, { password: 'the last password' }, ip));
    const other = await postForm(last, { password: 'the last password' }, '198.51.100.4');
    expect(other.statusCode).toBe(302);
    expect(setCookies(other.headers)[0]).toMatch(/^quire_preview=/);
  }, 60_000);
});
