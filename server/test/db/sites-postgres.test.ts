/**
 * Site hosting on PostgreSQL: the resolver's reads go through db.rows.sites asynchronously there,
 * and sites are still served by slug, preview branch and custom domain, and switch to a new
 * deployment on `deployment.changed`.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '@quire/shared/ids';
import { loadConfig } from '../../src/env';
import { openDb, type Db } from '../../src/db/client';
import { createAppContext, type AppContext } from '../../src/context';
import sitesPlugin from '../../src/sites/index';
import { siteFiles } from '../sites/site-fixture';
import { createTempDatabase, type TempDatabase } from '../helpers/pg-database';
import { requirePostgres } from '../helpers/services';

const postgres = await requirePostgres();

describe.skipIf(!postgres)('site hosting on PostgreSQL', () => {
  let database: TempDatabase;
  let dataDir: string;
  let db: Db;
  let app: FastifyInstance;
  let ctx: AppContext;
  const orgId = newId('organization');
  const projectId = newId('project');

  async function deploy(marker: string, preview?: string): Promise<void> {
    const buildId = newId('build');
    const rel = `sites/${projectId}/${buildId}`;
    for (const [file, content] of Object.entries(siteFiles(marker))) {
      const abs = path.join(dataDir, rel, file);
      fs.mkdirSync(path.dirname(abs), { recursive: true });
      fs.writeFileSync(abs, content as string | Buffer);
    }
    await db.prisma.build.create({ data: { id: buildId, projectId, status: 'deployed', trigger: 'api', branch: preview ?? 'main', isPreview: Boolean(preview) } });
    await db.prisma.deployment.create({
      data: { id: newId('deployment'), projectId, buildId, kind: preview ? 'preview' : 'production', previewName: preview ?? '', dir: rel },
    });
    ctx.events.emit('deployment.changed', { projectId });
  }
  const get = (host: string) => app.inject({ method: 'GET', url: '/introduction', headers: { host } });

  beforeAll(async () => {
    database = await createTempDatabase(postgres!.url);
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-sites-pg-'));
    const config = loadConfig({ QUIRE_DATA_DIR: dataDir, QUIRE_LOG_LEVEL: 'silent', DATABASE_URL: database.url });
    db = await openDb(config.databaseUrl);
    app = Fastify({ logger: false });
    ctx = createAppContext({ config, db, log: app.log });
    app.decorate('ctx', ctx);
    await app.register(sitesPlugin);
    app.get('/*', async () => ({ api: true }));
    await app.ready();
    await db.prisma.organization.create({ data: { id: orgId, name: 'Org' } });
    await db.prisma.project.create({ data: { id: projectId, orgId, name: 'Acme', slug: 'acme', settings: JSON.stringify({ protectPreviews: false }), customDomain: 'docs.acme.test' } });
    await deploy('ACME-ONE');
    await deploy('ACME-PREVIEW', 'feature-x');
  });
  afterAll(async () => {
    await app?.close();
    await db?.close();
    await database?.drop();
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('serves production by slug, a preview by branch host, a custom domain, and leaves other hosts to the API', async () => {
    expect((await get('acme-docs.localhost:4000')).body).toContain('ACME-ONE');
    expect((await get('feature-x--acme-docs.localhost')).body).toContain('ACME-PREVIEW');
    expect((await get('nobody-docs.localhost')).statusCode).toBe(404);
    await expect.poll(async () => (await get('docs.acme.test')).body).toContain('ACME-ONE');
    expect((await get('127.0.0.1:4000')).json()).toEqual({ api: true });
  });

  it('switches to a new deployment on deployment.changed', async () => {
    await deploy('ACME-TWO');
    await expect.poll(async () => (await get('acme-docs.localhost')).body).toContain('ACME-TWO');
    expect((await get('docs.acme.test')).body).toContain('ACME-TWO');
  });
});
