import path from 'node:path';
import { defineConfig } from 'prisma/config';
import { PrismaBetterSQLite3 } from '@prisma/adapter-better-sqlite3';
import { PrismaPg } from '@prisma/adapter-pg';

// Prisma CLI configuration: JS engine with a driver adapter (offline-capable). DATABASE_URL chooses
// the database as the server does: postgres(ql):// → PostgreSQL (the schema derived from
// prisma/schema.prisma by scripts/schemas.mjs), anything else → SQLite. Short idle timeout, or each
// CLI command on PostgreSQL lingers 10 s (offline-toolchain.md).
const url = process.env.DATABASE_URL ?? 'file:./prisma/dev.db';
const postgres = /^postgres(ql)?:\/\//.test(url);
export default defineConfig({
  experimental: { adapter: true },
  engine: 'js',
  schema: postgres ? path.join('prisma', 'postgresql', 'schema.prisma') : path.join('prisma', 'schema.prisma'),
  adapter: async () => (postgres ? new PrismaPg({ connectionString: url, idleTimeoutMillis: 100 }) : new PrismaBetterSQLite3({ url })),
});
