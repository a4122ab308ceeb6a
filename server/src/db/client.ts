import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import { PrismaBetterSQLite3 } from '@prisma/adapter-better-sqlite3';
import { PrismaPg } from '@prisma/adapter-pg';
import { PrismaClient } from './generated/client';
import { PrismaClient as PgPrismaClient } from './generated-pg/client';
import { migrate, migratePostgres } from './migrate';
import { postgresSessionLock, processSessionLock, type SessionLock } from './locks';
import { databaseProvider, type DbProvider } from './provider';
import { prismaApiKeyRows, sqliteApiKeyRows, type ApiKeyRows } from './repos/api-key-rows';
import { prismaSiteRows, sqliteSiteRows, type SiteRows } from './repos/site-rows';
import { postgresAnalyticsRows, sqliteAnalyticsRows, type AnalyticsRows } from './repos/analytics-rows';

export type { PrismaClient } from './generated/client';
export type * as Models from './generated/models';
export { databaseProvider, type DbProvider } from './provider';

/**
 * The database handles of one server process.
 * - `provider`: which database `DATABASE_URL` named.
 * - `prisma`: the ORM, for everything except hot paths. One type for both databases: the two
 *   generated clients come from the same schema (scripts/schemas.mjs) and differ only inside.
 * - `rows`: the hot-path repositories (API-key lookup, site resolution, analytics writes), raw
 *   better-sqlite3 on SQLite, Prisma or `pg` on PostgreSQL (see db/repos/).
 * - `sqlite`: the raw better-sqlite3 connection on SQLite (tools and tests; `null` on PostgreSQL).
 * - `sessionLock`: a lock held across every process on the database while a function runs (db/locks.ts):
 *   a session advisory lock on PostgreSQL, nothing more than the caller's in-process lock on SQLite.
 */
export interface Db {
  provider: DbProvider;
  prisma: PrismaClient;
  rows: { apiKeys: ApiKeyRows; sites: SiteRows; analytics: AnalyticsRows };
  sqlite: Database.Database | null;
  sessionLock: SessionLock;
  close(): Promise<void>;
}

/** Path of the SQLite file named by a `file:` URL. */
export function sqlitePath(databaseUrl: string): string {
  return databaseUrl.replace(/^file:/, '');
}

/**
 * The raw better-sqlite3 connection of a SQLite `db`, for tools and tests that need SQL.
 * @throws Error when `db` is a PostgreSQL database.
 */
export function sqliteOf(db: Db): Database.Database {
  if (!db.sqlite) throw new Error(`This needs a SQLite database; DATABASE_URL names ${db.provider}.`);
  return db.sqlite;
}

/**
 * Idle connections of the PostgreSQL pool close after this many ms: short, so a CLI command or a
 * test exits at once instead of waiting on the pool (offline-toolchain.md).
 */
const PG_IDLE_TIMEOUT_MS = 1_000;

/**
 * Connections that may hold session locks at once (db/locks.ts `postgresSessionLock`), in a pool of
 * their own beside Prisma's ten: a merge waiting for a lock never holds a connection the holder needs.
 */
const PG_LOCK_CONNECTIONS = 4;

/**
 * Opens the database `databaseUrl` names and applies its pending migrations (migrate.ts).
 * SQLite: creates the file if needed, WAL mode (a crash never loses a committed write).
 * PostgreSQL: a `pg` pool shared by Prisma's adapter; migrations under an advisory lock.
 * @throws Error for a URL that is neither `file:` nor `postgres(ql)://`, when the database cannot be
 *   opened or reached, or when a migration fails (that migration is rolled back).
 */
export async function openDb(databaseUrl: string): Promise<Db> {
  const provider = databaseProvider(databaseUrl);
  if (provider === 'postgresql') return openPostgres(databaseUrl);
  if (provider !== 'sqlite') throw new Error(`DATABASE_URL must be file:<path> (SQLite) or postgres://... (PostgreSQL); got a ${databaseUrl.split(':')[0]} URL.`);
  const file = sqlitePath(databaseUrl);
  fs.mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
  const sqlite = new Database(file);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('busy_timeout = 5000');
  sqlite.pragma('foreign_keys = ON');
  migrate(sqlite);
  const adapter = new PrismaBetterSQLite3({ url: `file:${file}` }, { timestampFormat: 'unixepoch-ms' } as never);
  const prisma = new PrismaClient({ adapter });
  await prisma.$connect();
  return {
    provider,
    prisma,
    rows: { apiKeys: sqliteApiKeyRows(sqlite), sites: sqliteSiteRows(sqlite), analytics: sqliteAnalyticsRows(sqlite) },
    sqlite,
    sessionLock: processSessionLock,
    async close() {
      await prisma.$disconnect();
      sqlite.close();
    },
  };
}

async function openPostgres(databaseUrl: string): Promise<Db> {
  const pool = new pg.Pool({ connectionString: databaseUrl, idleTimeoutMillis: PG_IDLE_TIMEOUT_MS, max: 10 });
  // An idle connection dropped by the server emits 'error' on the pool; the next query reconnects.
  pool.on('error', () => undefined);
  try {
    const client = await pool.connect();
    try {
      await migratePostgres(client);
    } finally {
      client.release();
    }
  } catch (err) {
    await pool.end();
    throw err;
  }
  // Same schema, same model types: the PostgreSQL client is used through the one PrismaClient type.
  const prisma = new PgPrismaClient({ adapter: new PrismaPg(pool) }) as unknown as PrismaClient;
  await prisma.$connect();
  // Connections open only while a lock is wanted; the first is made by the first lock.
  const lockPool = new pg.Pool({ connectionString: databaseUrl, idleTimeoutMillis: PG_IDLE_TIMEOUT_MS, max: PG_LOCK_CONNECTIONS });
  lockPool.on('error', () => undefined);
  let closed = false;
  return {
    provider: 'postgresql',
    prisma,
    rows: { apiKeys: prismaApiKeyRows(prisma), sites: prismaSiteRows(prisma), analytics: postgresAnalyticsRows(pool) },
    sqlite: null,
    sessionLock: postgresSessionLock(lockPool),
    async close() {
      if (closed) return;
      closed = true;
      await prisma.$disconnect();
      await pool.end().catch(() => undefined);
      await lockPool.end().catch(() => undefined);
    },
  };
}
