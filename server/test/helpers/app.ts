/**
 * Builds a Quire app for route tests driven by `app.inject()`: a fresh temporary data directory
 * (its own SQLite database; with `QUIRE_TEST_DB=postgres`, its own PostgreSQL database
 * `quire_test_<random>`, dropped on close, see `pnpm test:pg`), silent logs, `QUIRE_ALLOW_FILE_REPOS=1`, the build runner off unless
 * asked for, and the bootstrap admin key of the default organization.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/app';
import { loadConfig } from '../../src/env';
import type { AppContext } from '../../src/context';
import { newId } from '@quire/shared/ids';
import type { Permission } from '@quire/shared/api/api-keys';
import { createOrganization, type Plan } from '../../src/services/organizations';
import { createApiKey } from '../../src/services/api-keys';
import { testDatabaseFromEnv } from './pg-database';

/** Options of {@link createTestApp}. */
export interface TestAppOptions {
  /** Extra environment variables (override the defaults above), e.g. `{ QUIRE_DEFAULT_PLAN: 'free' }`. */
  env?: Record<string, string>;
  /** Start the in-process build runner (default false). */
  runJobs?: boolean;
}

/** A ready test app; call `close()` in `afterAll`/`afterEach` (closes the app and removes the data dir). */
export interface TestApp {
  app: FastifyInstance;
  /** The default organization's bootstrap `admin` key. */
  adminKey: string;
  ctx: AppContext;
  dataDir: string;
  close(): Promise<void>;
}

/**
 * Creates a ready app on a temporary data directory.
 * @example const t = await createTestApp(); const res = await t.app.inject({ url: '/v1/projects', headers: { authorization: `Bearer ${t.adminKey}` } });
 */
export async function createTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-test-'));
  const database = await testDatabaseFromEnv();
  const config = loadConfig({
    QUIRE_DATA_DIR: dataDir,
    QUIRE_LOG_LEVEL: 'silent',
    QUIRE_ALLOW_FILE_REPOS: '1',
    ...(database ? { DATABASE_URL: database.url } : {}),
    ...options.env,
  });
  let app: FastifyInstance;
  try {
    app = await buildApp(config, { runJobs: options.runJobs ?? false });
    await app.ready();
  } catch (err) {
    await database?.drop();
    throw err;
  }
  const adminKey = app.bootstrap.adminKey;
  if (!adminKey) throw new Error('createTestApp: bootstrap did not create an admin key');
  let closed = false;
  return {
    app,
    adminKey,
    ctx: app.ctx,
    dataDir,
    async close() {
      if (closed) return;
      closed = true;
      try {
        await app.close();
      } finally {
        await database?.drop();
        fs.rmSync(dataDir, { recursive: true, force: true });
      }
    },
  };
}


/** `{ authorization: 'Bearer <key>' }` for inject(). */
export function bearer(key: string): Record<string, string> {
  return { authorization: `Bearer ${key}` };
}

/**
 * Creates another organization (plan default `pro`) with an owner user and a key, for
 * cross-organization and plan tests. Returns the org id, user id and the full key.
 */
export async function createOrgWithKey(
  t: Pick<TestApp, 'ctx'>,
  options: { plan?: Plan; permissions?: Permission[]; projectId?: string | null; mode?: 'live' | 'test'; email?: string; expiresAt?: Date | null } = {},
): Promise<{ orgId: string; userId: string; key: string; keyId: string }> {
  const org = await createOrganization(t.ctx.db, { name: 'Other org', plan: options.plan ?? 'pro' });
  const user = await t.ctx.db.prisma.user.create({
    data: { id: newId('user'), email: options.email ?? `owner-${org.id.toLowerCase()}@example.com`, name: 'Other Owner', passwordHash: '' },
  });
  await t.ctx.db.prisma.membership.create({ data: { orgId: org.id, userId: user.id, role: 'owner' } });
  const { key, record } = await createApiKey(t.ctx.db, {
    orgId: org.id,
    createdById: user.id,
    name: 'test key',
    permissions: options.permissions ?? ['admin'],
    projectId: options.projectId ?? null,
    mode: options.mode ?? 'live',
    expiresAt: options.expiresAt ?? null,
  });
  return { orgId: org.id, userId: user.id, key, keyId: record.id };
}

/**
 * A new key of the default organization (acting as its bootstrap owner) with the given
 * permissions, optionally scoped to a project or in test mode. Returns the full key and its id.
 */
export async function createKey(
  t: Pick<TestApp, 'app' | 'ctx'>,
  permissions: Permission[],
  options: { projectId?: string | null; mode?: 'live' | 'test'; expiresAt?: Date | null; name?: string } = {},
): Promise<{ key: string; keyId: string }> {
  const orgId = t.app.bootstrap.orgId!;
  const owner = await t.ctx.db.prisma.membership.findFirst({ where: { orgId, role: 'owner' }, orderBy: { createdAt: 'asc' } });
  const { key, record } = await createApiKey(t.ctx.db, {
    orgId,
    createdById: owner?.userId ?? null,
    name: options.name ?? 'test key',
    permissions,
    projectId: options.projectId ?? null,
    mode: options.mode ?? 'live',
    expiresAt: options.expiresAt ?? null,
  });
  return { key, keyId: record.id };
}
