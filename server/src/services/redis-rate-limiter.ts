/**
 * Rate-limit counters shared by every process through Redis (REDIS_URL): the same fixed
 * one-minute windows as the in-memory {@link RateLimiter} (interface-spec.md "Limits";
 * decisions.md sections 2-3), one Redis key per bucket and window,
 * `<prefix>:ratelimit:<bucket>:<window>`, incremented and given its expiry in one Lua script
 * (one round trip, atomic). While Redis is disconnected or fails, requests are counted in this process
 * instead (the limit then holds per process) and a warning is logged: a Redis outage must not
 * refuse or lose the API's traffic.
 */
import type { Redis } from 'ioredis';
import type { RedisLog } from '../redis';
import { RateLimiter, stateOf, WINDOW_MS, type RateLimitState, type RateLimitStore } from './rate-limiter';

/** INCR the window's key; the first request of a window sets its expiry (ARGV[1], ms). Returns the count. */
const HIT_SCRIPT = `local n = redis.call('INCR', KEYS[1])
if n == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
return n`;
/** A window's key outlives its minute by this much (clock differences between processes). */
const KEY_TTL_MS = 2 * WINDOW_MS;
/** Shortest interval between two logged fallbacks. */
const WARN_INTERVAL_MS = 10_000;

type WithHit = Redis & { quireRateLimitHit(key: string, ttlMs: number): Promise<number> };

/** The Redis key of `bucket`'s counter in `window` (epoch minutes). */
export function rateLimitKey(prefix: string, bucket: string, window: number): string {
  return `${prefix}:ratelimit:${bucket}:${window}`;
}

/** Counters in Redis; see the module comment. */
export class RedisRateLimitStore implements RateLimitStore {
  private readonly redis: WithHit;
  private readonly fallback = new RateLimiter();
  private lastWarning = 0;

  /**
   * @param redis the process's command connection (shared; not closed here).
   * @param prefix key prefix of the installation (`QUIRE_QUEUE_PREFIX`): processes with the same prefix share counters.
   */
  constructor(
    redis: Redis,
    private readonly prefix: string,
    private readonly log: RedisLog,
  ) {
    if (!('quireRateLimitHit' in redis)) redis.defineCommand('quireRateLimitHit', { numberOfKeys: 1, lua: HIT_SCRIPT });
    this.redis = redis as WithHit;
  }

  /** Counts one request in Redis (one round trip); never rejects (see the module comment). */
  async hit(bucket: string, limit: number, now = Date.now()): Promise<RateLimitState> {
    const window = Math.floor(now / WINDOW_MS);
    try {
      // While disconnected, commands would wait in ioredis's offline queue: answer at once instead.
      if (this.redis.status !== 'ready') throw new Error(`Redis connection is ${this.redis.status}`);
      const count = await this.redis.quireRateLimitHit(rateLimitKey(this.prefix, bucket, window), KEY_TTL_MS);
      return stateOf(Number(count), limit, window, now);
    } catch (err) {
      if (now - this.lastWarning >= WARN_INTERVAL_MS) {
        this.lastWarning = now;
        this.log.warn({ err }, 'Redis rate-limit counters unavailable; counting in this process meanwhile');
      }
      return this.fallback.hit(bucket, limit, now);
    }
  }
}
