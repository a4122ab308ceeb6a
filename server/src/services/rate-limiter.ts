/**
 * Fixed-window request counters kept in memory (interface-spec.md "Limits"; decisions.md
 * sections 2-3): one window per bucket per minute. Buckets are `org:<id>` for authenticated
 * calls and `ip:<address>` for everything else reaching the API.
 */

/** Length of a rate-limit window. */
export const WINDOW_MS = 60_000;
const MAX_BUCKETS = 50_000;

/** The state of one bucket after a request was counted. */
export interface RateLimitState {
  limit: number;
  remaining: number;
  /** Unix time (seconds) when the window resets. */
  reset: number;
  /** True when this request went over the limit. */
  exceeded: boolean;
  /** Seconds until the window resets (for `Retry-After`), at least 1. */
  retryAfter: number;
}

/** Counts requests per bucket in fixed one-minute windows. */
export class RateLimiter {
  private readonly buckets = new Map<string, { window: number; count: number }>();

  /** Counts one request against `bucket` with `limit` requests per minute. */
  hit(bucket: string, limit: number, now = Date.now()): RateLimitState {
    const window = Math.floor(now / WINDOW_MS);
    let entry = this.buckets.get(bucket);
    if (!entry || entry.window !== window) {
      if (!entry && this.buckets.size >= MAX_BUCKETS) this.prune(window);
      entry = { window, count: 0 };
      this.buckets.set(bucket, entry);
    }
    entry.count++;
    const resetMs = (window + 1) * WINDOW_MS;
    return {
      limit,
      remaining: Math.max(0, limit - entry.count),
      reset: Math.ceil(resetMs / 1000),
      exceeded: entry.count > limit,
      retryAfter: Math.max(1, Math.ceil((resetMs - now) / 1000)),
    };
  }

  /** Drops buckets of past windows (bounded memory under many client IPs). */
  private prune(window: number): void {
    for (const [k, v] of this.buckets) if (v.window !== window) this.buckets.delete(k);
  }
}
