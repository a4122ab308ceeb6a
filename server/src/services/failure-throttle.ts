/**
 * Slows password guessing (CWE-307, "Improper Restriction of Excessive Authentication Attempts"):
 * failed attempts are counted per subject (an e-mail, a preview link, a client IP...) in a fixed
 * window that starts with the subject's first failure; once one of an attempt's subjects reached
 * its limit, the attempt is refused until that window ends, even with the right password, and
 * before any password is hashed (a hash costs an scrypt run: unthrottled guesses also burn CPU). Used by sign-in (sign-in-throttle.ts) and by preview-link
 * passwords (access/preview-links.ts).
 *
 * Counters live in a {@link FailureCountStore}: this process's memory ({@link MemoryFailureCounts}),
 * or Redis shared by every process of the installation with REDIS_URL (redis-failure-counts.ts),
 * so a guesser gains nothing by spreading attempts over the processes behind a load balancer.
 */

/** A key of a {@link FailureCountStore} with the failures it allows in one window. */
export interface LimitedKey {
  key: string;
  limit: number;
}

/**
 * Where failure counters live, by key. A key's window starts with its first failure and lasts the
 * `windowMs` given then; an ended window counts as empty. In-memory stores answer synchronously,
 * shared stores with a promise that never rejects (they fall back to memory when unreachable).
 */
export interface FailureCountStore {
  /**
   * In one atomic step: when no key has reached its limit, counts one failure for each (starting a
   * window of `windowMs` where none is live) and returns 0; else counts nothing and returns the ms
   * until the last exhausted key's window ends (at least 1).
   */
  take(keys: readonly LimitedKey[], windowMs: number, now: number): number | Promise<number>;
  /** Takes one failure back from each of `keys` (an attempt that turned out right). */
  release(keys: readonly string[], now: number): void | Promise<void>;
  /** Forgets `key`'s failures. */
  clear(key: string): void | Promise<void>;
}

/** Keys held before the memory store sweeps out ended windows. */
const SWEEP_ABOVE = 10_000;

interface Counter {
  count: number;
  /** epoch ms */
  resetAt: number;
}

/** Failure counters in this process's memory (ended windows swept out once more than 10,000 keys are held). */
export class MemoryFailureCounts implements FailureCountStore {
  private readonly counters = new Map<string, Counter>();

  private live(key: string, now: number): Counter | undefined {
    const counter = this.counters.get(key);
    if (counter && counter.resetAt <= now) {
      this.counters.delete(key);
      return undefined;
    }
    return counter;
  }

  take(keys: readonly LimitedKey[], windowMs: number, now: number): number {
    let until = 0;
    for (const { key, limit } of keys) {
      const counter = this.live(key, now);
      if (counter && counter.count >= limit) until = Math.max(until, counter.resetAt);
    }
    if (until > 0) return until - now;
    if (this.counters.size > SWEEP_ABOVE) for (const key of [...this.counters.keys()]) this.live(key, now);
    for (const { key } of keys) {
      const counter = this.live(key, now);
      if (counter) counter.count += 1;
      else this.counters.set(key, { count: 1, resetAt: now + windowMs });
    }
    return 0;
  }

  release(keys: readonly string[], now: number): void {
    for (const key of keys) {
      const counter = this.live(key, now);
      if (counter && --counter.count <= 0) this.counters.delete(key);
    }
  }

  clear(key: string): void {
    this.counters.delete(key);
  }
}

/** Limits of a {@link FailureThrottle}: failures allowed per subject of each kind in one window. */
export interface FailureLimits<Kind extends string> {
  /** failures allowed in one window, per subject of each kind (e.g. `{email: 10, ip: 50}`) */
  per: Readonly<Record<Kind, number>>;
  /** window length in milliseconds */
  windowMs: number;
}

/**
 * Counts failed attempts of one kind of password check; see the module comment. An attempt is
 * counted as a failure of each of its subjects when it starts ({@link FailureThrottle.attempt}), in
 * the same atomic step as the check, so concurrent guesses cannot all pass the check before the
 * first one is counted; a right password takes its count back ({@link FailureThrottle.succeeded}).
 */
export class FailureThrottle<Kind extends string> {
  private readonly kinds: Kind[];

  /**
   * @param store the app's failure counters (`ctx.failureCounts`).
   * @param name the namespace of this throttle's keys in `store` (`signin`, `preview`).
   * @param limits failures per subject of each kind, and the window.
   */
  constructor(
    private readonly store: FailureCountStore,
    private readonly name: string,
    readonly limits: FailureLimits<Kind>,
  ) {
    this.kinds = Object.keys(limits.per) as Kind[];
  }

  private key(kind: Kind, subject: string): string {
    return `${this.name}:${kind}:${subject}`;
  }

  /**
   * Starts an attempt about `subjects` (one per kind): refused while one of them has used up its
   * failures; otherwise counted as a failure of each until {@link succeeded} takes it back.
   * @returns 0 when the attempt may go on; else the seconds (at least 1) until it may (for `Retry-After`).
   */
  async attempt(subjects: Readonly<Record<Kind, string>>, now = Date.now()): Promise<number> {
    const keys = this.kinds.map((kind) => ({ key: this.key(kind, subjects[kind]), limit: this.limits.per[kind] }));
    const waitMs = await this.store.take(keys, this.limits.windowMs, now);
    return waitMs > 0 ? Math.max(1, Math.ceil(waitMs / 1000)) : 0;
  }

  /**
   * An attempt started with {@link attempt} was right: forgets every failure of its subject of
   * kind `cleared` (the account or link it opened) and takes its count back from the others.
   */
  async succeeded(subjects: Readonly<Record<Kind, string>>, cleared: Kind, now = Date.now()): Promise<void> {
    await Promise.all([
      this.store.clear(this.key(cleared, subjects[cleared])),
      this.store.release(
        this.kinds.filter((kind) => kind !== cleared).map((kind) => this.key(kind, subjects[kind])),
        now,
      ),
    ]);
  }
}
