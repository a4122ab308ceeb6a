import fs from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import lockfile from 'proper-lockfile';
import { AbortError, throwIfAborted } from '../builder/errors';

/**
 * Exclusive use of a git cache directory (a build's repository cache, the repository reader's
 * cache) by every thread and process on this machine that shares the data directory: a server
 * and its build workers, or two servers started on one data directory.
 *
 * The lock is `<dir>.lock`, a directory made with `mkdir` (atomic on local file systems) by
 * `proper-lockfile`, which refreshes its modification time while it is held; a lock whose holder
 * died (crash, kill -9) stops being refreshed and is taken over once it is {@link STALE_MS} old.
 * A lock file per directory, not a database lock: the caches live on this machine's disk, and a
 * database lock would tie up a pooled connection for the length of a fetch.
 */

/** A held lock untouched for this long (ms) belongs to a dead holder and is taken over. */
export const STALE_MS = 30_000;
/** How often (ms) a waiter tries again, at first; the pause doubles up to {@link MAX_PAUSE_MS}. */
const FIRST_PAUSE_MS = 10;
const MAX_PAUSE_MS = 250;

/** How long {@link withDirLock} waits and what can stop it. */
export interface DirLockOptions {
  /** stops the wait (AbortError); the holder's work is not affected */
  signal?: AbortSignal;
  /** longest wait in ms before giving up with {@link DirLockTimeoutError} (default 10 minutes: a slow fetch of a big repository) */
  waitMs?: number;
}

/** The directory stayed locked by another holder for longer than the caller would wait. */
export class DirLockTimeoutError extends Error {
  override name = 'DirLockTimeoutError';
  constructor(readonly dir: string, readonly waitedMs: number) {
    super(`The repository cache ${path.basename(dir)} stayed busy for ${Math.round(waitedMs / 1000)} s; try again later.`);
  }
}

/**
 * Runs `fn` while holding the lock of `dir` (the directory need not exist; its parent is made).
 * Waiters poll (10 ms, doubling to 250 ms), so calls run one at a time but not strictly in call order.
 * @returns what `fn` returns. @throws what `fn` throws (the lock is released either way);
 *   AbortError when `signal` fires while waiting; DirLockTimeoutError past `waitMs`.
 */
export async function withDirLock<T>(dir: string, fn: () => Promise<T>, options: DirLockOptions = {}): Promise<T> {
  const lockPath = `${path.resolve(dir)}.lock`;
  fs.mkdirSync(path.dirname(lockPath), { recursive: true });
  const waitMs = options.waitMs ?? 10 * 60_000;
  const started = Date.now();
  let pause = FIRST_PAUSE_MS;
  let release: () => Promise<void>;
  for (;;) {
    throwIfAborted(options.signal);
    try {
      release = await lockfile.lock(dir, {
        lockfilePath: lockPath,
        realpath: false,
        stale: STALE_MS,
        retries: 0,
        // A holder whose refreshes fail (its lock was taken over after a long stall) goes on; the
        // default would throw from a timer and end the process.
        onCompromised: () => undefined,
      });
      break;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ELOCKED') throw err;
      if (Date.now() - started >= waitMs) throw new DirLockTimeoutError(dir, Date.now() - started);
      try {
        await sleep(pause, undefined, options.signal ? { signal: options.signal } : {});
      } catch {
        throw new AbortError();
      }
      pause = Math.min(pause * 2, MAX_PAUSE_MS);
    }
  }
  try {
    return await fn();
  } finally {
    await release().catch(() => undefined);
  }
}
