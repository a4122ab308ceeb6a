/** The databases Quire runs on (decisions.md section 1: `DATABASE_URL` chooses). */
export type DbProvider = 'sqlite' | 'postgresql';

/**
 * The provider a `DATABASE_URL` names: `file:` → SQLite, `postgres://`/`postgresql://` → PostgreSQL
 * (decisions.md section 1); `undefined` for anything else.
 */
export function databaseProvider(databaseUrl: string): DbProvider | undefined {
  if (databaseUrl.startsWith('file:')) return 'sqlite';
  if (/^postgres(ql)?:\/\//.test(databaseUrl)) return 'postgresql';
  return undefined;
}
