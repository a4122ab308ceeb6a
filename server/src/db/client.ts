import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { PrismaBetterSQLite3 } from '@prisma/adapter-better-sqlite3';
import { PrismaClient } from './generated/client';
import { migrate } from './migrate';

export type { PrismaClient } from './generated/client';
export type * as Models from './generated/models';

/**
 * The database handles of one server process.
 * - `prisma`: the ORM, for everything except hot paths.
 * - `sqlite`: a raw better-sqlite3 connection to the same file, for hot-path reads that must not
 *   cost an ORM round trip (API-key lookup, site resolution); see offline-toolchain.md.
 */
export interface Db {
  prisma: PrismaClient;
  sqlite: Database.Database;
  close(): Promise<void>;
}

/** Path of the SQLite file named by a `file:` URL. */
export function sqlitePath(databaseUrl: string): string {
  return databaseUrl.replace(/^file:/, '');
}

/**
 * Opens (creating if needed) the SQLite database at `databaseUrl`, switches it to WAL mode
 * (so a crash never loses a committed write), applies pending migrations, and returns both handles.
 * @throws Error when the file cannot be opened or a migration fails (the migration is rolled back).
 */
export async function openDb(databaseUrl: string): Promise<Db> {
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
    prisma,
    sqlite,
    async close() {
      await prisma.$disconnect();
      sqlite.close();
    },
  };
}
