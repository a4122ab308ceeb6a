/**
 * The site's feedback endpoint `/_quire/feedback/*` on a real build with gated pages (decisions.md
 * sections 6 and 7): the API's bodies and answers (the record holds `pagePath` as sent), the same
 * records and stats as the API, gated pages answered 404 to a reader without a token that opens them,
 * the page must exist, 405 for other methods, feedback given on a preview host counted nowhere.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app';
import { FEEDBACK_WRITE_LIMIT } from '../../src/services/feedback';
import type { FixtureRepo } from '../helpers/git-repo';
import { buildAndDeploy, createGatedProject, gatedDocsRepo, issueToken } from './gate-fixture';

let t: TestApp;
let repo: FixtureRepo;
let projectId: string;
let partners: string;
const HOST = 'fb-docs.localhost:4000';
/** The host of the project's preview of its main branch. */
const PREVIEW_HOST = 'main--fb-docs.localhost:4000';

const site = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown, headers: Record<string, string> = {}) =>
  t.app.inject({ method, url, headers: { host: HOST, ...(payload !== undefined ? { 'content-type': 'application/json' } : {}), ...headers }, ...(payload !== undefined ? { payload: JSON.stringify(payload) } : {}) });

beforeAll(async () => {
  t = await createTestApp({ runJobs: true });
  repo = gatedDocsRepo();
  // previews open to everyone: this file is about feedback, not preview protection
  projectId = await createGatedProject(t, repo, 'fb', { protectPreviews: false });
  await buildAndDeploy(t, projectId);
  await buildAndDeploy(t, projectId, { preview: true });
  partners = (await issueToken(t, projectId, 'partners', ['partners'])).token;
}, 180_000);

afterAll(async () => {
  await t?.close();
  repo?.cleanup();
});

