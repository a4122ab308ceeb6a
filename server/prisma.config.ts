import path from 'node:path';
import { defineConfig } from 'prisma/config';
import { PrismaBetterSQLite3 } from '@prisma/adapter-better-sqlite3';

// Prisma CLI configuration: JS engine with the better-sqlite3 driver adapter (offline-capable).
export default defineConfig({
  experimental: { adapter: true },
  engine: 'js',
  schema: path.join('prisma', 'schema.prisma'),
  adapter: async () => new PrismaBetterSQLite3({ url: process.env.DATABASE_URL ?? 'file:./prisma/dev.db' }),
});
