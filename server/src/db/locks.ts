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
