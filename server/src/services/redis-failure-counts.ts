/**
 * Failed-password counters shared by every process through Redis (REDIS_URL; failure-throttle.ts):
 * one key per subject, `<prefix>:throttle:<throttle>:<kind>:<subject>`, checked, incremented and
 * given its window as expiry in one Lua script (atomic across processes, one round trip for all of
 * an attempt's subjects). While Redis is disconnected or fails, failures are
 * counted in this process instead (the limits then hold per process) and a warning is logged.
 */
import type { Redis } from 'ioredis';
import type { RedisLog } from '../redis';
import { MemoryFailureCounts, type FailureCountStore, type LimitedKey } from './failure-throttle';

/**
 * When no key (KEYS[i], limit ARGV[i + 1]) reached its limit: INCR each, a key's first failure
 * setting its expiry to the window (ARGV[1], ms), and return 0; else return the longest remaining
 * lifetime (ms) of the exhausted keys, counting nothing.
 */
const TAKE_SCRIPT = `local wait = 0
for i, key in ipairs(KEYS) do
  if tonumber(redis.call('GET', key) or '0') >= tonumber(ARGV[i + 1]) then
    wait = math.max(wait, redis.call('PTTL', key), 1)
  end
end
if wait > 0 then return wait end
for i, key in ipairs(KEYS) do
  if redis.call('INCR', key) == 1 then redis.call('PEXPIRE', key, ARGV[1]) end
end
return 0`;
/** DECR each key, deleting those left at 0 or below. */
const RELEASE_SCRIPT = `for i, key in ipairs(KEYS) do
  if redis.call('DECR', key) <= 0 then redis.call('DEL', key) end
end
return 0`;
/** Shortest interval between two logged fallbacks. */
const WARN_INTERVAL_MS = 10_000;

type WithScripts = Redis & {
  quireFailureTake(...args: [number, ...string[]]): Promise<number>;
  quireFailureRelease(...args: [number, ...string[]]): Promise<number>;
};

/** Failure counters in Redis; see the module comment. */
export class RedisFailureCounts implements FailureCountStore {
  private readonly redis: WithScripts;
  private readonly fallback = new MemoryFailureCounts();
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
    if (!('quireFailureTake' in redis)) {
      redis.defineCommand('quireFailureTake', { lua: TAKE_SCRIPT });
      redis.defineCommand('quireFailureRelease', { lua: RELEASE_SCRIPT });
    }
    this.redis = redis as WithScripts;
  }

  private redisKey(key: string): string {
    return `${this.prefix}:throttle:${key}`;
  }

  /** Runs `op` on Redis when it is connected; else (or when it fails) `fallback` in memory, with a warning at most every 10 s. */
  private async run<T>(op: () => Promise<T>, fallback: () => T): Promise<T> {
    try {
      // While disconnected, commands would wait in ioredis's offline queue: answer at once instead.
      if (this.redis.status !== 'ready') throw new Error(`Redis connection is ${this.redis.status}`);
      return await op();
    } catch (err) {
      const now = Date.now();
      if (now - this.lastWarning >= WARN_INTERVAL_MS) {
        this.lastWarning = now;
        this.log.warn({ err }, 'Redis failure counters unavailable; counting failed passwords in this process meanwhile');
      }
      return fallback();
    }
  }

  async take(keys: readonly LimitedKey[], windowMs: number, now: number): Promise<number> {
    return this.run(
      async () =>
        Number(await this.redis.quireFailureTake(keys.length, ...keys.map((k) => this.redisKey(k.key)), String(windowMs), ...keys.map((k) => String(k.limit)))),
      () => this.fallback.take(keys, windowMs, now),
    );
  }

  async release(keys: readonly string[], now: number): Promise<void> {
    if (keys.length === 0) return;
    await this.run(
      async () => void (await this.redis.quireFailureRelease(keys.length, ...keys.map((k) => this.redisKey(k)))),
      () => this.fallback.release(keys, now),
    );
  }

  async clear(key: string): Promise<void> {
    await this.run(
      async () => void (await this.redis.del(this.redisKey(key))),
      () => this.fallback.clear(key),
    );
  }
}
