/**
 * Throw-away PostgreSQL databases for tests: each gets its own `quire_test_<random>` database on
 * the server {@link requirePostgres} found, and drops it after (connections of other clients to it
 * are ended first).
 */
import crypto from 'node:crypto';
import pg from 'pg';
import { requirePostgres } from './services';

/** A database created for one test file or app. */
export interface TempDatabase {
  /** `postgresql://...` URL of the new database. */
  url: string;
  name: string;
  /** Drops the database (and any connection still open to it). Safe to call twice. */
  drop(): Promise<void>;
}

/**
 * Creates an empty database on the server of `adminUrl` (a role that may create databases).
 * @throws the PostgreSQL error when it cannot be created.
 */
export async function createTempDatabase(adminUrl: string): Promise<TempDatabase> {
  const name = `quire_test_${crypto.randomBytes(6).toString('hex')}`;
  await adminQuery(adminUrl, `CREATE DATABASE ${name}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  let dropped = false;
  return {
    url: url.toString(),
    name,
    async drop() {
      if (dropped) return;
      dropped = true;
      await adminQuery(adminUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    },
  };
}

async function adminQuery(adminUrl: string, sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/**
 * The PostgreSQL database a test should use instead of SQLite: a new {@link TempDatabase} when
 * `QUIRE_TEST_DB=postgres` (the `pnpm test:pg` run), else `null` (SQLite in the test's data dir).
 * @throws Error when PostgreSQL is asked for but not reachable.
 */
export async function testDatabaseFromEnv(): Promise<TempDatabase | null> {
  if (process.env.QUIRE_TEST_DB !== 'postgres') return null;
  const server = await requirePostgres();
  if (!server) throw new Error('QUIRE_TEST_DB=postgres: PostgreSQL is not reachable (see the warning above).');
  return createTempDatabase(server.url);
}
