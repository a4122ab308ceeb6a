/**
 * Failed authentications per client IP (decisions.md section 10: a client that keeps presenting
 * refused keys is slowed down), counted in the app's rate-limit store so that with REDIS_URL every
 * process adds to one counter per IP and minute. Checking must not cost a round trip on every
 * request, so each process remembers the IPs its own counting found at the limit: an IP refused
 * `limit` times across all processes is blocked by each process from its next refused key on (at
 * most one more failure per process), until the window ends.
 */
import { LRUCache } from 'lru-cache';
import type { RateLimitState, RateLimitStore } from './rate-limiter';

/**
 * Refused keys (unknown, revoked or expired; also over-long ones) allowed per client IP in one
 * minute before that IP gets 429 `rate_limited` with `Retry-After` (interface-spec.md "Errors";
 * decisions.md section 3), so keys cannot be guessed without limit. Missing or malformed headers
 * test no key and are not counted.
 */
export const AUTH_FAILURE_LIMIT = 30;

/** Blocked client IPs remembered at once; the least recent is dropped past this. */
const MAX_BLOCKED_IPS = 10_000;

/** Counts refused keys per IP in `store` (bucket `authfail:<ip>`) and answers whether an IP is blocked. */
export class AuthFailures {
  private readonly blocked = new LRUCache<string, RateLimitState>({ max: MAX_BLOCKED_IPS });

  /**
   * @param store the app's rate-limit counters (in memory, or Redis shared by every process).
   * @param limit refused keys per IP and minute before the IP is blocked.
   */
  constructor(
    private readonly store: RateLimitStore,
    readonly limit: number,
  ) {}

  /** The bucket state when `ip` is blocked now (for a 429 with `Retry-After`), else null. A map look-up. */
  check(ip: string, now = Date.now()): RateLimitState | null {
    const state = this.blocked.get(ip);
    if (!state) return null;
    if (state.reset * 1000 <= now) {
      this.blocked.delete(ip);
      return null;
    }
    return { ...state, exceeded: true, remaining: 0, retryAfter: Math.max(1, Math.ceil((state.reset * 1000 - now) / 1000)) };
  }

  /** Counts one refused key from `ip`; resolves once counted (never rejects: the stores fall back to memory). */
  async record(ip: string): Promise<void> {
    const state = await this.store.hit(`authfail:${ip}`, this.limit);
    if (state.remaining === 0) this.blocked.set(ip, state);
  }
}
