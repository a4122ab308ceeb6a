/**
 * Analytics writes (db/repos/analytics-rows.ts) on the database the run uses (SQLite, or PostgreSQL
 * with QUIRE_TEST_DB=postgres): counts of batches add up, a visitor is one row however often seen,
 * and rows of a project deleted before its batch is written are dropped without losing the others.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, type TestApp } from '../helpers/app';

let t: TestApp;
let live: string;

beforeAll(async () => {
  t = await createTestApp();
  const res = await t.app.inject({ method: 'POST', url: '/v1/projects', headers: bearer(t.adminKey), payload: { name: 'Rows', slug: 'analytics-rows' } });
  live = (res.json().data as { id: string }).id;
});

afterAll(async () => {
  await t.close();
});

describe('analytics rows', () => {
  const hour = Date.UTC(2026, 10, 24, 14);

  it('adds the counts of successive batches and keeps one row per visitor', async () => {
    const rows = t.ctx.db.rows.analytics;
    const batch = {
      views: [{ projectId: live, hour, path: 'guides/setup', reader: 'person', agent: '', count: 3 }],
      visitors: [{ projectId: live, day: '2026-11-24', visitor: 'v1', reader: 'person' }],
      searches: [{ projectId: live, day: '2026-11-24', query: 'install', source: 'site', count: 2, noResults: 1 }],
    };
    await rows.add(batch);
    await rows.add({ ...batch, views: [{ ...batch.views[0]!, count: 4 }], searches: [{ ...batch.searches[0]!, count: 5, noResults: 0 }] });
    const prisma = t.ctx.db.prisma;
    expect((await prisma.pageViewCount.findMany({ where: { projectId: live } })).map((r) => [r.path, r.count, r.hour.getTime()])).toEqual([['guides/setup', 7, hour]]);
    expect(await prisma.dailyVisitor.count({ where: { projectId: live } })).toBe(1);
    expect((await prisma.searchQueryCount.findMany({ where: { projectId: live } })).map((r) => [r.query, r.count, r.noResults])).toEqual([['install', 7, 1]]);
  });

  it('drops the rows of a project that no longer exists and writes the rest', async () => {
    await t.ctx.db.rows.analytics.add({
      views: [
        { projectId: 'prj_gone', hour, path: 'index', reader: 'person', agent: '', count: 1 },
        { projectId: live, hour, path: 'index', reader: 'agent', agent: 'GPTBot', count: 2 },
      ],
      visitors: [{ projectId: 'prj_gone', day: '2026-11-24', visitor: 'v9', reader: 'person' }],
      searches: [],
    });
    const views = await t.ctx.db.prisma.pageViewCount.findMany({ where: { path: 'index' } });
    expect(views.map((r) => [r.projectId, r.agent, r.count])).toEqual([[live, 'GPTBot', 2]]);
  });
});
