/**
 * `pnpm quire org plan`: moves an organization to another plan; with REDIS_URL a running server
 * applies the new limits to its next request (the `organization.changed` event crosses processes).
 * That last case needs Redis: skipped with a message when it is absent, failing on CI
 * (helpers/services.ts).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterEach, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app';
import { openDb } from '../../src/db/client';
import { loadConfig } from '../../src/env';
import { bearer } from '../helpers/app';
import { requireRedis } from '../helpers/services';
import { quire } from './cli-fixtures';

const redis = await requireRedis();
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

function dataDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-cli-plan-'));
  cleanups.push(() => fs.rmSync(dir, { recursive: true, force: true }));
  return dir;
}

describe('quire org plan', () => {
  it('moves an organization to enterprise with its own limits, and back to pro without them', async () => {
    const dir = dataDir();
    const made = await quire(dir, ['org', 'create', 'Acme', '--plan', 'free']);
    expect(made.status).toBe(0);
    const up = await quire(dir, ['org', 'plan', made.values.org_id!, 'enterprise', '--rate-limit', '5000', '--project-limit', '40']);
    expect(up.status, up.stderr).toBe(0);
    expect(up.values).toMatchObject({ plan: 'enterprise', rate_limit: '5000', project_limit: '40' });
    const down = await quire(dir, ['org', 'plan', made.values.org_id!, 'pro']);
    expect(down.values).toMatchObject({ plan: 'pro', rate_limit: '1000', project_limit: '100' });
    const db = await openDb(`file:${path.join(dir, 'quire.db')}`);
    try {
      expect(await db.prisma.organization.findUniqueOrThrow({ where: { id: made.values.org_id! } })).toMatchObject({ plan: 'pro', rateLimit: null, projectLimit: null });
    } finally {
      await db.close();
    }
  });

  it('refuses limits for a plan other than enterprise, an unknown plan and an unknown organization, changing nothing', async () => {
    const dir = dataDir();
    const made = await quire(dir, ['org', 'create', 'Acme', '--plan', 'free']);
    const limits = await quire(dir, ['org', 'plan', made.values.org_id!, 'pro', '--rate-limit', '5000']);
    expect(limits.status).toBe(2);
    expect(limits.stderr).toMatch(/enterprise plan only/);
    const unknownPlan = await quire(dir, ['org', 'plan', made.values.org_id!, 'gold']);
    expect(unknownPlan.status).toBe(2);
    const nobody = await quire(dir, ['org', 'plan', 'org_nobody', 'pro']);
    expect(nobody.status).toBe(1);
    expect(nobody.stderr).toMatch(/no organization org_nobody/);
    const db = await openDb(`file:${path.join(dir, 'quire.db')}`);
    try {
      expect((await db.prisma.organization.findUniqueOrThrow({ where: { id: made.values.org_id! } })).plan).toBe('free');
    } finally {
      await db.close();
    }
  });

  it.skipIf(!redis)('with REDIS_URL, a running server applies the new rate limit to its next request', async () => {
    const dir = dataDir();
    const prefix = `quire-test-${randomUUID().slice(0, 8)}`;
    const env = { REDIS_URL: redis!.url, QUIRE_QUEUE_PREFIX: prefix };
    const made = await quire(dir, ['org', 'create', 'Acme', '--plan', 'free'], '', env);
    const app = await buildApp(loadConfig({ QUIRE_DATA_DIR: dir, QUIRE_LOG_LEVEL: 'silent', ...env }), { runJobs: false });
    await app.ready();
    cleanups.push(async () => {
      await app.close();
      const r = new Redis(redis!.url);
      const keys = await r.keys(`${prefix}:*`);
      if (keys.length) await r.del(...keys);
      await r.quit();
    });
    const limit = async () => (await app.inject({ url: '/v1/projects', headers: bearer(made.values.api_key!) })).headers['x-ratelimit-limit'];
    expect(await limit()).toBe('100');
    const moved = await quire(dir, ['org', 'plan', made.values.org_id!, 'pro'], '', env);
    expect(moved.status, moved.stderr).toBe(0);
    const at = Date.now();
    while ((await limit()) !== '1000' && Date.now() - at < 1_000) await new Promise((r) => setTimeout(r, 20));
    expect(await limit()).toBe('1000');
  });
});
