import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app';
import type { FixtureRepo } from '../helpers/git-repo';
import { buildAndDeploy, createGatedProject, gatedDocsRepo, issueToken, SECRETS } from './gate-fixture';

/**
 * The site's 404 page through HTTP on a real build: a search box, and "Did you mean" links to the
 * pages whose paths are closest to the requested one (computed per request; gated pages only for a
 * visitor whose token opens them, hidden pages never).
 */

let t: TestApp;
let repo: FixtureRepo;
let partners: string;
const HOST = 'suggest-docs.localhost:4000';
const get = (url: string, headers: Record<string, string> = {}) => t.app.inject({ method: 'GET', url, headers: { host: HOST, ...headers } });

/** The "Did you mean" links of a 404 page: `[{href, title}]`, in order. */
function didYouMean(html: string): { href: string; title: string }[] {
  const start = html.indexOf('<section class="q-suggest"');
  if (start === -1) return [];
  const section = html.slice(start, html.indexOf('</section>', start));
  return [...section.matchAll(/<a href="([^"]*)">([^<]*)<\/a>/g)].map((m) => ({ href: m[1]!, title: m[2]! }));
}

beforeAll(async () => {
  t = await createTestApp({ runJobs: true });
  repo = gatedDocsRepo();
  const projectId = await createGatedProject(t, repo, 'suggest');
  await buildAndDeploy(t, projectId);
  partners = (await issueToken(t, projectId, 'partners', ['partners'])).token;
}, 120_000);
afterAll(async () => {
  await t?.close();
  repo?.cleanup();
});

describe('the not-found page', () => {
  it('offers a search box and links to the pages closest to a mistyped path', async () => {
    const res = await get('/setpu');
    expect(res.statusCode).toBe(404);
    expect(res.body).toMatch(/<button class="q-search-btn q-search-btn-inline"[^>]*aria-label="Search the documentation"/);
    expect(res.body).toContain('<section class="q-suggest" aria-label="Did you mean"><h2>Did you mean</h2>');
    expect(didYouMean(res.body)[0]).toEqual({ href: '/setup', title: 'Setup' });
    expect(didYouMean((await get('/guides/intr')).body)[0]).toEqual({ href: '/guides/intro', title: 'Intro' });
    // a page moved to another folder is found by its name
    expect(didYouMean((await get('/docs/intro.html')).body)[0]).toEqual({ href: '/guides/intro', title: 'Intro' });
  });

  it('suggests nothing when no page is close, and never more than five', async () => {
    const res = await get('/completely-unrelated-words');
    expect(res.statusCode).toBe(404);
    expect(res.body).not.toContain('Did you mean');
    expect(didYouMean((await get('/guides')).body).length).toBeLessThanOrEqual(5);
  });

  it('never suggests a gated page to a visitor without access', async () => {
    for (const url of ['/partnrs', '/guides/vaul', '/internl']) {
      const res = await get(url);
      expect(res.statusCode).toBe(404);
      for (const secret of SECRETS) expect(res.body).not.toContain(secret);
      expect(res.body).not.toMatch(/href="\/(partners|internal|guides\/vault)"/);
    }
  });

  it('suggests a gated page to a visitor whose token opens it, privately', async () => {
    const res = await get('/partnrs', { 'x-audience-token': partners });
    expect(res.statusCode).toBe(404);
    expect(didYouMean(res.body)[0]).toEqual({ href: '/partners', title: 'Partner Portal' });
    expect(res.headers['cache-control']).toBe('private, no-store');
    // the same mistake without the token: no gated link, and the answer may be cached
    const anonymous = await get('/partnrs');
    expect(anonymous.body).not.toContain('Partner Portal');
    expect(anonymous.headers['cache-control']).not.toContain('private');
  });

  it('sends the suggestions compressed too, the same each time', async () => {
    const first = await get('/setpu', { 'accept-encoding': 'br' });
    expect(first.headers['content-encoding']).toBe('br');
    const html = zlib.brotliDecompressSync(first.rawPayload).toString('utf8');
    expect(didYouMean(html)[0]).toEqual({ href: '/setup', title: 'Setup' });
    const again = await get('/setpu', { 'accept-encoding': 'br' });
    expect(again.headers.etag).toBe(first.headers.etag);
    expect(again.rawPayload.equals(first.rawPayload)).toBe(true);
  });
});
