import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type Database from 'better-sqlite3';

/** Folder of the SQL migrations written by `prisma migrate diff` (one folder each, applied in name order). */
export const MIGRATIONS_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'prisma', 'migrations');

/**
 * Applies every migration in {@link MIGRATIONS_DIR} not yet recorded in `_quire_migrations`,
 * each in its own transaction, so a failed migration leaves the database as it was.
 * (Prisma's own `migrate deploy` needs its CLI at run time; these are the same SQL files.)
 * @returns the names of the migrations applied now.
 */
export function migrate(sqlite: Database.Database, dir = MIGRATIONS_DIR): string[] {
  sqlite.exec('CREATE TABLE IF NOT EXISTS _quire_migrations (name TEXT PRIMARY KEY, applied_at TEXT NOT NULL)');
  const done = new Set(
    (sqlite.prepare('SELECT name FROM _quire_migrations').all() as { name: string }[]).map((r) => r.name),
  );
  const applied: string[] = [];
  for (const name of fs.readdirSync(dir).sort()) {
    const file = path.join(dir, name, 'migration.sql');
    if (done.has(name) || !fs.existsSync(file)) continue;
    const sql = fs.readFileSync(file, 'utf8');
    sqlite.transaction(() => {
      sqlite.exec(sql);
      sqlite.prepare('INSERT INTO _quire_migrations (name, applied_at) VALUES (?, ?)').run(name, new Date().toISOString());
    })();
    applied.push(name);
  }
  return applied;
}
