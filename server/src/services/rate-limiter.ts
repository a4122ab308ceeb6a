/**
 * Fixed-window request counters kept in memory (interface-spec.md "Limits"; decisions.md
 * sections 2-3): one window per bucket per minute. Buckets are `org:<id>` for authenticated
 * calls and `ip:<address>` for everything else reaching the API; refused keys are
 * counted per `authfail:<address>` (services/auth-failures.ts).
 */
import { ApiError } from '@quire/shared/errors';
import { LRUCache } from 'lru-cache';

/** Length of a rate-limit window. */
export const WINDOW_MS = 60_000;
/** Buckets remembered by default; the least recently counted is forgotten past this. */
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

interface Bucket {
  window: number;
  count: number;
}

/**
 * Where request counters live. `hit` counts one request against `bucket` (at most `limit` per
 * {@link WINDOW_MS} fixed window, windows aligned on the epoch minute) and returns the bucket's
 * state. The in-memory store answers synchronously, which keeps the per-request hook free of
 * promises on the default path; shared stores answer with a promise and never reject (they fall
 * back to counting in memory when their server is unreachable).
 */
export interface RateLimitStore {
  hit(bucket: string, limit: number, now?: number): RateLimitState | Promise<RateLimitState>;
}

/** Counts requests per bucket in fixed one-minute windows in this process; memory is bounded by an LRU of buckets. */
export class RateLimiter implements RateLimitStore {
  private readonly buckets: LRUCache<string, Bucket>;

  /** @param maxBuckets most buckets kept (least recently counted dropped first). */
  constructor(maxBuckets = MAX_BUCKETS) {
    this.buckets = new LRUCache({ max: maxBuckets });
  }

  /** Counts one request against `bucket` with `limit` requests per minute. */
  hit(bucket: string, limit: number, now = Date.now()): RateLimitState {
    const window = Math.floor(now / WINDOW_MS);
    let entry = this.buckets.get(bucket);
    if (!entry || entry.window !== window) {
      entry = { window, count: 0 };
      this.buckets.set(bucket, entry);
    }
    entry.count++;
    return stateOf(entry.count, limit, window, now);
  }
}

/**
 * The state of a fixed-window bucket holding `count` requests (this one included) in `window`
 * (epoch minutes) at epoch ms `now`; shared by every store so all answer the same headers.
 */
export function stateOf(count: number, limit: number, window: number, now: number): RateLimitState {
  const resetMs = (window + 1) * WINDOW_MS;
  return {
    limit,
    remaining: Math.max(0, limit - count),
    reset: Math.ceil(resetMs / 1000),
    exceeded: count > limit,
    retryAfter: Math.max(1, Math.ceil((resetMs - now) / 1000)),
  };
}

/**
 * The 429 `rate_limited` error for a bucket over its limit (decisions.md section 3: 429 adds
 * `Retry-After`), with `Retry-After` and the `X-RateLimit-*` headers of that bucket.
 * @param what what is limited, e.g. "requests" or "failed authentications".
 */
export function rateLimitedError(state: RateLimitState, what = 'requests'): ApiError {
  return new ApiError('rate_limited', `Rate limit of ${state.limit} ${what} per minute exceeded; retry in ${state.retryAfter} s.`, undefined, {
    'Retry-After': String(state.retryAfter),
    'X-RateLimit-Limit': String(state.limit),
    'X-RateLimit-Remaining': String(state.remaining),
    'X-RateLimit-Reset': String(state.reset),
  });
}
