import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type Database from 'better-sqlite3';
import type pg from 'pg';
import type { DbProvider } from './provider';

/**
 * Folder of the SQL migrations of each provider, written by `pnpm db:migration <name>` from the
 * one schema (server/prisma/schema.prisma): `<root>/<provider>/<NNNN>_<name>/migration.sql`,
 * applied in name order. Both providers have the same migration names.
 */
export const MIGRATIONS_ROOT = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'prisma', 'migrations');

/** The migration folder of `provider`. */
export function migrationsDir(provider: DbProvider): string {
  return path.join(MIGRATIONS_ROOT, provider);
}

/** The migrations in `dir`, in the order they apply: `[name, sql]`. */
export function readMigrations(dir: string): [name: string, sql: string][] {
  return fs
    .readdirSync(dir)
    .sort()
    .filter((name) => fs.existsSync(path.join(dir, name, 'migration.sql')))
    .map((name) => [name, fs.readFileSync(path.join(dir, name, 'migration.sql'), 'utf8')]);
}

/**
 * Applies every SQLite migration of `dir` not yet recorded in `_quire_migrations`, each in its own
 * transaction, so a failed migration leaves the database as it was. (Prisma's own
 * `migrate deploy` needs its CLI at run time; these are the same SQL files.) SQLite serializes
 * writers, so two processes starting at once apply each migration once.
 * @returns the names of the migrations applied now.
 * @throws the SQLite error of a failing migration (that migration is rolled back).
 */
export function migrate(sqlite: Database.Database, dir = migrationsDir('sqlite')): string[] {
  sqlite.exec('CREATE TABLE IF NOT EXISTS _quire_migrations (name TEXT PRIMARY KEY, applied_at TEXT NOT NULL)');
  const applied: string[] = [];
  for (const [name, sql] of readMigrations(dir)) {
    const done = sqlite.transaction(() => {
      // Read inside the write transaction: another process may have applied it meanwhile.
      if (sqlite.prepare('SELECT 1 FROM _quire_migrations WHERE name = ?').get(name)) return false;
      sqlite.exec(sql);
      sqlite.prepare('INSERT INTO _quire_migrations (name, applied_at) VALUES (?, ?)').run(name, new Date().toISOString());
      return true;
    }).immediate();
    if (done) applied.push(name);
  }
  return applied;
}

/** Key of the advisory lock held while PostgreSQL migrations run (any constant; "quire" in ASCII). */
export const MIGRATION_LOCK_KEY = 0x7175697265;

/**
 * Applies every PostgreSQL migration of `dir` not yet recorded in `_quire_migrations`, each in
 * its own transaction (PostgreSQL DDL is transactional, so a failed migration leaves nothing
 * behind). The session holds advisory lock {@link MIGRATION_LOCK_KEY} throughout, so processes
 * starting at once apply each migration exactly once: the others wait, then find it recorded.
 * @param client a connected client, used alone for the duration (not a pool).
 * @returns the names of the migrations applied now.
 * @throws the PostgreSQL error of a failing migration (that migration is rolled back).
 */
export async function migratePostgres(client: pg.ClientBase, dir = migrationsDir('postgresql')): Promise<string[]> {
  const applied: string[] = [];
  await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
  try {
    await client.query('CREATE TABLE IF NOT EXISTS _quire_migrations (name TEXT PRIMARY KEY, applied_at TIMESTAMPTZ NOT NULL DEFAULT now())');
    const done = new Set((await client.query<{ name: string }>('SELECT name FROM _quire_migrations')).rows.map((r) => r.name));
    for (const [name, sql] of readMigrations(dir)) {
      if (done.has(name)) continue;
      await client.query('BEGIN');
      try {
        await client.query(sql);
        await client.query('INSERT INTO _quire_migrations (name) VALUES ($1)', [name]);
        await client.query('COMMIT');
      } catch (err) {
        await client.query('ROLLBACK');
        throw err;
      }
      applied.push(name);
    }
  } finally {
    await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]).catch(() => undefined);
  }
  return applied;
}
