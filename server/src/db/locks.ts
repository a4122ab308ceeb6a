import type pg from 'pg';
import type { PrismaClient } from './generated/client';
import type { DbProvider } from './provider';

/** What a lock needs of a Prisma transaction client. */
type Tx = Pick<PrismaClient, '$executeRawUnsafe'>;

/**
 * Serializes, across every process on the database, the transactions that lock the same `key`
 * (e.g. `build:<projectId>`, `projects:<orgId>`): call it first inside `$transaction`; the lock is
 * held until that transaction ends. Check-then-write rules (one build per project at a time, the
 * project quota) then hold with concurrent requests on several servers.
 *
 * PostgreSQL: a transaction-scoped advisory lock on the key's 64-bit hash
 * (`pg_advisory_xact_lock(hashtextextended(key, 0))`); under READ COMMITTED each later statement
 * sees what the previous holder committed. SQLite: nothing to do, its writers are serialized and
 * Prisma's better-sqlite3 adapter runs one transaction at a time per process.
 * @throws the database error when the lock cannot be taken (the transaction rolls back).
 */
export async function lockKey(tx: Tx, provider: DbProvider, key: string): Promise<void> {
  if (provider !== 'postgresql') return;
  await tx.$executeRawUnsafe('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', key);
}

/**
 * Runs `fn` while holding the lock on `key`, shared by every process on the database; returns or
 * throws what `fn` does. Calls of one process should first be serialized in memory (ops/keyed-lock.ts),
 * so that each waits for the database lock with at most one connection per key.
 */
export type SessionLock = <T>(key: string, fn: () => Promise<T>) => Promise<T>;

/** SQLite: one server process per database file, so the caller's in-process lock is the whole lock. */
export const processSessionLock: SessionLock = (_key, fn) => fn();

/**
 * PostgreSQL: a session-level advisory lock (`pg_advisory_lock(hashtextextended(key, 0))`, the key
 * space of {@link lockKey}) held on a connection of `pool` for as long as `fn` runs, for work longer
 * than a transaction should stay open (a review merge fetches and pushes to git). `pool` must not
 * be the pool `fn` queries through: a waiter's connection would then be one the holder needs.
 * Unlocked when `fn` settles; if the connection breaks, PostgreSQL releases the lock with it.
 * @throws the database error when the lock cannot be taken (`fn` does not run).
 */
export function postgresSessionLock(pool: pg.Pool): SessionLock {
  return async (key, fn) => {
    const client = await pool.connect();
    let broken: unknown;
    const onError = (err: unknown) => {
      broken = err;
    };
    client.on('error', onError);
    try {
      await client.query('SELECT pg_advisory_lock(hashtextextended($1, 0))', [key]);
    } catch (err) {
      client.off('error', onError);
      client.release(err instanceof Error ? err : true);
      throw err;
    }
    try {
      return await fn();
    } finally {
      try {
        if (!broken) await client.query('SELECT pg_advisory_unlock(hashtextextended($1, 0))', [key]);
      } catch (err) {
        broken = err;
      } finally {
        client.off('error', onError);
        // A connection that failed to unlock is closed: PostgreSQL then releases the lock itself.
        client.release(broken ? true : undefined);
      }
    }
  };
}
