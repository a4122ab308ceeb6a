import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PREVIEW_PASSWORD_LIMITS } from '../../src/access/preview-links';
import { bearer, createTestApp, type TestApp } from '../helpers/app';
import type { FixtureRepo } from '../helpers/git-repo';
import { buildAndDeploy, createGatedProject, gatedDocsRepo, setCookies } from './gate-fixture';

/**
 * Preview-link passwords are throttled per link and per address (CWE-307;
 * access/preview-links.ts `PREVIEW_PASSWORD_LIMITS`). Through HTTP on a real preview build.
 */

let t: TestApp;
let repo: FixtureRepo;
let projectId: string;
const PREVIEW = 'main--pva-docs.localhost:4000';

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
