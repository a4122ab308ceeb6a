/**
 * In-process mutual exclusion by key: one per app (`ctx.locks`), so two apps in one process (tests)
 * never share locks. Keys are namespaced by their user, e.g. `sync:<clientId>`, `merge:<projectId>`.
 * Across processes it protects nothing; pair it with a database lock where several servers share
 * one database (db/locks.ts).
 */
export class KeyedLock {
  /** The last task queued per key; removed when it settles and nothing queued after it. */
  private readonly tails = new Map<string, Promise<unknown>>();

  /**
   * Runs `fn` after every earlier call with the same key has settled (whether it resolved or
   * threw), in call order; calls with other keys run concurrently.
   * @returns what `fn` returns. @throws what `fn` throws (later calls still run).
   */
  async run<T>(key: string, fn: () => Promise<T>): Promise<T> {
    const previous = this.tails.get(key) ?? Promise.resolve();
    const current = previous.catch(() => undefined).then(fn);
    this.tails.set(key, current);
    try {
      return await current;
    } finally {
      if (this.tails.get(key) === current) this.tails.delete(key);
    }
  }

  /** Keys with a call running or waiting (for tests and diagnostics). */
  get size(): number {
    return this.tails.size;
  }
}
