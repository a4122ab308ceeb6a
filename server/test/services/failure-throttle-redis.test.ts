/**
 * Failed-password counters shared through Redis (services/redis-failure-counts.ts) by every process
 * of an installation: the sign-in and preview-link throttles hold their limits across processes.
 * Against the real Redis of the machine (skipped with a message when absent, failing on CI).
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Redis } from 'ioredis';
import { FailureThrottle } from '../../src/services/failure-throttle';
import { RedisFailureCounts } from '../../src/services/redis-failure-counts';
import { closeRedis, openRedis } from '../../src/redis';
import { requireRedis } from '../helpers/services';
import { createTwoApps, deletePrefix, type TwoApps } from '../events/two-apps';
import { callerFor, trpcErrorOf } from '../trpc/trpc-fixtures';
import { seedMember, seedOrg, TEST_PASSWORD } from './identity-fixtures';

const redis = await requireRedis();
const silent = { warn: () => {} };
const limits = { per: { link: 3, ip: 5 }, windowMs: 60_000 };

describe.skipIf(!redis)('failure counters in Redis', () => {
  const prefix = `quire-test-${randomUUID().slice(0, 8)}`;
  let conn: Redis;
  let other: Redis;
  beforeAll(async () => {
    conn = openRedis(redis!.url, silent, 'quire-test');
    other = openRedis(redis!.url, silent, 'quire-test');
    await Promise.all([conn.ping(), other.ping()]);
  });
  afterAll(async () => {
    await deletePrefix(conn, prefix);
    await Promise.all([closeRedis(conn), closeRedis(other)]);
  });

  it('two processes count into one window per subject, which expires with the window', async () => {
    const a = new FailureThrottle(new RedisFailureCounts(conn, prefix, silent), 'preview', limits);
    const b = new FailureThrottle(new RedisFailureCounts(other, prefix, silent), 'preview', limits);
    expect(await a.attempt({ link: 'pvl_1', ip: '10.0.0.1' })).toBe(0);
    expect(await b.attempt({ link: 'pvl_1', ip: '10.0.0.2' })).toBe(0);
    expect(await a.attempt({ link: 'pvl_1', ip: '10.0.0.3' })).toBe(0);
    const wait = await b.attempt({ link: 'pvl_1', ip: '10.0.0.4' });
    expect(wait).toBeGreaterThan(55);
    expect(wait).toBeLessThanOrEqual(60);
    expect(await a.attempt({ link: 'pvl_2', ip: '10.0.0.4' })).toBe(0);
    const ttl = await conn.pttl(`${prefix}:throttle:preview:link:pvl_1`);
    expect(ttl).toBeGreaterThan(55_000);
    expect(ttl).toBeLessThanOrEqual(60_000);
  });

  it('lets exactly the limit through when both processes take attempts at once, and a success clears the link', async () => {
    const stores = [new RedisFailureCounts(conn, prefix, silent), new RedisFailureCounts(other, prefix, silent)];
    const throttles = stores.map((s) => new FailureThrottle(s, 'preview', limits));
    const waits = await Promise.all(Array.from({ length: 12 }, (_, i) => throttles[i % 2]!.attempt({ link: 'pvl_race', ip: `10.1.0.${i}` })));
    expect(waits.filter((w) => w === 0)).toHaveLength(3);
    await throttles[0]!.succeeded({ link: 'pvl_race', ip: '10.1.0.0' }, 'link');
    expect(await throttles[1]!.attempt({ link: 'pvl_race', ip: '10.1.0.0' })).toBe(0);
    expect(await conn.get(`${prefix}:throttle:preview:link:pvl_race`)).toBe('1');
  });

  it('counts in the process when Redis does not answer, and warns', async () => {
    const warnings: string[] = [];
    const dead = openRedis('redis://127.0.0.1:1', silent, 'quire-test-dead');
    try {
      const t = new FailureThrottle(new RedisFailureCounts(dead, prefix, { warn: (_o, msg) => warnings.push(msg) }), 'preview', limits);
      for (let i = 0; i < 3; i++) expect(await t.attempt({ link: 'pvl_down', ip: '10.2.0.1' })).toBe(0);
      expect(await t.attempt({ link: 'pvl_down', ip: '10.2.0.1' })).toBeGreaterThan(0);
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).toMatch(/in this process/);
    } finally {
      dead.disconnect();
    }
  });
});

describe.skipIf(!redis)('sign-in throttle across two server processes', () => {
  let apps: TwoApps;
  beforeAll(async () => {
    apps = await createTwoApps(redis!.url);
  });
  afterAll(async () => apps?.close());

  it('refuses the right password on app B after the failures app A counted', async () => {
    const email = 'grace@example.com';
    await seedMember(apps.a.ctx.db, await seedOrg(apps.a.ctx.db, 'Throttled'), email, 'editor');
    // ten attempts app A saw without a success (each would have been a wrong password)
    for (let i = 0; i < 10; i++) await apps.a.ctx.signInThrottle.attempt(email, '192.0.2.60');
    const err = await trpcErrorOf((await callerFor(apps.b.ctx, undefined, '192.0.2.61')).auth.signIn({ email, password: TEST_PASSWORD }));
    expect(err.code).toBe('TOO_MANY_REQUESTS');
    expect(err.message).toMatch(/Too many failed sign-ins/);
  });
});
