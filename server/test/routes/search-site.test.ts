/**
 * The site's own search, `GET /_quire/search` on the site host (decisions.md sections 6 and 7):
 * gated pages only for a reader whose audience token (header or cookie) opens them, hidden pages
 * never, path-relative URLs, version scoping, input validation, no caching of answers that depend
 * on the reader, and the deployment's index files never served raw.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, type TestApp } from '../helpers/app';
import type { FixtureRepo } from '../helpers/git-repo';
import { issueToken } from '../sites/gate-fixture';
import { deploySearchProject, searchDocsRepo, WORDS } from './search-fixture';

let t: TestApp;
let repo: FixtureRepo;
let projectId: string;
let host: string;
let partnerToken: string;

type Hit = { title: string; path: string; url: string; section: string | null; snippet: string; version: string | null };

const site = (url: string, headers: Record<string, string> = {}, method: 'GET' | 'POST' | 'HEAD' = 'GET') => t.app.inject({ method, url, headers: { host, ...headers } });
const hits = async (query: string, headers: Record<string, string> = {}) => {
  const res = await site(`/_quire/search?${query}`, headers);
  expect(res.statusCode).toBe(200);
  return (res.json() as { data: Hit[] }).data;
};

beforeAll(async () => {
  t = await createTestApp({ runJobs: true });
  repo = searchDocsRepo();
  ({ projectId, host } = await deploySearchProject(t, repo, 'search-site'));
  partnerToken = (await issueToken(t, projectId, 'partners', ['partners'])).token;
}, 120_000);

afterAll(async () => {
  await t?.close();
  repo?.cleanup();
});

describe('site search', () => {
  it('answers JSON hits with path-relative URLs', async () => {
    const res = await site(`/_quire/search?q=${WORDS.install}`);
    expect(res.headers['content-type']).toContain('application/json');
    const [hit] = (res.json() as { data: Hit[] }).data;
    expect(hit).toMatchObject({ title: 'Setup', path: 'setup', section: 'Install the CLI', url: '/setup#install-the-cli', version: 'v2' });
    expect(hit!.snippet).toContain('<mark>');
  });

  it('leaves gated pages out for a visitor without a token, and never answers hidden pages', async () => {
    expect(await hits(`q=${WORDS.partner}`)).toEqual([]);
    expect(await hits(`q=${WORDS.internal}`)).toEqual([]);
    expect(await hits(`q=${WORDS.hidden}`, { 'x-audience-token': partnerToken })).toEqual([]);
  });

  it('finds a gated page for a token that opens it, by header or by cookie, and only those', async () => {
    expect((await hits(`q=${WORDS.partner}`, { 'x-audience-token': partnerToken }))[0]).toMatchObject({ path: 'partners' });
    expect((await hits(`q=${WORDS.partner}`, { cookie: `quire_audience=${partnerToken}` }))[0]).toMatchObject({ path: 'partners' });
    expect(await hits(`q=${WORDS.internal}`, { 'x-audience-token': partnerToken })).toEqual([]);
    expect(await hits(`q=${WORDS.partner}`, { 'x-audience-token': 'forged.token' })).toEqual([]);
  });

  it('is never stored by caches when the answer depends on the reader', async () => {
    const res = await site(`/_quire/search?q=${WORDS.partner}`, { 'x-audience-token': partnerToken });
    expect(res.headers['cache-control']).toBe('private, no-store');
  });

  it('searches the version asked for', async () => {
    const [hit] = await hits(`q=${WORDS.legacy}&version=old`);
    expect(hit).toMatchObject({ path: 'setup', version: 'old', url: '/old/setup#install-the-cli' });
    expect(await hits(`q=${WORDS.legacy}`)).toEqual([]);
    const unknown = await site('/_quire/search?q=setup&version=nope');
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().error.code).toBe('not_found');
  });

  it.each([
    ['', 'q'],
    ['q=', 'q'],
    [`q=${'b'.repeat(201)}`, 'q'],
    ['q=setup&limit=0', 'limit'],
    ['q=setup&limit=51', 'limit'],
    ['q=a%00b', 'q'],
  ])('refuses "%s" with 400 naming %s', async (query, field) => {
    const res = await site(`/_quire/search?${query}`);
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toMatchObject({ code: 'invalid_request', details: { field } });
  });

  it('keeps to the language asked for: a site without languages has no page of language fr', async () => {
    expect((await hits(`q=${WORDS.install}`)).length).toBeGreaterThan(0);
    expect(await hits(`q=${WORDS.install}&language=fr`)).toEqual([]);
    const api = await t.app.inject({ url: `/v1/projects/${projectId}/search?q=${WORDS.install}&language=fr`, headers: bearer(t.adminKey) });
    expect(api.statusCode).toBe(200);
    expect(api.json().data).toEqual([]);
    const tooLong = await site(`/_quire/search?q=${WORDS.install}&language=${'x'.repeat(36)}`);
    expect(tooLong.statusCode).toBe(400);
    expect(tooLong.json().error.details.field).toBe('language');
  });

  it('answers 404 (search_disabled) while the project turns search off; the API keeps answering', async () => {
    const patch = (searchEnabled: boolean) => t.app.inject({ method: 'PATCH', url: `/v1/projects/${projectId}`, headers: bearer(t.adminKey), payload: { settings: { searchEnabled } } });
    expect((await patch(false)).statusCode).toBe(200);
    try {
      const off = await site(`/_quire/search?q=${WORDS.install}`);
      expect(off.statusCode).toBe(404);
      expect(off.json().error).toMatchObject({ code: 'not_found', details: { reason: 'search_disabled' } });
      const api = await t.app.inject({ url: `/v1/projects/${projectId}/search?q=${WORDS.install}`, headers: bearer(t.adminKey) });
      expect(api.statusCode).toBe(200);
      expect(api.json().data.length).toBeGreaterThan(0);
    } finally {
      expect((await patch(true)).statusCode).toBe(200);
    }
    expect((await hits(`q=${WORDS.install}`)).length).toBeGreaterThan(0);
  });

  it('takes GET and HEAD only', async () => {
    const res = await site('/_quire/search?q=setup', {}, 'POST');
    expect(res.statusCode).toBe(405);
    expect(res.headers.allow).toBe('GET, HEAD');
  });
});

describe('index files', () => {
  it('are never served raw, whatever form the path takes', async () => {
    const dep = await t.ctx.db.prisma.deployment.findFirst({ where: { projectId, kind: 'production' } });
    const listed = [...(await t.ctx.deploymentStore.open(dep!.dir).list())].filter((f) => f.startsWith('_quire/search/'));
    expect(listed.length).toBeGreaterThan(0);
    for (const file of listed) {
      for (const url of [`/${file}`, `/${file.replace('search', '%73earch')}`, `//${file.replace('/search/', '//search//')}`, `/${file}`.replace(/\.[a-z]+$/, '')]) {
        const res = await site(url, { 'x-audience-token': partnerToken });
        expect(res.statusCode, url).toBe(404);
        expect(res.body).not.toContain(WORDS.partner);
      }
    }
  });
});