describe('site feedback endpoint', () => {
  it('records a page answer with the API shape, and the API sees it', async () => {
    const res = await site('POST', '/_quire/feedback/page', { pagePath: '/setup', helpful: false, comment: 'Needs a Windows section.', visitorId: 'v-9' });
    expect(res.statusCode).toBe(201);
    expect(res.headers['cache-control']).toBe('private, no-store');
    expect(res.json().data).toEqual({ id: expect.stringMatching(/^fbk_/), pagePath: '/setup', helpful: false, comment: 'Needs a Windows section.', visitorId: 'v-9', createdAt: expect.any(String) });
    const stats = await site('GET', '/_quire/feedback/page?pagePath=setup');
    expect(stats.json()).toEqual({ data: { helpful: 0, notHelpful: 1, total: 1 } });
    const api = await t.app.inject({ url: `/v1/projects/${projectId}/feedback/page?pagePath=setup` });
    expect(api.json()).toEqual({ data: { helpful: 0, notHelpful: 1, total: 1 } });
  });

  it('records section votes and answers their stats', async () => {
    expect((await site('POST', '/_quire/feedback/section', { pagePath: 'guides/intro', sectionId: 'overview', vote: 'up' })).statusCode).toBe(201);
    const res = await site('GET', '/_quire/feedback/section?pagePath=/guides/intro/');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ data: [{ sectionId: 'overview', upvotes: 1, downvotes: 0 }] });
  });

  it('takes the site root as the home page, keeping the path as sent in the record', async () => {
    expect((await site('POST', '/_quire/feedback/page', { pagePath: '/', helpful: true })).json().data.pagePath).toBe('/');
    expect((await site('GET', '/_quire/feedback/page?pagePath=index')).json().data.helpful).toBe(1);
  });

  it('stores feedback given on a preview host as preview feedback, counted in no statistic', async () => {
    const stats = async () => ({
      page: (await t.app.inject({ url: `/v1/projects/${projectId}/feedback/page?pagePath=guides/intro` })).json().data,
      sections: (await t.app.inject({ url: `/v1/projects/${projectId}/feedback/section?pagePath=guides/intro` })).json().data,
      pages: (await t.app.inject({ url: `/v1/projects/${projectId}/feedback/pages?pageSize=100`, headers: { authorization: `Bearer ${t.adminKey}` } })).json().data,
      health: (await t.app.inject({ url: `/v1/projects/${projectId}/analytics/health?pageSize=100`, headers: { authorization: `Bearer ${t.adminKey}` } })).json().data,
    });
    const before = await stats();
    const onPreview = { host: PREVIEW_HOST };
    const page = await site('POST', '/_quire/feedback/page', { pagePath: 'guides/intro', helpful: false, comment: 'Preview only.' }, onPreview);
    expect(page.statusCode).toBe(201);
    expect((await site('POST', '/_quire/feedback/section', { pagePath: 'guides/intro', sectionId: 'overview', vote: 'down' }, onPreview)).statusCode).toBe(201);
    expect((await t.ctx.db.prisma.pageFeedback.findUniqueOrThrow({ where: { id: page.json().data.id } })).deployment).toBe('preview');
    expect(await stats()).toEqual(before);
    expect((await site('GET', '/_quire/feedback/page?pagePath=guides/intro', undefined, onPreview)).json().data).toEqual(before.page);
  });

  it('answers 404 for a gated page without a token that opens it, and takes it with one', async () => {
    const before = await t.ctx.db.prisma.pageFeedback.count({ where: { projectId, pagePath: 'partners' } });
    for (const headers of [{}, { 'x-audience-token': 'forged.token' }] as Record<string, string>[]) {
      const write = await site('POST', '/_quire/feedback/page', { pagePath: 'partners', helpful: true }, headers);
      expect(write.statusCode).toBe(404);
      expect(write.json().error.code).toBe('not_found');
      expect((await site('GET', '/_quire/feedback/page?pagePath=partners', undefined, headers)).statusCode).toBe(404);
      expect((await site('POST', '/_quire/feedback/section', { pagePath: 'guides/vault', sectionId: 'a', vote: 'up' }, headers)).statusCode).toBe(404);
    }
    expect(await t.ctx.db.prisma.pageFeedback.count({ where: { projectId, pagePath: 'partners' } })).toBe(before);
    const opened = await site('POST', '/_quire/feedback/page', { pagePath: 'partners', helpful: true }, { 'x-audience-token': partners });
    expect(opened.statusCode).toBe(201);
    const withCookie = await site('GET', '/_quire/feedback/page?pagePath=partners', undefined, { cookie: `quire_audience=${partners}` });
    expect(withCookie.json()).toEqual({ data: { helpful: 1, notHelpful: 0, total: 1 } });
    expect(withCookie.headers['cache-control']).toBe('private, no-store');
  });

  it('answers 404 for a page the site does not have', async () => {
    const res = await site('POST', '/_quire/feedback/page', { pagePath: 'no/such/page', helpful: true });
    expect(res.statusCode).toBe(404);
    expect(res.json().error.details).toEqual({ field: 'pagePath', issue: 'no such page' });
  });

  it.each([
    [{ helpful: true }, 'pagePath', 'is required'],
    [{ pagePath: 'setup', helpful: true, comment: 'c'.repeat(1001) }, 'comment', undefined],
    [{ pagePath: 'setup', helpful: true, comment: 'nul\u0000' }, 'comment', undefined],
    [{ pagePath: 'setup', helpful: true, extra: 1 }, 'extra', 'is not a known field'],
  ])('refuses page body %j with 400 naming %s', async (payload, field, issue) => {
    const res = await site('POST', '/_quire/feedback/page', payload);
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toMatchObject({ code: 'invalid_request', details: { field, ...(issue ? { issue } : {}) } });
  });

  it('refuses a section comment over 500 characters and a bad vote', async () => {
    for (const payload of [{ pagePath: 'setup', sectionId: 'a', vote: 'up', comment: 'c'.repeat(501) }, { pagePath: 'setup', sectionId: 'a', vote: 'meh' }]) {
      const res = await site('POST', '/_quire/feedback/section', payload);
      expect(res.statusCode).toBe(400);
      expect(res.json().error.code).toBe('invalid_request');
    }
  });

  it('refuses a body that is not JSON', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/_quire/feedback/page', headers: { host: HOST, 'content-type': 'text/plain' }, payload: 'helpful' });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.details.field).toBe('body');
  });

  it('limits writes per client IP: 429 rate_limited past the limit, nothing stored', async () => {
    const remoteAddress = '10.9.9.9';
    let accepted = 0;
    let limited: Awaited<ReturnType<typeof site>> | undefined;
    // fixed one-minute windows: a window may end during the loop, so allow up to two windows' worth
    for (let i = 0; i <= 2 * FEEDBACK_WRITE_LIMIT && !limited; i++) {
      const res = await t.app.inject({ method: 'POST', url: '/_quire/feedback/section', remoteAddress, headers: { host: HOST, 'content-type': 'application/json' }, payload: JSON.stringify({ pagePath: 'setup', sectionId: 'flood', vote: 'down' }) });
      if (res.statusCode === 429) limited = res;
      else accepted++;
    }
    expect(accepted).toBeGreaterThanOrEqual(FEEDBACK_WRITE_LIMIT);
    expect(limited?.json().error.code).toBe('rate_limited');
    expect(Number(limited!.headers['retry-after'])).toBeGreaterThan(0);
    expect(await t.ctx.db.prisma.sectionFeedback.count({ where: { projectId, sectionId: 'flood' } })).toBe(accepted);
  });

  it('answers 405 with Allow for other methods and 404 for other paths', async () => {
    for (const method of ['PUT', 'DELETE'] as const) {
      const res = await site(method, '/_quire/feedback/page');
      expect(res.statusCode).toBe(405);
      expect(res.headers.allow).toBe('GET, HEAD, POST');
    }
    expect((await site('GET', '/_quire/feedback/other')).statusCode).toBe(404);
  });
});
