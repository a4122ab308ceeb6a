/**
 * Rate-limit counters shared through Redis (services/redis-rate-limiter.ts, plugins/rate-limit.ts),
 * against the real Redis of the machine (skipped with a message when absent, failing on CI).
 */
import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Redis } from 'ioredis';
import { RedisRateLimitStore, rateLimitKey } from '../../src/services/redis-rate-limiter';
import { WINDOW_MS } from '../../src/services/rate-limiter';
import { closeRedis, openRedis } from '../../src/redis';
import { requireRedis } from '../helpers/services';
import { bearer, createOrgWithKey } from '../helpers/app';
import { createTwoApps, deletePrefix, type TwoApps } from '../events/two-apps';

const redis = await requireRedis();
const silent = { warn: () => {} };

describe.skipIf(!redis)('RedisRateLimitStore', () => {
  const prefix = `quire-test-${randomUUID().slice(0, 8)}`;
  let conn: Redis;
  beforeAll(async () => {
    conn = openRedis(redis!.url, silent, 'quire-test');
    await conn.ping();
  });
  afterAll(async () => {
    await deletePrefix(conn, prefix);
    await closeRedis(conn);
  });

  it('counts a bucket in fixed one-minute windows with the in-memory store\'s headers', async () => {
    const store = new RedisRateLimitStore(conn, prefix, silent);
    const now = Date.parse('2030-01-01T00:00:05Z');
    const first = await store.hit('org:a', 2, now);
    expect(first).toEqual({ limit: 2, remaining: 1, reset: Date.parse('2030-01-01T00:01:00Z') / 1000, exceeded: false, retryAfter: 55 });
    expect((await store.hit('org:a', 2, now + 1_000)).remaining).toBe(0);
    const third = await store.hit('org:a', 2, now + 2_000);
    expect(third.exceeded).toBe(true);
    expect(third.retryAfter).toBe(53);
    // Another bucket and the next window start from zero.
    expect((await store.hit('org:b', 2, now)).remaining).toBe(1);
    expect((await store.hit('org:a', 2, now + WINDOW_MS)).remaining).toBe(1);
  });

  it('two stores (two processes) count into one window, whose key expires', async () => {
    const other = openRedis(redis!.url, silent, 'quire-test');
    try {
      await other.ping();
      const a = new RedisRateLimitStore(conn, prefix, silent);
      const b = new RedisRateLimitStore(other, prefix, silent);
      const now = Date.now();
      await a.hit('ip:10.0.0.1', 5, now);
      await b.hit('ip:10.0.0.1', 5, now);
      expect((await a.hit('ip:10.0.0.1', 5, now)).remaining).toBe(2);
      const ttl = await conn.pttl(rateLimitKey(prefix, 'ip:10.0.0.1', Math.floor(now / WINDOW_MS)));
      expect(ttl).toBeGreaterThan(WINDOW_MS);
      expect(ttl).toBeLessThanOrEqual(2 * WINDOW_MS);
    } finally {
      await closeRedis(other);
    }
  });

  it('counts in the process when Redis does not answer, and warns', async () => {
    const warnings: string[] = [];
    const dead = openRedis('redis://127.0.0.1:1', { warn: () => {} }, 'quire-test-dead');
    try {
      const store = new RedisRateLimitStore(dead, prefix, { warn: (_o, msg) => warnings.push(msg) });
      const now = Date.now();
      const first = await store.hit('org:down', 1, now);
      const second = await store.hit('org:down', 1, now);
      expect([first.exceeded, second.exceeded]).toEqual([false, true]);
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).toMatch(/counting in this process/);
    } finally {
      dead.disconnect();
    }
  });
});

describe.skipIf(!redis)('one rate limit across two server processes', () => {
  let apps: TwoApps;
  beforeAll(async () => {
    apps = await createTwoApps(redis!.url);
  });
  afterAll(async () => apps?.close());
  afterEach(() => vi.useRealTimers());

  it('counts requests of both apps against the organization\'s one window', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2030-01-01T00:00:05Z'));
    const free = await createOrgWithKey({ ctx: apps.a.ctx }, { plan: 'free' });
    for (let i = 0; i < 100; i++) {
      const app = i % 2 === 0 ? apps.a : apps.b;
      const res = await app.inject({ url: '/v1/projects', headers: bearer(free.key) });
      expect(res.statusCode).toBe(200);
      expect(res.headers['x-ratelimit-remaining']).toBe(String(99 - i));
    }
    for (const app of [apps.a, apps.b]) {
      const limited = await app.inject({ url: '/v1/projects', headers: bearer(free.key) });
      expect(limited.statusCode).toBe(429);
      expect(limited.json().error.code).toBe('rate_limited');
      expect(limited.headers['retry-after']).toBe('55');
    }
    vi.setSystemTime(new Date('2030-01-01T00:01:00Z'));
    expect((await apps.b.inject({ url: '/v1/projects', headers: bearer(free.key) })).headers['x-ratelimit-remaining']).toBe('99');
  });

  it('counts refused requests against the client IP in Redis', async () => {
    const res = await apps.b.inject({ url: '/v1/projects' });
    expect(res.statusCode).toBe(401);
    const keys = await apps.redis.keys(`${apps.prefix}:ratelimit:ip:*`);
    expect(keys.length).toBeGreaterThan(0);
    expect(res.headers['x-ratelimit-limit']).toBe('1000');
  });
});
