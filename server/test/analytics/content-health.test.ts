/**
 * Content health and per-page health (interface-spec.md "Content health", "Limits": stale after
 * more than 90 days), the views series and the chat summary, and every analytics route's refusals.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createKey, createTestApp, type TestApp } from '../helpers/app';
import type { FixtureRepo } from '../helpers/git-repo';
import { buildAndDeploy } from '../sites/gate-fixture';
import { analytics, analyticsDocsRepo, deployAnalyticsProject } from './analytics-fixture';

let t: TestApp;
let repo: FixtureRepo;
let projectId: string;

type Component = { points: number; max: number; detail: string };
type PageHealth = { path: string; title: string; score: number; owner: { id: string } | null; lastUpdated: string | null; components: Record<'freshness' | 'feedback' | 'brokenLinks' | 'completeness', Component> };

beforeAll(async () => {
  t = await createTestApp({ runJobs: true });
  repo = analyticsDocsRepo();
  ({ projectId } = await deployAnalyticsProject(t, repo, 'analytics-health'));
  // a search without results is a content gap
  const gap = await t.app.inject({ url: `/v1/projects/${projectId}/search?q=${encodeURIComponent('Billing Export')}`, headers: bearer(t.adminKey) });
  expect(gap.statusCode).toBe(200);
  await t.ctx.search.gaps.settle();
}, 120_000);

afterAll(async () => {
  await t?.close();
  repo?.cleanup();
});

describe('content health', () => {
  it('lists the stale page, the gap and the API coverage', async () => {
    const { status, body } = await analytics(t, projectId, 'content-health');
    expect(status).toBe(200);
    const health = body.data as { score: number; stalePages: unknown[]; gaps: unknown[]; coveragePercent: number };
    expect(health.stalePages).toEqual([{ path: 'stale', lastUpdated: '2020-01-15T00:00:00.000Z' }]);
    expect(health.gaps).toEqual([{ topic: 'billing export', source: 'search', frequency: 1 }]);
    // GET /pets (generated page) and POST /pets (MDX frontmatter) of three public operations
    expect(health.coveragePercent).toBe(67);
    const pages = (await analytics(t, projectId, 'health?pageSize=100')).body.data as PageHealth[];
    expect(health.score).toBe(Math.round(pages.reduce((n, p) => n + p.score, 0) / pages.length));
  });

  it('scores each page from its components, worst first, with its owner', async () => {
    const owner = await t.ctx.db.prisma.membership.findFirstOrThrow({ where: { orgId: t.app.bootstrap.orgId!, role: 'owner' } });
    const rule = await t.app.inject({ method: 'POST', url: `/v1/projects/${projectId}/ownership`, headers: bearer(t.adminKey), payload: { pattern: 'stale', userId: owner.userId } });
    expect(rule.statusCode).toBe(201);
    const { status, body } = await analytics(t, projectId, 'health?pageSize=100');
    expect(status).toBe(200);
    const pages = body.data as PageHealth[];
    expect(body.pagination).toMatchObject({ page: 1, total: pages.length });
    expect(pages.map((p) => p.score)).toEqual([...pages.map((p) => p.score)].sort((a, b) => a - b));
    const byPath = new Map(pages.map((p) => [p.path, p]));
    const stale = byPath.get('stale')!;
    expect(stale.components.freshness).toMatchObject({ points: 0, max: 30 });
    expect(stale.owner?.id).toBe(owner.userId);
    expect(stale.lastUpdated).toBe('2020-01-15T00:00:00.000Z');
    const short = byPath.get('short')!;
    expect(short.components.completeness.points).toBe(5 + 5); // a title, short enough to need no heading; no description, under 50 words
    expect(short.components.completeness.detail).toContain('a description');
    expect(short.components.brokenLinks).toEqual({ points: 15, max: 25, detail: '1 broken link' });
    const guide = byPath.get('guide')!;
    expect(guide.components.brokenLinks).toEqual({ points: 25, max: 25, detail: 'no broken links' });
    expect(guide.components.completeness).toMatchObject({ points: 25, detail: 'complete' });
    expect(guide.components.freshness.points).toBe(30);
    expect(guide.owner).toBeNull();
    for (const p of pages) {
      const c = p.components;
      expect(p.score).toBe(c.freshness.points + c.feedback.points + c.brokenLinks.points + c.completeness.points);
    }
  });

  it('lowers the feedback points by the share of unhelpful answers', async () => {
    await t.ctx.db.prisma.pageFeedback.createMany({
      data: [true, false, false, false].map((helpful, i) => ({ id: `fbk_test${i}`, projectId, pagePath: 'index', pageKey: 'index', helpful })),
    });
    const pages = (await analytics(t, projectId, 'health?pageSize=100')).body.data as PageHealth[];
    expect(pages.find((p) => p.path === 'index')!.components.feedback).toEqual({ points: 5, max: 20, detail: '1 of 4 readers found it helpful' });
  });
});

describe('views series and chat summary', () => {
  it('answers one bucket per day of the range, and hours without visitor counts', async () => {
    const days = await analytics(t, projectId, 'views?from=2026-01-01&to=2026-01-07');
    expect(days.status).toBe(200);
    expect(days.body.data.buckets).toHaveLength(7);
    expect(days.body.data.buckets[0]).toEqual({ start: '2026-01-01T00:00:00.000Z', people: 0, agents: 0, visitors: 0 });
    const hours = await analytics(t, projectId, 'views?from=2026-01-01&to=2026-01-01&interval=hour');
    expect(hours.body.data.buckets).toHaveLength(24);
    expect(hours.body.data.buckets[0].visitors).toBeNull();
    const months = await analytics(t, projectId, 'views?from=2026-01-15&to=2026-03-02&interval=month');
    expect(months.body.data.buckets.map((b: { start: string }) => b.start)).toEqual(['2026-01-01T00:00:00.000Z', '2026-02-01T00:00:00.000Z', '2026-03-01T00:00:00.000Z']);
  });

  it('counts assistant questions per day and the most asked', async () => {
    const session = randomUUID();
    await t.ctx.db.prisma.chatSession.create({ data: { id: session, projectId, visitorId: 'v1', title: 'How do I export?' } });
    const questions = ['How do I export?', 'how do I  export?', 'Where are pets?'];
    for (const [i, content] of questions.entries()) {
      await t.ctx.db.prisma.chatMessage.create({ data: { id: randomUUID(), sessionId: session, role: 'user', content, createdAt: new Date(Date.now() - i * 1000) } });
    }
    await t.ctx.db.prisma.chatMessage.create({ data: { id: randomUUID(), sessionId: session, role: 'assistant', content: 'An answer.' } });
    const { status, body } = await analytics(t, projectId, 'chat');
    expect(status).toBe(200);
    expect(body.data.questions).toBe(3);
    expect(body.data.top[0]).toEqual({ question: 'how do i export?', count: 2 });
    expect(body.data.days.reduce((n: number, d: { questions: number }) => n + d.questions, 0)).toBe(3);
  });
});

describe('analytics routes refuse', () => {
  it.each([
    ['views?from=2026-02-01&to=2026-01-01', 'from'],
    ['views?from=yesterday', 'from'],
    ['views?to=2026-13-45', 'to'],
    ['views?interval=year', 'interval'],
    ['views?from=2020-01-01&to=2026-01-01&interval=hour', 'interval'],
    ['top-pages?limit=0', 'limit'],
    ['searches?limit=abc', 'limit'],
    ['agents?from=2026-02-01&to=2026-01-01', 'from'],
    ['chat?to=nope', 'to'],
    ['health?page=0', 'page'],
    ['health?sort=random', 'sort'],
  ])('%s with 400 naming %s', async (route, field) => {
    const { status, body } = await analytics(t, projectId, route);
    expect(status).toBe(400);
    expect(body.error.code).toBe('invalid_request');
    expect(body.error.details.field).toBe(field);
  });

  it.each(['content-health', 'health', 'views', 'top-pages', 'searches', 'agents', 'chat'])('%s without projects:read (403) and for an unknown project (404)', async (route) => {
    const { key } = await createKey(t, ['search:read']);
    expect((await analytics(t, projectId, route, key)).status).toBe(403);
    const missing = await analytics(t, 'prj_missing', route);
    expect(missing.status).toBe(404);
    expect(missing.body.error.code).toBe('not_found');
  });
});

describe('after an incremental build', () => {
  it('keeps the dates and word counts of the pages it did not render again', async () => {
    repo.commit({ 'index.mdx': `---\ntitle: Welcome\ndescription: The analytics docs\n---\n\n${'Welcome again, these docs explain everything you need. '.repeat(6)}\n` }, 'edit home');
    await buildAndDeploy(t, projectId);
    const build = await t.ctx.db.prisma.build.findFirstOrThrow({ where: { projectId }, orderBy: { createdAt: 'desc' } });
    expect(build.status).toBe('deployed');
    const log = await t.app.inject({ url: `/v1/projects/${projectId}/builds/${build.id}/logs`, headers: bearer(t.adminKey) });
    expect(log.body).toContain('incremental build');
    const health = (await analytics(t, projectId, 'content-health')).body.data as { stalePages: unknown[]; coveragePercent: number };
    expect(health.stalePages).toEqual([{ path: 'stale', lastUpdated: '2020-01-15T00:00:00.000Z' }]);
    expect(health.coveragePercent).toBe(67);
    const pages = (await analytics(t, projectId, 'health?pageSize=100')).body.data as PageHealth[];
    expect(pages.find((p) => p.path === 'guide')!.components.completeness.detail).toBe('complete');
    expect(pages.find((p) => p.path === 'guide')!.lastUpdated).not.toBeNull();
  });
});
