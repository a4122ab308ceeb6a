/**
 * Shared setup of the approval tests: an app that can be closed and built again on the same data
 * directory and database (a server restart), people of the default organization with keys, and a
 * small docs repository with a gated folder.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { newId } from '@quire/shared/ids';
import type { Permission } from '@quire/shared/api/api-keys';
import type { Role } from '@quire/shared/api/members';
import { buildApp } from '../../src/app';
import { loadConfig } from '../../src/env';
import { createApiKey } from '../../src/services/api-keys';
import { createFixtureRepo, type FixtureRepo } from '../helpers/git-repo';
import { testDatabaseFromEnv, type TempDatabase } from '../helpers/pg-database';

/** A data directory and database that outlive the apps opened on them. */
export interface Server {
  dataDir: string;
  database: TempDatabase | null;
  /** Builds and readies an app on them (the build runner on unless `runJobs` is false). */
  open(runJobs?: boolean): Promise<FastifyInstance>;
  /** Removes the data directory and drops the database. */
  remove(): Promise<void>;
}

/** A {@link Server}; `env`: more environment variables of its apps (e.g. `{ QUIRE_ALLOW_PRIVATE_NETWORK: '1' }`). */
export async function createServer(env: Record<string, string> = {}): Promise<Server> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-approval-'));
  const database = await testDatabaseFromEnv();
  const config = loadConfig({
    QUIRE_DATA_DIR: dataDir,
    QUIRE_LOG_LEVEL: 'silent',
    QUIRE_ALLOW_FILE_REPOS: '1',
    ...(database ? { DATABASE_URL: database.url } : {}),
    ...env,
  });
  return {
    dataDir,
    database,
    async open(runJobs = true) {
      const app = await buildApp(config, { runJobs });
      await app.ready();
      return app;
    },
    async remove() {
      await database?.drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** A member of the app's default organization with `role`, and a key acting as them. */
export async function person(
  app: FastifyInstance,
  name: string,
  role: Role,
  permissions: Permission[] = ['projects:read', 'projects:write', 'builds:read', 'builds:write'],
): Promise<{ userId: string; key: string }> {
  const orgId = (await app.ctx.db.prisma.organization.findFirstOrThrow({ orderBy: { createdAt: 'asc' } })).id;
  const user = await app.ctx.db.prisma.user.create({ data: { id: newId('user'), email: `${name}-${newId('user').slice(4, 12).toLowerCase()}@acme.test`, name, passwordHash: '' } });
  await app.ctx.db.prisma.membership.create({ data: { orgId, userId: user.id, role } });
  const { key } = await createApiKey(app.ctx.db, { orgId, createdById: user.id, name: `${name} key`, permissions, projectId: null, mode: 'live', expiresAt: null });
  return { userId: user.id, key };
}

/** Docs with a home page, a guide and a gated `security/` page; `marker` shows in each page. */
export function gatedDocsRepo(marker = 'FIRST'): FixtureRepo {
  return createFixtureRepo(undefined, {
    extraFiles: {
      'docs.json': JSON.stringify({ name: 'Acme Docs', navigation: { groups: [{ group: 'Start', pages: ['index', 'guides/setup', 'security/keys'] }] } }),
      'index.mdx': `# Welcome\n\n${marker} home page.\n`,
      'guides/setup.mdx': `# Setup\n\nInstall it. ${marker}\n`,
      'security/keys.mdx': `# Keys\n\nRotate keys. ${marker}\n`,
    },
  });
}

/** `{ authorization: 'Bearer <key>' }`. */
export const auth = (key: string) => ({ authorization: `Bearer ${key}` });

/** Polls a build until `done(build)` holds (or throws after `timeoutMs`); returns the build. */
export async function waitForBuild(
  app: FastifyInstance,
  key: string,
  projectId: string,
  buildId: string,
  done: (b: { status: string; step: string | null; [k: string]: unknown }) => boolean,
  timeoutMs = 30_000,
) {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const res = await app.inject({ url: `/v1/projects/${projectId}/builds/${buildId}`, headers: auth(key) });
    const build = res.json().data as { status: string; step: string | null; [k: string]: unknown };
    if (done(build)) return build;
    if (Date.now() > until) throw new Error(`build ${buildId} still ${build.status} (${build.step})`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Reads a page of the production site by Host. */
export const site = (app: FastifyInstance, slug: string, url = '/') => app.inject({ url, headers: { host: `${slug}-docs.localhost:4000` } });

/** A project's audit entries of one `action`, newest first (the log filters by actor and resource type only). */
export async function auditOf(app: FastifyInstance, key: string, projectId: string, action: string) {
  const res = await app.inject({ url: `/v1/projects/${projectId}/audit-log?limit=100`, headers: auth(key) });
  return (
    res.json().data as Array<{
      action: string;
      actor: { id: string };
      resource: { type: string; id: string; name?: string };
      metadata: Record<string, unknown>;
    }>
  ).filter((e) => e.action === action);
}
