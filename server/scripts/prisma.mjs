#!/usr/bin/env node
// Runs the Prisma CLI offline. Prisma 6.19 with the JS engine never executes its native engines,
// but the CLI checks for them before some commands; pointing these variables at any existing file
// skips that download (see shared/notes/offline-toolchain.md). Usage: node scripts/prisma.mjs <args>
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import path from 'node:path';

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
const result = spawnSync(process.execPath, [cli, ...process.argv.slice(2)], {
  cwd: path.join(here, '..'),
  env,
  stdio: 'inherit',
});
process.exit(result.status ?? 1);
