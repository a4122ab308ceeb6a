import { loadConfig, type Config } from '../env';
import { openDb, type Db } from '../db/client';
import type { CliIo } from './io';

/**
 * Runs `fn` with the server's database, as configured by the CLI's environment (QUIRE_DATA_DIR /
 * DATABASE_URL, decisions.md section 1), and closes it afterwards. SQLite in WAL mode lets this
 * run while the server is up.
 * @throws ConfigError for an invalid environment; whatever `fn` throws.
 */
export async function withDb<T>(io: CliIo, fn: (db: Db, config: Config) => Promise<T>): Promise<T> {
  const config = loadConfig(io.env, io.cwd);
  const db = await openDb(config.databaseUrl);
  try {
    return await fn(db, config);
  } finally {
    await db.close();
  }
}
