/**
 * Monthly plan limits: GET /v1/usage, the build trigger refused with 403 usage_limit_exceeded past
 * the month's limit (nothing created), calendar months in UTC, enterprise limits from
 * configuration, and an exact count when many transactions on several connections race.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { usagePeriodOf } from '@quire/shared/api/usage';
import { execFile } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { bearer, createKey, createOrgWithKey, createTestApp, type TestApp } from '../helpers/app';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t?.close());

const { period, resetsAt } = usagePeriodOf(new Date());

async function newProject(key: string, name: string): Promise<string> {
  const res = await t.app.inject({ method: 'POST', url: '/v1/projects', headers: bearer(key), payload: { name, repoUrl: 'https://github.com/acme/docs' } });
  expect(res.statusCode).toBe(201);
  return res.json().data.id;
}

const trigger = (key: string, projectId: string) => t.app.inject({ method: 'POST', url: `/v1/projects/${projectId}/builds`, headers: bearer(key) });
const usage = (key: string) => t.app.inject({ url: '/v1/usage', headers: bearer(key) });

describe('GET /v1/usage', () => {
  it('shows the month, its reset time and each metric with the plan limits (pro)', async () => {
    const res = await usage(t.adminKey);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      data: {
        period,
        resetsAt: resetsAt.toISOString(),
        metrics: [
          { metric: 'builds', used: 0, limit: 2000 },
          { metric: 'assistant_answers', used: 0, limit: 10000 },
        ],
      },
    });
    expect(period).toMatch(/^\d{4}-\d{2}$/);
  });

  it('answers any valid key, never without one', async () => {
    const { key } = await createKey(t, ['projects:read']);
    expect((await usage(key)).statusCode).toBe(200);
    expect((await t.app.inject({ url: '/v1/usage' })).statusCode).toBe(401);
  });
});

describe('monthly build limit', () => {
  it('counts each triggered build, and refuses the one past the limit with 403 and details, creating nothing', async () => {
    const free = await createOrgWithKey(t, { plan: 'free' });
    const projectId = await newProject(free.key, 'Metered');
    expect((await trigger(free.key, projectId)).statusCode).toBe(202);
    expect((await usage(free.key)).json().data.metrics[0]).toEqual({ metric: 'builds', used: 1, limit: 100 });
    // The month's count stands at the limit (as after 100 builds); the queued build has ended.
    await t.ctx.db.prisma.usageCounter.update({ where: { orgId_metric_period: { orgId: free.orgId, metric: 'builds', period } }, data: { count: 100 } });
    await t.ctx.db.prisma.build.updateMany({ where: { projectId }, data: { status: 'deployed' } });
    const [builds, audits] = [await t.ctx.db.prisma.build.count(), await t.ctx.db.prisma.auditEntry.count()];

    const res = await trigger(free.key, projectId);
    expect(res.statusCode).toBe(403);
    expect(res.json().error).toMatchObject({
      code: 'usage_limit_exceeded',
      details: { metric: 'builds', limit: 100, used: 100, resetsAt: resetsAt.toISOString() },
    });
    expect(await t.ctx.db.prisma.build.count()).toBe(builds);
    expect(await t.ctx.db.prisma.auditEntry.count()).toBe(audits);
    expect((await usage(free.key)).json().data.metrics[0].used).toBe(100);
    // Another organization is not affected.
    const other = await createOrgWithKey(t, { plan: 'free', email: 'other-free@example.com' });
    expect((await trigger(other.key, await newProject(other.key, 'Unmetered'))).statusCode).toBe(202);
  });

  it('starts again each calendar month (UTC): last month at its limit does not count', async () => {
    const org = await createOrgWithKey(t, { plan: 'free', email: 'monthly@example.com' });
    const last = usagePeriodOf(new Date(Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth(), 0))).period;
    await t.ctx.db.prisma.usageCounter.create({ data: { orgId: org.orgId, metric: 'builds', period: last, count: 100 } });
    expect((await trigger(org.key, await newProject(org.key, 'New month'))).statusCode).toBe(202);
    expect(usagePeriodOf(new Date('2026-12-31T23:59:59.999Z'))).toEqual({ period: '2026-12', resetsAt: new Date('2027-01-01T00:00:00.000Z') });
  });

  it('a refused trigger that fails another check does not use up the month', async () => {
    const org = await createOrgWithKey(t, { plan: 'free', email: 'conflict@example.com' });
    const projectId = await newProject(org.key, 'Busy');
    expect((await trigger(org.key, projectId)).statusCode).toBe(202);
    expect((await trigger(org.key, projectId)).statusCode).toBe(409);
    expect((await usage(org.key)).json().data.metrics[0].used).toBe(1);
  });
});

describe('enterprise limits and concurrent counting', () => {
  it('takes the enterprise limits from configuration', async () => {
    const e = await createTestApp({ env: { QUIRE_DEFAULT_PLAN: 'enterprise', QUIRE_ENTERPRISE_MONTHLY_BUILDS: '7', QUIRE_ENTERPRISE_MONTHLY_ANSWERS: '9' } });
    try {
      const metrics = (await e.app.inject({ url: '/v1/usage', headers: bearer(e.adminKey) })).json().data.metrics;
      expect(metrics).toEqual([{ metric: 'builds', used: 0, limit: 7 }, { metric: 'assistant_answers', used: 0, limit: 9 }]);
    } finally {
      await e.close();
    }
  });

  it('lets exactly the limit through when two processes race on one database', async () => {
    const orgId = (await createOrgWithKey(t, { email: 'race@example.com' })).orgId;
    const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
    const script = path.join(root, 'server/test/routes/usage-race-process.ts');
    const run = () =>
      new Promise<string[]>((resolve, reject) => {
        execFile(path.join(root, 'node_modules/.bin/tsx'), [script, t.ctx.config.databaseUrl, orgId, '7', '10'], { cwd: root }, (err, stdout, stderr) =>
          err ? reject(new Error(`${err.message}\n${stderr}`)) : resolve(JSON.parse(stdout.trim().split('\n').pop()!) as string[]),
        );
      });
    const outcomes = (await Promise.all([run(), run()])).flat();
    expect(outcomes).toHaveLength(20);
    expect(outcomes.filter((o) => o === 'ok')).toHaveLength(7);
    expect(outcomes.filter((o) => o === 'usage_limit_exceeded')).toHaveLength(13);
    const row = await t.ctx.db.prisma.usageCounter.findUnique({ where: { orgId_metric_period: { orgId, metric: 'builds', period } } });
    expect(row?.count).toBe(7);
  }, 60_000);
});
