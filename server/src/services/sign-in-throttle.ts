import { ApiError } from '@quire/shared/errors';

/**
 * Slows password guessing on `auth.signIn`: failed attempts are counted per e-mail and per client
 * IP in a fixed window; once a counter reaches its limit, further attempts for that e-mail or IP
 * answer rate_limited (429) until the window ends, even with the right password. A successful
 * sign-in clears the e-mail's counter. Counters live in the server process's memory.
 */

/** Limits of a {@link SignInThrottle}. */
export interface SignInThrottleLimits {
  /** Failed attempts allowed per e-mail in one window. */
  perEmail: number;
  /** Failed attempts allowed per client IP in one window. */
  perIp: number;
  /** Window length in milliseconds. */
  windowMs: number;
}

/** 10 failures per e-mail and 50 per IP in 15 minutes. */
export const DEFAULT_SIGN_IN_LIMITS: Readonly<SignInThrottleLimits> = { perEmail: 10, perIp: 50, windowMs: 15 * 60 * 1000 };

interface Counter {
  count: number;
  resetAt: number;
}

/** Counts failed sign-ins; see the module comment. */
export class SignInThrottle {
  private readonly counters = new Map<string, Counter>();

  constructor(private readonly limits: SignInThrottleLimits = DEFAULT_SIGN_IN_LIMITS) {}

  private live(key: string, now: number): Counter | undefined {
    const counter = this.counters.get(key);
    if (counter && counter.resetAt <= now) {
      this.counters.delete(key);
      return undefined;
    }
    return counter;
  }

  /**
   * Refuses an attempt for `email` from `ip` when either has used up its failures.
   * @throws ApiError rate_limited with a `Retry-After` header (seconds).
   */
  assertAllowed(email: string, ip: string, now = Date.now()): void {
    const byEmail = this.live(`e:${email}`, now);
    const byIp = this.live(`i:${ip}`, now);
    const blocked = [
      byEmail && byEmail.count >= this.limits.perEmail ? byEmail : undefined,
      byIp && byIp.count >= this.limits.perIp ? byIp : undefined,
    ].filter((c): c is Counter => c !== undefined);
    if (blocked.length === 0) return;
    const retryAfter = Math.ceil((Math.max(...blocked.map((c) => c.resetAt)) - now) / 1000);
    throw new ApiError('rate_limited', `Too many failed sign-ins; try again in ${Math.ceil(retryAfter / 60)} minute(s).`, undefined, {
      'Retry-After': String(retryAfter),
    });
  }

  /** Counts one failed attempt for `email` and `ip`. */
  recordFailure(email: string, ip: string, now = Date.now()): void {
    if (this.counters.size > 10_000) for (const key of [...this.counters.keys()]) this.live(key, now);
    for (const key of [`e:${email}`, `i:${ip}`]) {
      const counter = this.live(key, now);
      if (counter) counter.count += 1;
      else this.counters.set(key, { count: 1, resetAt: now + this.limits.windowMs });
    }
  }

  /** Clears the failures of `email` after a successful sign-in. */
  recordSuccess(email: string): void {
    this.counters.delete(`e:${email}`);
  }
}
