/**
 * Page views recorded as the site serves them (decisions.md section 7): every view of a burst is
 * counted, people and AI agents apart (user agents, `.md`, `llms.txt`), unique visitors once a day
 * without a cookie, nothing for HEAD, 404s, assets or a project with analytics switched off, and
 * searches of the site and the API counted with their results.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, type TestApp } from '../helpers/app';
import type { FixtureRepo } from '../helpers/git-repo';
import { analytics, analyticsDocsRepo, deployAnalyticsProject } from './analytics-fixture';

let t: TestApp;
let repo: FixtureRepo;
let projectId: string;
let host: string;

const BROWSER = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36';
const site = (url: string, options: { ua?: string; ip?: string; method?: 'GET' | 'HEAD' } = {}) =>
  t.app.inject({ method: options.method ?? 'GET', url, headers: { host, 'user-agent': options.ua ?? BROWSER }, remoteAddress: options.ip ?? '203.0.113.9' });

type TopPage = { path: string; views: number; people: number; agents: number };
const topPage = async (path: string): Promise<TopPage | undefined> => {
  await t.ctx.analytics.flush();
  const { status, body } = await analytics(t, projectId, 'top-pages?limit=100');
  expect(status).toBe(200);
  return (body.data as TopPage[]).find((p) => p.path === path);
};
const todayVisitors = async (): Promise<number> => {
  await t.ctx.analytics.flush();
  const { body } = await analytics(t, projectId, 'views?interval=day');
  return (body.data.buckets as { visitors: number }[]).at(-1)!.visitors;
};

beforeAll(async () => {
  t = await createTestApp({ runJobs: true });
  repo = analyticsDocsRepo();
  ({ projectId, host } = await deployAnalyticsProject(t, repo, 'analytics-views'));
}, 120_000);

afterAll(async () => {
  await t?.close();
  repo?.cleanup();
});

describe('page views', () => {
  it('counts every view of a burst of 1,000, as people, and sets no cookie', async () => {
    const answers = await Promise.all(Array.from({ length: 1000 }, (_, i) => site('/guide', { ip: `198.51.100.${i % 200}` })));
    expect(answers.every((r) => r.statusCode === 200)).toBe(true);
    expect(answers.some((r) => r.headers['set-cookie'] !== undefined)).toBe(false);
    expect(await topPage('guide')).toEqual({ path: 'guide', views: 1000, people: 1000, agents: 0 });
  });

  it('counts AI agents by user agent and agent files apart from people', async () => {
    expect((await site('/short', { ua: 'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.1; +https://openai.com/gptbot)' })).statusCode).toBe(200);
    expect((await site('/short', { ua: 'Mozilla/5.0 (compatible; ClaudeBot/1.0; +claudebot@anthropic.com)' })).statusCode).toBe(200);
    expect((await site('/short')).statusCode).toBe(200);
    expect((await site('/short.md', { ua: 'curl/8.5.0' })).statusCode).toBe(200);
    expect((await site('/llms.txt', { ua: 'python-requests/2.31' })).statusCode).toBe(200);
    expect(await topPage('short')).toEqual({ path: 'short', views: 3, people: 1, agents: 2 });
    expect(await topPage('short.md')).toMatchObject({ views: 1, agents: 1 });
    const { body } = await analytics(t, projectId, 'agents');
    const byName = new Map((body.data as { agent: string; views: number; topPaths: { path: string; views: number }[] }[]).map((a) => [a.agent, a]));
    expect(byName.get('GPTBot')).toEqual({ agent: 'GPTBot', views: 1, topPaths: [{ path: 'short', views: 1 }] });
    expect(byName.get('ClaudeBot')?.views).toBe(1);
    expect(byName.get('markdown')?.topPaths).toEqual([{ path: 'short.md', views: 1 }]);
    expect(byName.get('llms.txt')?.topPaths).toEqual([{ path: 'llms.txt', views: 1 }]);
  });

  it('does not count HEAD requests, not-found pages or assets', async () => {
    const before = await topPage('index');
    expect((await site('/', { method: 'HEAD' })).statusCode).toBe(200);
    expect((await site('/no-such-page')).statusCode).toBe(404);
    expect((await site('/openapi.json')).statusCode).toBe(200);
    expect(await topPage('index')).toEqual(before);
    expect(await topPage('no-such-page')).toBeUndefined();
    expect(await topPage('openapi.json')).toBeUndefined();
  });

  it('counts a visitor (address and user agent) once a day', async () => {
    const before = await todayVisitors();
    await site('/', { ip: '192.0.2.77', ua: 'Visitor A' });
    await site('/guide', { ip: '192.0.2.77', ua: 'Visitor A' });
    await site('/', { ip: '192.0.2.78', ua: 'Visitor A' });
    expect(await todayVisitors()).toBe(before + 2);
    const stored = await t.ctx.db.prisma.dailyVisitor.findMany({ where: { projectId } });
    expect(stored.some((v) => v.visitor.includes('192.0.2'))).toBe(false);
  });

  it('records nothing while analyticsEnabled is false', async () => {
    const off = await t.app.inject({ method: 'PATCH', url: `/v1/projects/${projectId}`, headers: bearer(t.adminKey), payload: { settings: { analyticsEnabled: false } } });
    expect(off.statusCode).toBe(200);
    const before = await topPage('stale');
    await site('/stale');
    await site(`/_quire/search?q=notes`);
    expect(await topPage('stale')).toEqual(before);
    const { body } = await analytics(t, projectId, 'searches');
    expect((body.data.top as { query: string }[]).some((s) => s.query === 'notes')).toBe(false);
    const on = await t.app.inject({ method: 'PATCH', url: `/v1/projects/${projectId}`, headers: bearer(t.adminKey), payload: { settings: { analyticsEnabled: true } } });
    expect(on.statusCode).toBe(200);
    await site('/stale');
    expect((await topPage('stale'))?.views).toBe((before?.views ?? 0) + 1);
  });

  it('counts searches of the site and the API, with those that found nothing', async () => {
    expect((await site('/_quire/search?q=Careful%20Details')).statusCode).toBe(200);
    expect((await site('/_quire/search?q=careful  details')).statusCode).toBe(200);
    expect((await site('/_quire/search?q=zyxwvut')).statusCode).toBe(200);
    const api = await t.app.inject({ url: `/v1/projects/${projectId}/search?q=zyxwvut`, headers: bearer(t.adminKey) });
    expect(api.statusCode).toBe(200);
    await t.ctx.analytics.flush();
    const { status, body } = await analytics(t, projectId, 'searches');
    expect(status).toBe(200);
    expect(body.data.top).toEqual(expect.arrayContaining([{ query: 'careful details', count: 2, noResults: 0 }, { query: 'zyxwvut', count: 2, noResults: 2 }]));
    expect(body.data.withoutResults).toEqual([{ query: 'zyxwvut', count: 2, noResults: 2 }]);
  });
});
