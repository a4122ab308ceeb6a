/**
 * Refused keys per client IP (services/auth-failures.ts): blocked at the limit in one process, and
 * across processes when the counters are in Redis.
 */
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { AuthFailures } from '../../src/services/auth-failures';
import { RateLimiter } from '../../src/services/rate-limiter';
import { RedisRateLimitStore } from '../../src/services/redis-rate-limiter';
import { requireRedis } from '../helpers/services';

const redis = await requireRedis();
const log = { warn() {} };

describe('AuthFailures', () => {
  it('blocks an IP once it reached the limit, with the seconds left in the window, and only that IP', async () => {
    const failures = new AuthFailures(new RateLimiter(), 3);
    for (let i = 0; i < 2; i++) await failures.record('192.0.2.1');
    expect(failures.check('192.0.2.1')).toBeNull();
    await failures.record('192.0.2.1');
    const blocked = failures.check('192.0.2.1');
    expect(blocked).toMatchObject({ exceeded: true, remaining: 0, limit: 3 });
    expect(blocked!.retryAfter).toBeGreaterThanOrEqual(1);
    expect(blocked!.retryAfter).toBeLessThanOrEqual(60);
    expect(failures.check('192.0.2.2')).toBeNull();
    // Past the window's end the IP may try again.
    expect(failures.check('192.0.2.1', (blocked!.reset + 1) * 1000)).toBeNull();
  });

  describe.skipIf(!redis)('with counters in Redis', () => {
    const prefix = `quire-test-${randomUUID().slice(0, 8)}`;
    const a = new Redis(redis!.url);
    const b = new Redis(redis!.url);
    afterAll(async () => {
      const keys = await a.keys(`${prefix}:*`);
      if (keys.length) await a.del(...keys);
      await a.quit();
      await b.quit();
    });

    it('adds the failures of every process to one counter: each process blocks from its next refusal past the limit', async () => {
      await Promise.all([a.ping(), b.ping()]); // connected (a store counts in memory while its connection is not ready)
      const one = new AuthFailures(new RedisRateLimitStore(a, prefix, log), 4);
      const two = new AuthFailures(new RedisRateLimitStore(b, prefix, log), 4);
      await one.record('198.51.100.7');
      await one.record('198.51.100.7');
      await one.record('198.51.100.7');
      await two.record('198.51.100.7');
      // The fourth refusal, counted by process two, reached the limit: two blocks at once.
      expect(two.check('198.51.100.7')).not.toBeNull();
      expect(one.check('198.51.100.7')).toBeNull();
      await one.record('198.51.100.7');
      expect(one.check('198.51.100.7')).not.toBeNull();
    });
  });
});
