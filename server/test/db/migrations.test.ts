/**
 * Migration drift check: for each database, the checked-in migrations applied in order to an empty
 * database give exactly the schema that prisma/schema.prisma describes (the SQL of
 * `prisma migrate diff --from-empty --to-schema-datamodel`, applied to another empty database);
 * both databases have the same migrations; and the schema has no change without a migration
 * (`pnpm db:migration <name>` writes one and updates prisma/migrations/schema.snapshot.prisma).
 * Structures are compared through each database's catalog, not as SQL text, so a migration that
 * reaches the same schema by ALTER statements passes.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { migrate, migratePostgres, migrationsDir, MIGRATIONS_ROOT } from '../../src/db/migrate';
import { requirePostgres } from '../helpers/services';
import { createTempDatabase, type TempDatabase } from '../helpers/pg-database';
// @ts-expect-error -- plain ES module script without types
import { postgresSchema, SCHEMAS } from '../../scripts/schemas.mjs';

const server = path.join(import.meta.dirname, '..', '..');
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-drift-'));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

/** The SQL creating the whole schema for `provider`, from the schema file alone. */
function schemaSql(provider: 'sqlite' | 'postgresql'): string {
  const source = fs.readFileSync(SCHEMAS.sqlite as string, 'utf8');
  const file = path.join(tmp, `${provider}.prisma`);
  fs.writeFileSync(file, provider === 'sqlite' ? source : (postgresSchema as (s: string) => string)(source));
  const result = spawnSync(process.execPath, [path.join(server, 'scripts', 'prisma.mjs'), 'migrate', 'diff', '--from-empty', '--to-schema-datamodel', file, '--script'], {
    encoding: 'utf8',
  });
  expect(result.status, result.stderr).toBe(0);
  expect(result.stdout).toContain('CREATE TABLE');
  return result.stdout;
}

/** Tables, columns, indexes and foreign keys of a SQLite database (migration bookkeeping left out). */
function sqliteStructure(db: Database.Database): unknown {
  const tables = (db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name <> '_quire_migrations' ORDER BY name").all() as { name: string }[]).map((r) => r.name);
  return tables.map((table) => ({
    table,
    columns: db.prepare(`SELECT name, type, "notnull", dflt_value, pk FROM pragma_table_info(?) ORDER BY cid`).all(table),
    indexes: (db.prepare(`SELECT name, "unique", partial FROM pragma_index_list(?) ORDER BY name`).all(table) as { name: string }[]).map((index) => ({
      ...index,
      columns: db.prepare(`SELECT name FROM pragma_index_info(?) ORDER BY seqno`).all(index.name),
    })),
    foreignKeys: db.prepare(`SELECT "table", "from", "to", on_update, on_delete FROM pragma_foreign_key_list(?) ORDER BY id, seq`).all(table),
  }));
}

describe('migrations', () => {
  it('exist for both databases under the same names', () => {
    const names = (provider: 'sqlite' | 'postgresql') => fs.readdirSync(migrationsDir(provider)).sort();
    expect(names('sqlite').length).toBeGreaterThan(0);
    expect(names('postgresql')).toEqual(names('sqlite'));
  });

  it('cover every change of prisma/schema.prisma (else run `pnpm db:migration <name>`)', () => {
    const snapshot = fs.readFileSync(path.join(MIGRATIONS_ROOT, 'schema.snapshot.prisma'), 'utf8');
    expect(snapshot === fs.readFileSync(SCHEMAS.sqlite as string, 'utf8'), 'prisma/schema.prisma changed without a migration: run `pnpm db:migration <name>`').toBe(true);
  });

  it('build on SQLite exactly the schema prisma/schema.prisma describes', () => {
    const migrated = new Database(':memory:');
    expect(migrate(migrated).length).toBe(fs.readdirSync(migrationsDir('sqlite')).length);
    expect(migrate(migrated)).toEqual([]);
    const fresh = new Database(':memory:');
    fresh.exec(schemaSql('sqlite'));
    expect(sqliteStructure(migrated)).toEqual(sqliteStructure(fresh));
    migrated.close();
    fresh.close();
  });
});

const postgres = await requirePostgres();

describe.skipIf(!postgres)('migrations on PostgreSQL', () => {
  const databases: TempDatabase[] = [];
  afterAll(async () => {
    for (const db of databases) await db.drop();
  });

  /** Columns, indexes and constraints of the current schema (migration bookkeeping left out). */
  async function structure(client: pg.Client): Promise<unknown> {
    const q = async (sql: string) => (await client.query(sql)).rows;
    return {
      columns: await q(`SELECT table_name, column_name, data_type, is_nullable, column_default FROM information_schema.columns
                         WHERE table_schema = current_schema() AND table_name <> '_quire_migrations' ORDER BY table_name, column_name`),
      indexes: await q(`SELECT tablename, indexname, indexdef FROM pg_indexes WHERE schemaname = current_schema() AND tablename <> '_quire_migrations' ORDER BY indexname`),
      constraints: await q(`SELECT c.conrelid::regclass::text AS table, c.conname, pg_get_constraintdef(c.oid) AS def FROM pg_constraint c
                             JOIN pg_namespace n ON n.oid = c.connamespace WHERE n.nspname = current_schema() AND c.conrelid::regclass::text <> '_quire_migrations'
                             ORDER BY c.conname`),
    };
  }

  async function connect(): Promise<pg.Client> {
    const db = await createTempDatabase(postgres!.url);
    databases.push(db);
    const client = new pg.Client({ connectionString: db.url });
    await client.connect();
    return client;
  }

  it('build exactly the schema prisma/schema.prisma describes, once, even when two processes start at once', async () => {
    const migrated = await connect();
    const second = new pg.Client({ connectionString: databases[0]!.url });
    await second.connect();
    const [a, b] = await Promise.all([migratePostgres(migrated), migratePostgres(second)]);
    await second.end();
    const all = fs.readdirSync(migrationsDir('postgresql')).sort();
    expect([...a, ...b].sort()).toEqual(all);
    expect(await migratePostgres(migrated)).toEqual([]);
    const fresh = await connect();
    await fresh.query(schemaSql('postgresql'));
    const expected = await structure(fresh);
    expect(await structure(migrated)).toEqual(expected);
    expect((expected as { columns: unknown[] }).columns.length).toBeGreaterThan(20);
    await migrated.end();
    await fresh.end();
  });
});
