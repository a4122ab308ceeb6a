import { ApiError } from '@quire/shared/errors';
import { FailureThrottle, type FailureCountStore, type FailureLimits } from './failure-throttle';

/**
 * Slows password guessing on `auth.signIn` (CWE-307; failure-throttle.ts): failed attempts are
 * counted per e-mail and per client IP in a fixed window; once a counter reaches its limit, further
 * attempts for that e-mail or IP answer rate_limited (429) until the window ends, even with the
 * right password, before the password is hashed. A successful sign-in clears the e-mail's counter. Counters live in the app's
 * failure counters (`ctx.failureCounts`: shared by every process with REDIS_URL).
 */

/** Limits of a {@link SignInThrottle}: failures per e-mail and per client IP in one window. */
export type SignInThrottleLimits = FailureLimits<'email' | 'ip'>;

/** 10 failures per e-mail and 50 per IP in 15 minutes. */
export const DEFAULT_SIGN_IN_LIMITS: Readonly<SignInThrottleLimits> = { per: { email: 10, ip: 50 }, windowMs: 15 * 60 * 1000 };

/** Counts failed sign-ins; see the module comment. */
export class SignInThrottle {
  private readonly throttle: FailureThrottle<'email' | 'ip'>;

  /** @param store the app's failure counters (`ctx.failureCounts`). */
  constructor(store: FailureCountStore, limits: SignInThrottleLimits = DEFAULT_SIGN_IN_LIMITS) {
    this.throttle = new FailureThrottle(store, 'signin', limits);
  }

  /**
   * Starts a sign-in attempt for `email` from `ip`: refused when either has used up its failures,
   * else counted as a failure of both until {@link recordSuccess} (atomically: concurrent attempts
   * cannot all pass before one is counted).
   * @throws ApiError rate_limited with a `Retry-After` header (seconds).
   */
  async attempt(email: string, ip: string, now = Date.now()): Promise<void> {
    const retryAfter = await this.throttle.attempt({ email, ip }, now);
    if (retryAfter === 0) return;
    throw new ApiError('rate_limited', `Too many failed sign-ins; try again in ${Math.ceil(retryAfter / 60)} minute(s).`, undefined, {
      'Retry-After': String(retryAfter),
    });
  }

  /** The attempt of `email` from `ip` was right: clears the e-mail's failures and takes the attempt back from the IP's. */
  recordSuccess(email: string, ip: string, now = Date.now()): Promise<void> {
    return this.throttle.succeeded({ email, ip }, 'email', now);
  }
}
