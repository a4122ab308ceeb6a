#!/usr/bin/env node
// Runs the Prisma CLI offline. Prisma 6.19 with the JS engine never executes its native engines,
// but the CLI checks for them before some commands; pointing these variables at any existing file
// skips that download (see shared/notes/offline-toolchain.md). Usage: node scripts/prisma.mjs <args>
//
// `generate` (server's postinstall) builds both clients from the one schema: prisma/schema.prisma
// (SQLite, client in src/db/generated) and the PostgreSQL schema derived from it by
// scripts/schemas.mjs (client in src/db/generated-pg).
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import { writeDerivedSchemas, SCHEMAS } from './schemas.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const require = createRequire(import.meta.url);
const cli = require.resolve('prisma/build/index.js');
const env = {
  ...process.env,
  PRISMA_QUERY_ENGINE_LIBRARY: process.env.PRISMA_QUERY_ENGINE_LIBRARY ?? cli,
  PRISMA_SCHEMA_ENGINE_BINARY: process.env.PRISMA_SCHEMA_ENGINE_BINARY ?? cli,
  PRISMA_HIDE_UPDATE_MESSAGE: '1',
  CHECKPOINT_DISABLE: '1',
};

/** Runs the Prisma CLI with `args`; returns its exit status. */
function prisma(args) {
  const result = spawnSync(process.execPath, [cli, ...args], { cwd: path.join(here, '..'), env, stdio: 'inherit' });
  return result.status ?? 1;
}

const args = process.argv.slice(2);
if (args[0] === 'generate' && !args.some((a) => a.startsWith('--schema'))) {
  writeDerivedSchemas();
  for (const schema of [SCHEMAS.sqlite, SCHEMAS.postgresql]) {
    const status = prisma([...args, '--schema', schema]);
    if (status !== 0) process.exit(status);
  }
  process.exit(0);
}
process.exit(prisma(args));
