/** Searching every stored value for a secret (tests that a secret is never stored in the clear). */
import { expect } from 'vitest';
import type { AppContext } from '../../src/context';

/**
 * `table.column` of every stored value (any table, SQLite or PostgreSQL) that contains `needle`.
 * @param mustHave tables that must be among those searched (the search fails loudly when it reads the wrong database)
 */
export async function placesHolding(ctx: Pick<AppContext, 'db'>, needle: string, mustHave: string[]): Promise<string[]> {
  const { prisma, provider } = ctx.db;
  const tables = await prisma.$queryRawUnsafe<{ name: string }[]>(
    provider === 'sqlite'
      ? "SELECT name FROM sqlite_master WHERE type = 'table'"
      : "SELECT table_name AS name FROM information_schema.tables WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'",
  );
  expect(tables.map((r) => r.name)).toEqual(expect.arrayContaining(mustHave));
  const found: string[] = [];
  for (const { name } of tables) {
    for (const row of await prisma.$queryRawUnsafe<Record<string, unknown>[]>(`SELECT * FROM "${name.replaceAll('"', '""')}"`)) {
      for (const [column, value] of Object.entries(row)) {
        const text = value instanceof Uint8Array ? Buffer.from(value).toString('latin1') : String(value);
        if (text.includes(needle)) found.push(`${name}.${column}`);
      }
    }
  }
  return found;
}
