/**
 * The hot-path repositories (db/repos) answer the same on SQLite (raw better-sqlite3) and on
 * PostgreSQL (Prisma): the deployment a site host serves, a channel's newest deployment, custom
 * domains, an API key by hash with its plan fields, and last uses that never move backwards.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '@quire/shared/ids';
import { openDb, type Db } from '../../src/db/client';
import { createTempDatabase, type TempDatabase } from '../helpers/pg-database';
import { requirePostgres } from '../helpers/services';

const postgres = await requirePostgres();

/** PostgreSQL joins when it is reachable (requirePostgres skips it with a message, or fails on CI). */
const providers: [name: string, isPostgres: boolean][] = postgres ? [['SQLite', false], ['PostgreSQL', true]] : [['SQLite', false]];

describe.each(providers)('repositories on %s', (_name, isPostgres) => {
  let db: Db;
  let dir: string | undefined;
  let database: TempDatabase | undefined;
  const orgId = newId('organization');
  const projectId = newId('project');
  const t0 = Date.UTC(2030, 0, 1);

  beforeAll(async () => {
    if (isPostgres) {
      database = await createTempDatabase(postgres!.url);
      db = await openDb(database.url);
    } else {
      dir = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-repos-'));
      db = await openDb(`file:${path.join(dir, 'quire.db')}`);
    }
    await db.prisma.organization.create({ data: { id: orgId, name: 'Org', plan: 'free', projectLimit: 7 } });
    await db.prisma.project.create({ data: { id: projectId, orgId, name: 'Docs', slug: 'docs', settings: '{}', customDomain: 'docs.example.com' } });
    await db.prisma.project.create({ data: { id: newId('project'), orgId, name: 'Other', slug: 'other', settings: '{}' } });
    const deploy = async (kind: 'production' | 'preview', previewName: string, at: number, dirName: string) => {
      const buildId = newId('build');
      await db.prisma.build.create({ data: { id: buildId, projectId, status: 'deployed', trigger: 'api', branch: 'main', createdAt: new Date(at) } });
      await db.prisma.deployment.create({ data: { id: newId('deployment'), projectId, buildId, kind, previewName, dir: dirName, createdAt: new Date(at) } });
    };
    await deploy('production', '', t0, 'prod-old');
    await deploy('production', '', t0 + 1000, 'prod-new');
    await deploy('preview', 'feature-x', t0 + 500, 'preview-x');
    await deploy('preview', 'feature-y', t0 + 200, 'preview-y-old');
    await deploy('preview', 'feature-y', t0 + 300, 'preview-y-new');
  });
  afterAll(async () => {
    await db?.close();
    await database?.drop();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('find the newest deployment of a channel, by slug or by project, and every channel current deployment', async () => {
    const sites = db.rows.sites;
    expect((await sites.newestBySlug('docs', 'production', ''))?.dir).toBe('prod-new');
    expect((await sites.newestBySlug('docs', 'preview', 'feature-y'))?.dir).toBe('preview-y-new');
    expect(await sites.newestBySlug('docs', 'preview', 'nope')).toBeUndefined();
    expect(await sites.newestBySlug('other', 'production', '')).toBeUndefined();
    expect(await sites.newestProduction(projectId)).toMatchObject({ dir: 'prod-new', projectId, kind: 'production', previewName: '' });
    expect((await sites.currentOfProject(projectId)).map((r) => r.dir).sort()).toEqual(['preview-x', 'preview-y-new', 'prod-new']);
    expect(await sites.customDomains()).toEqual([{ id: projectId, customDomain: 'docs.example.com' }]);
  });

  it('read a key by hash with its organization plan, and record last uses without moving them back', async () => {
    const keyId = newId('apiKey');
    const expiresAt = new Date(t0 + 86_400_000);
    await db.prisma.apiKey.create({
      data: { id: keyId, orgId, projectId, name: 'k', prefix: 'quire_abcdefgh', hash: 'h'.repeat(64), permissions: '["projects:read"]', expiresAt },
    });
    const keys = db.rows.apiKeys;
    expect(await keys.byHash('x'.repeat(64))).toBeUndefined();
    expect(await keys.byHash('h'.repeat(64))).toEqual({
      id: keyId,
      orgId,
      createdById: null,
      permissions: '["projects:read"]',
      projectId,
      mode: 'live',
      expiresAt: expiresAt.getTime(),
      revokedAt: null,
      plan: 'free',
      rateLimit: null,
      projectLimit: 7,
    });
    await keys.recordLastUse([[keyId, t0 + 5000]]);
    await keys.recordLastUse([[keyId, t0 + 1000]]);
    const row = await db.prisma.apiKey.findUniqueOrThrow({ where: { id: keyId } });
    expect(row.lastUsedAt?.getTime()).toBe(t0 + 5000);
  });
});
