import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { newId } from '@quire/shared/ids';
import type { Role } from '@quire/shared/api/members';
import { openDb, type Db } from '../../src/db/client';
import { hashPassword } from '../../src/services/passwords';
import { testDatabaseFromEnv } from '../helpers/pg-database';

/** Fixtures for identity tests: a throw-away database (SQLite; PostgreSQL with QUIRE_TEST_DB=postgres) with organizations and members. */

/** The password every seeded member has (hashed once per test file, since scrypt is deliberately slow). */
export const TEST_PASSWORD = 'correct horse battery staple';

let testHash: Promise<string> | undefined;

/** A temporary data directory with a migrated database; `cleanup()` closes and deletes it. */
export async function openTempDb(): Promise<{ db: Db; dir: string; databaseUrl: string; cleanup: () => Promise<void> }> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-identity-'));
  const database = await testDatabaseFromEnv();
  const databaseUrl = database?.url ?? `file:${path.join(dir, 'quire.db')}`;
  const db = await openDb(databaseUrl);
  return {
    db,
    dir,
    databaseUrl,
    cleanup: async () => {
      await db.close();
      await database?.drop();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Creates an organization; `createdAt` lets tests order organizations. @returns its id. */
export async function seedOrg(db: Db, name = 'Acme', createdAt = new Date()): Promise<string> {
  const org = await db.prisma.organization.create({ data: { id: newId('organization'), name, plan: 'pro', createdAt } });
  return org.id;
}

/**
 * Creates a user with {@link TEST_PASSWORD} (or `passwordHash` as given, e.g. '' for "cannot sign in")
 * and, when `orgId` is given, a membership with `role`. Reuses an existing user with the same e-mail.
 */
export async function seedMember(
  db: Db,
  orgId: string | null,
  email: string,
  role: Role = 'editor',
  options: { passwordHash?: string; joinedAt?: Date } = {},
): Promise<{ id: string; email: string }> {
  testHash ??= hashPassword(TEST_PASSWORD);
  const passwordHash = options.passwordHash ?? (await testHash);
  const user =
    (await db.prisma.user.findUnique({ where: { email } })) ??
    (await db.prisma.user.create({ data: { id: newId('user'), email, name: email.split('@')[0]!, passwordHash } }));
  if (orgId) await db.prisma.membership.create({ data: { orgId, userId: user.id, role, createdAt: options.joinedAt ?? new Date() } });
  return { id: user.id, email: user.email };
}
