/**
 * Migration 0014 lower-cases the sync client ids stored in another case (with their recorded answers),
 * as the server now reads every client id (services/sync-ids.ts `syncClientKey`), and leaves alone an
 * id whose case variants claimed several rows. SQLite, and PostgreSQL when it answers.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { migrate, migratePostgres, migrationsDir } from '../../src/db/migrate';
import { requirePostgres } from '../helpers/services';
import { createTempDatabase, type TempDatabase } from '../helpers/pg-database';

const MIGRATION = '0014_sync_client_ids_lower_case';
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-sync-ids-'));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

/** A folder holding the migrations of `provider` before {@link MIGRATION}. */
function migrationsBefore(provider: 'sqlite' | 'postgresql'): string {
  const dir = path.join(tmp, provider);
  for (const name of fs.readdirSync(migrationsDir(provider)).filter((n) => n < MIGRATION)) {
    fs.cpSync(path.join(migrationsDir(provider), name), path.join(dir, name), { recursive: true });
  }
  return dir;
}

const MIXED = 'AB12CD34-0000-4000-8000-00000000000A';
const TWIN_UPPER = 'EF56AB78-0000-4000-8000-00000000000B';
/** Clients as stored before the migration: one in mixed case (with two answers), one lower-case, and a UUID claimed twice in two cases. */
const CLIENTS: Array<[clientId: string, userId: string, lastSeq: number]> = [
  [MIXED, 'usr_owner', 2],
  ['11111111-0000-4000-8000-000000000001', 'usr_other', 1],
  [TWIN_UPPER, 'usr_first', 1],
  [TWIN_UPPER.toLowerCase(), 'usr_second', 1],
];
const RESULTS: Array<[clientId: string, seq: number]> = [
  [MIXED, 1],
  [MIXED, 2],
  [TWIN_UPPER, 1],
  [TWIN_UPPER.toLowerCase(), 1],
];
/** What the rows must read after it. */
const EXPECTED = {
  clients: [
    ['11111111-0000-4000-8000-000000000001', 'usr_other', 1],
    [MIXED.toLowerCase(), 'usr_owner', 2],
    [TWIN_UPPER, 'usr_first', 1],
    [TWIN_UPPER.toLowerCase(), 'usr_second', 1],
  ],
  results: [
    [MIXED.toLowerCase(), 1],
    [MIXED.toLowerCase(), 2],
    [TWIN_UPPER, 1],
    [TWIN_UPPER.toLowerCase(), 1],
  ],
};
const byId = <T extends unknown[]>(rows: T[]) => [...rows].sort((a, b) => (`${a[0]}${a[1]}` < `${b[0]}${b[1]}` ? -1 : 1));

describe('migration 0014 (sync client ids in lower case)', () => {
  it('lower-cases client ids and their answers on SQLite', () => {
    const db = new Database(':memory:');
    migrate(db, migrationsBefore('sqlite'));
    for (const [clientId, userId, lastSeq] of CLIENTS) {
      db.prepare('INSERT INTO "SyncClient" ("clientId", "userId", "orgId", "lastSeq", "updatedAt") VALUES (?, ?, ?, ?, ?)').run(clientId, userId, 'org_a', lastSeq, new Date().toISOString());
    }
    for (const [clientId, seq] of RESULTS) db.prepare('INSERT INTO "SyncResult" ("clientId", "seq", "result") VALUES (?, ?, ?)').run(clientId, seq, '{"ok":true,"result":{}}');
    expect(migrate(db)).toEqual([MIGRATION, ...fs.readdirSync(migrationsDir('sqlite')).filter((n) => n > MIGRATION)]);
    const clients = (db.prepare('SELECT "clientId", "userId", "lastSeq" FROM "SyncClient"').all() as Array<{ clientId: string; userId: string; lastSeq: number }>).map((r) => [r.clientId, r.userId, r.lastSeq]);
    const results = (db.prepare('SELECT "clientId", "seq" FROM "SyncResult"').all() as Array<{ clientId: string; seq: number }>).map((r) => [r.clientId, r.seq]);
    expect(byId(clients)).toEqual(byId(EXPECTED.clients));
    expect(byId(results)).toEqual(byId(EXPECTED.results));
    db.close();
  });
});

const postgres = await requirePostgres();

describe.skipIf(!postgres)('migration 0014 on PostgreSQL', () => {
  let database: TempDatabase | undefined;
  afterAll(async () => {
    await database?.drop();
  });

  it('lower-cases client ids and their answers', async () => {
    database = await createTempDatabase(postgres!.url);
    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    try {
      await migratePostgres(client, migrationsBefore('postgresql'));
      for (const [clientId, userId, lastSeq] of CLIENTS) {
        await client.query('INSERT INTO "SyncClient" ("clientId", "userId", "orgId", "lastSeq", "updatedAt") VALUES ($1, $2, $3, $4, now())', [clientId, userId, 'org_a', lastSeq]);
      }
      for (const [clientId, seq] of RESULTS) await client.query('INSERT INTO "SyncResult" ("clientId", "seq", "result") VALUES ($1, $2, $3)', [clientId, seq, '{}']);
      expect((await migratePostgres(client))[0]).toBe(MIGRATION);
      const clients = (await client.query<{ clientId: string; userId: string; lastSeq: number }>('SELECT "clientId", "userId", "lastSeq" FROM "SyncClient"')).rows.map((r) => [r.clientId, r.userId, r.lastSeq]);
      const results = (await client.query<{ clientId: string; seq: number }>('SELECT "clientId", "seq" FROM "SyncResult"')).rows.map((r) => [r.clientId, r.seq]);
      expect(byId(clients)).toEqual(byId(EXPECTED.clients));
      expect(byId(results)).toEqual(byId(EXPECTED.results));
    } finally {
      await client.end();
    }
  });
});
