#!/usr/bin/env node
// `pnpm db:migration <name>`: after editing prisma/schema.prisma, writes the migration that takes
// the database from the schema of the last migration (prisma/migrations/schema.snapshot.prisma) to
// the edited one, for SQLite and for PostgreSQL, as prisma/migrations/<provider>/<NNNN>_<name>/
// migration.sql, and updates the snapshot. Prisma's `migrate dev` cannot run here (driver
// adapters, offline); `migrate diff` between two schema files needs no database
// (shared/notes/offline-toolchain.md). server/test/db/migrations.test.ts fails until this is run.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { postgresSchema, SCHEMAS } from './schemas.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const migrations = path.join(here, '..', 'prisma', 'migrations');
const snapshot = path.join(migrations, 'schema.snapshot.prisma');
const name = process.argv[2];
if (!name || !/^[a-z0-9_]{1,60}$/.test(name)) {
  console.error('Usage: pnpm db:migration <name>   (lowercase letters, digits and _, e.g. add_webhooks)');
  process.exit(2);
}
const before = fs.readFileSync(snapshot, 'utf8');
const after = fs.readFileSync(SCHEMAS.sqlite, 'utf8');
if (before === after) {
  console.log('prisma/schema.prisma is unchanged since the last migration: nothing to write.');
  process.exit(0);
}
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-migration-'));
const number = String(Math.max(0, ...fs.readdirSync(path.join(migrations, 'sqlite')).map((d) => Number.parseInt(d, 10) || 0)) + 1).padStart(4, '0');
for (const [provider, derive] of [['sqlite', (s) => s], ['postgresql', postgresSchema]]) {
  const from = path.join(tmp, `${provider}.before.prisma`);
  const to = path.join(tmp, `${provider}.after.prisma`);
  fs.writeFileSync(from, derive(before));
  fs.writeFileSync(to, derive(after));
  const result = spawnSync(
    process.execPath,
    [path.join(here, 'prisma.mjs'), 'migrate', 'diff', '--from-schema-datamodel', from, '--to-schema-datamodel', to, '--script'],
    { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] },
  );
  if (result.status !== 0) process.exit(result.status ?? 1);
  const dir = path.join(migrations, provider, `${number}_${name}`);
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, 'migration.sql'), result.stdout);
  console.log(`wrote ${path.relative(process.cwd(), path.join(dir, 'migration.sql'))}`);
}
fs.writeFileSync(snapshot, after);
fs.rmSync(tmp, { recursive: true, force: true });
