/**
 * Analytics batches through BullMQ (REDIS_URL): two apps sharing one queue and one database record
 * views (as the MCP endpoint does, `ctx.analytics.pageView`); every count arrives once, whichever
 * process writes the batch.
 */
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app';
import { loadConfig } from '../../src/env';
import { bearer, createTestApp, type TestApp } from '../helpers/app';
import { requireRedis } from '../helpers/services';
import type { FastifyInstance } from 'fastify';

const redis = await requireRedis();

describe.skipIf(!redis)('analytics jobs on BullMQ', () => {
  const prefix = `quire-test-${randomUUID()}`;
  let t: TestApp;
  let second: FastifyInstance;
  let projectId: string;

  beforeAll(async () => {
    t = await createTestApp({ env: { REDIS_URL: redis!.url, QUIRE_QUEUE_PREFIX: prefix } });
    second = await buildApp(loadConfig({ QUIRE_DATA_DIR: t.dataDir, QUIRE_LOG_LEVEL: 'silent', REDIS_URL: redis!.url, QUIRE_QUEUE_PREFIX: prefix }), { db: t.ctx.db, runJobs: false });
    await second.ready();
    const res = await t.app.inject({ method: 'POST', url: '/v1/projects', headers: bearer(t.adminKey), payload: { name: 'bullmq analytics', slug: 'bullmq-analytics' } });
    projectId = res.json().data.id;
  }, 60_000);

  afterAll(async () => {
    await second?.close();
    await t?.close();
    const r = new Redis(redis!.url);
    const keys = await r.keys(`${prefix}:*`);
    if (keys.length) await r.del(...keys);
    await r.quit();
  });

  it('counts every view recorded by either process exactly once', async () => {
    for (let i = 0; i < 600; i++) t.ctx.analytics.pageView({ projectId, path: 'mcp', reader: 'agent', agent: 'mcp', visitor: { ip: '192.0.2.1', userAgent: 'mcp-client' } });
    for (let i = 0; i < 400; i++) second.ctx.analytics.pageView({ projectId, path: 'mcp', reader: 'agent', agent: 'mcp' });
    await Promise.all([t.ctx.analytics.flush(), second.ctx.analytics.flush()]);
    const res = await t.app.inject({ url: `/v1/projects/${projectId}/analytics/agents`, headers: bearer(t.adminKey) });
    expect(res.json().data).toEqual([{ agent: 'mcp', views: 1000, topPaths: [{ path: 'mcp', views: 1000 }] }]);
  });
});
