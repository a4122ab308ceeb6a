/**
 * Readiness: named checks that must pass before a process should get traffic (`GET /readyz`,
 * plugins/health.ts). One {@link Readiness} per app context; the parts that own a dependency
 * register its check: the health plugin registers `database` (a `SELECT 1`) and `storage` (the
 * deployment store's `check()`), the job queue registers `queue`, and so on.
 */

/** A check: resolves when the dependency answers, throws (or rejects) when it does not. */
export type ReadinessCheck = () => Promise<unknown> | unknown;

/** Outcome of one check: `ms` is how long it took (capped by the timeout). */
export interface CheckResult {
  status: 'ok' | 'failing';
  ms: number;
  /** Why it failed: `timed out` or `failed` (details go to the log, not to unauthenticated callers). */
  error?: 'timed out' | 'failed';
}

/** Outcome of every check: `ok` only when each one is. */
export interface ReadinessReport {
  status: 'ok' | 'failing';
  checks: Record<string, CheckResult>;
}

const TIMEOUT = Symbol('timeout');

/** The named checks of one app, run together by {@link Readiness.run}. */
export class Readiness {
  private readonly checks = new Map<string, ReadinessCheck>();

  /**
   * Adds a check under `name` (e.g. `queue`).
   * @throws Error when a check of that name is already registered (two owners of one name is a bug).
   */
  register(name: string, check: ReadinessCheck): void {
    if (this.checks.has(name)) throw new Error(`readiness check "${name}" is already registered`);
    this.checks.set(name, check);
  }

  /** Names of the registered checks, in registration order. */
  names(): string[] {
    return [...this.checks.keys()];
  }

  /**
   * Runs every check at once, each bounded by `timeoutMs` (default 2000 ms).
   * @param onFailure told about each failing check's error (for the log).
   */
  async run(timeoutMs = 2000, onFailure: (name: string, err: unknown) => void = () => {}): Promise<ReadinessReport> {
    const entries = await Promise.all(
      [...this.checks].map(async ([name, check]): Promise<[string, CheckResult]> => {
        const started = performance.now();
        let timer: NodeJS.Timeout | undefined;
        const timeout = new Promise<typeof TIMEOUT>((resolve) => {
          timer = setTimeout(() => resolve(TIMEOUT), timeoutMs);
          timer.unref();
        });
        try {
          const outcome = await Promise.race([Promise.resolve().then(check), timeout]);
          const ms = Math.round(performance.now() - started);
          if (outcome === TIMEOUT) {
            onFailure(name, new Error(`no answer within ${timeoutMs} ms`));
            return [name, { status: 'failing', ms, error: 'timed out' }];
          }
          return [name, { status: 'ok', ms }];
        } catch (err) {
          onFailure(name, err);
          return [name, { status: 'failing', ms: Math.round(performance.now() - started), error: 'failed' }];
        } finally {
          clearTimeout(timer);
        }
      }),
    );
    const checks = Object.fromEntries(entries);
    return { status: entries.every(([, r]) => r.status === 'ok') ? 'ok' : 'failing', checks };
  }
}
