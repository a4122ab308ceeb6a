import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '@quire/shared/ids';
import { createAppContext, type AppContext } from '../../src/context';
import { dataPaths } from '../../src/data-paths';
import { openDb, sqliteOf, type Db } from '../../src/db/client';
import { loadConfig } from '../../src/env';
import { KEEP_PRODUCTION, publishDeployment, pruneOldDeployments, recordDeployment } from '../../src/deployments/publish';
import { AFTER_DEPLOY_GRACE_MS, finishInterruptedDeploys } from '../../src/deployments/after-deploy';
import sitesPlugin from '../../src/sites/index';
import { POINTER_REFRESH_MS } from '../../src/sites/site-resolver';
import { startTestS3, type TestS3 } from '../storage/s3-server';
import { siteFiles } from './site-fixture';

const HOST = 'acme-docs.localhost';

let s3: TestS3;
let dataDir: string;
let db: Db;
/** Two "server processes": own context, event bus, store and caches each; one database and one bucket. */
const servers: { app: FastifyInstance; ctx: AppContext }[] = [];
let projectId: string;

beforeAll(async () => {
  s3 = await startTestS3();
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-s3-sites-'));
  const config = loadConfig({ QUIRE_DATA_DIR: dataDir, QUIRE_LOG_LEVEL: 'silent', ...s3.env });
  db = await openDb(config.databaseUrl);
  for (let i = 0; i < 2; i++) {
    const app = Fastify({ logger: false });
    const ctx = createAppContext({ config, db, log: app.log });
    app.decorate('ctx', ctx);
    await app.register(sitesPlugin);
    app.get('/*', async () => ({ api: true }));
    await app.ready();
    servers.push({ app, ctx });
  }
  const orgId = newId('organization');
  sqliteOf(db).prepare(`INSERT INTO Organization (id, name, plan, createdAt) VALUES (?, 'Org', 'pro', ?)`).run(orgId, Date.now());
  projectId = newId('project');
  sqliteOf(db)
    .prepare(`INSERT INTO Project (id, orgId, name, slug, repoBranch, settings, createdAt, updatedAt) VALUES (?, ?, 'Acme', 'acme', 'main', '{}', ?, ?)`)
    .run(projectId, orgId, Date.now(), Date.now());
});

afterAll(async () => {
  for (const s of servers) {
    await s.app.close();
    s.ctx.deploymentStore.close();
  }
  await db?.close();
  await s3?.stop();
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
});

/**
 * What a finished build does on server 0: stages its site in the data dir, records and publishes
 * it (upload, row, pointer), then announces `deployment.changed` on the buses listed in `tell`.
 */
/** Writes the site of `marker` where build `buildId` stages its output; returns that directory. */
function stage(buildId: string, marker: string): string {
  const staging = dataPaths(dataDir).site(projectId, buildId);
  for (const [file, content] of Object.entries(siteFiles(marker))) {
    fs.mkdirSync(path.dirname(path.join(staging, file)), { recursive: true });
    fs.writeFileSync(path.join(staging, file), content as string);
  }
  return staging;
}

async function deploy(marker: string, tell: number[] = [0]): Promise<string> {
  const buildId = newId('build');
  const staging = stage(buildId, marker);
  sqliteOf(db)
    .prepare(`INSERT INTO Build (id, projectId, status, trigger, branch, isPreview, createdAt) VALUES (?, ?, 'building', 'api', 'main', 0, ?)`)
    .run(buildId, projectId, Date.now());
  const ok = await recordDeployment(servers[0]!.ctx, {
    buildId,
    projectId,
    kind: 'production',
    previewName: '',
    dir: path.relative(dataDir, staging),
    url: `http://${HOST}/`,
    commitSha: 'a'.repeat(40),
    commitMessage: marker,
    startedAt: new Date(),
  });
  expect(ok).toBe(true);
  for (const i of tell) servers[i]!.ctx.events.emit('deployment.changed', { projectId });
  return buildId;
}

const page = async (server: number, url = '/introduction') => {
  const res = await servers[server]!.app.inject({ method: 'GET', url, headers: { host: HOST } });
  return { status: res.statusCode, body: res.body };
};

describe('sites served from an S3 deployment store (s3rver)', () => {
  it('publishes a build to the bucket and serves its pages from there on every server', async () => {
    const buildId = await deploy('FIRST');
    expect(fs.existsSync(dataPaths(dataDir).site(projectId, buildId))).toBe(false);
    expect(s3.keys()).toEqual(
      expect.arrayContaining([
        `deployments/${projectId}/${buildId}/manifest.json`,
        `deployments/${projectId}/${buildId}/guides/setup.html`,
        `pointers/${projectId}/production.json`,
      ]),
    );
    const row = sqliteOf(db).prepare(`SELECT dir FROM Deployment WHERE buildId = ?`).get(buildId) as { dir: string };
    expect(row.dir).toBe(`deployments/${projectId}/${buildId}`);
    for (const server of [0, 1]) {
      const res = await page(server);
      expect(res.status).toBe(200);
      expect(res.body).toContain('FIRST');
    }
    expect((await page(1, '/nope')).status).toBe(404);
  });

  it('switches at once on deployment.changed, and a server that missed the event within the pointer refresh', async () => {
    await deploy('SECOND', [0]);
    expect((await page(0)).body).toContain('SECOND');
    // server 1 never heard of it: it still serves from memory, then re-reads the pointer
    const started = Date.now();
    let body = (await page(1)).body;
    while (!body.includes('SECOND') && Date.now() - started < POINTER_REFRESH_MS + 3000) {
      await new Promise((r) => setTimeout(r, 100));
      body = (await page(1)).body;
    }
    expect(body).toContain('SECOND');

    await deploy('THIRD', [0, 1]);
    expect((await page(1)).body).toContain('THIRD');
  });

  it('keeps serving what the pointer names while a newer row is not live yet', async () => {
    // a row recorded but its pointer not yet written (the moment between the two writes)
    const buildId = newId('build');
    sqliteOf(db)
      .prepare(`INSERT INTO Build (id, projectId, status, trigger, branch, isPreview, createdAt) VALUES (?, ?, 'deployed', 'api', 'main', 0, ?)`)
      .run(buildId, projectId, Date.now());
    sqliteOf(db)
      .prepare(`INSERT INTO Deployment (id, projectId, buildId, kind, previewName, dir, createdAt) VALUES (?, ?, ?, 'production', '', ?, ?)`)
      .run(newId('deployment'), projectId, buildId, `deployments/${projectId}/${buildId}`, Date.now() + 1000);
    servers[0]!.ctx.events.emit('deployment.changed', { projectId });
    expect((await page(0)).body).toContain('THIRD');
    sqliteOf(db).prepare(`DELETE FROM Deployment WHERE buildId = ?`).run(buildId);
  });

  it('deletes the uploaded files of a build cancelled before it was recorded', async () => {
    const buildId = newId('build');
    const staging = dataPaths(dataDir).site(projectId, buildId);
    fs.mkdirSync(staging, { recursive: true });
    fs.writeFileSync(path.join(staging, 'manifest.json'), '{}');
    sqliteOf(db)
      .prepare(`INSERT INTO Build (id, projectId, status, trigger, branch, isPreview, createdAt) VALUES (?, ?, 'cancelled', 'api', 'main', 0, ?)`)
      .run(buildId, projectId, Date.now());
    const record = { buildId, projectId, kind: 'production', previewName: '', dir: path.relative(dataDir, staging) } as const;
    const meta = { url: `http://${HOST}/`, commitSha: 'b'.repeat(40), commitMessage: 'late', startedAt: new Date() };
    expect(await recordDeployment(servers[0]!.ctx, { ...record, ...meta })).toBe(false);
    expect(s3.keys().filter((k) => k.includes(buildId))).toEqual([]);
    servers[0]!.ctx.events.emit('deployment.changed', { projectId });
    expect((await page(0)).body).toContain('THIRD');
  });

  it('prunes old deployments by deleting their objects', async () => {
    const builds = sqliteOf(db).prepare(`SELECT buildId FROM Deployment WHERE projectId = ? ORDER BY createdAt`).all(projectId) as { buildId: string }[];
    const oldest = builds[0]!.buildId;
    await deploy('FOURTH', [0, 1]);
    expect(builds.length + 1).toBeGreaterThan(KEEP_PRODUCTION);
    expect(await pruneOldDeployments(servers[0]!.ctx, projectId)).toEqual([oldest]);
    const keys = s3.keys();
    expect(keys.filter((k) => k.startsWith(`deployments/${projectId}/${oldest}/`))).toEqual([]);
    expect(new Set(keys.filter((k) => k.startsWith('deployments/')).map((k) => k.split('/')[2])).size).toBe(KEEP_PRODUCTION);
    expect((await page(1)).body).toContain('FOURTH');
  });

  it('puts live a deploy whose process died between its row and its pointer, and never undoes a newer deploy', async () => {
    const ctx = servers[0]!.ctx;
    /** A build recorded `deployed` (row committed, flag set) whose process died before writing the pointer. */
    const interrupted = async (marker: string, recordedAt: Date): Promise<string> => {
      const buildId = newId('build');
      const dir = await publishDeployment(ctx, projectId, buildId, stage(buildId, marker));
      const deployedAt = new Date(Date.now() - AFTER_DEPLOY_GRACE_MS - 1_000);
      await db.prisma.build.create({ data: { id: buildId, projectId, status: 'deployed', trigger: 'api', branch: 'main', afterDeployPending: true, deployedAt } });
      await db.prisma.deployment.create({ data: { id: newId('deployment'), projectId, buildId, kind: 'production', previewName: '', dir, createdAt: recordedAt } });
      return buildId;
    };
    const fifth = await interrupted('FIFTH', new Date());
    ctx.events.emit('deployment.changed', { projectId });
    expect((await page(0)).body).toContain('FOURTH'); // the pointer still names the previous deployment

    expect(await finishInterruptedDeploys(ctx)).toEqual([fifth]);
    expect(await ctx.deploymentStore.pointer({ projectId, kind: 'production', previewName: '' })).toBe(`deployments/${projectId}/${fifth}`);
    expect((await page(0)).body).toContain('FIFTH');
    expect((await db.prisma.build.findUnique({ where: { id: fifth } }))!.afterDeployPending).toBe(false);

    // An older deployment whose steps are still pending is finished without taking the channel back.
    const older = await interrupted('OLDER', new Date(Date.now() - 60_000));
    expect(await finishInterruptedDeploys(ctx)).toEqual([older]);
    expect(await ctx.deploymentStore.pointer({ projectId, kind: 'production', previewName: '' })).toBe(`deployments/${projectId}/${fifth}`);
    expect((await page(0)).body).toContain('FIFTH');
  });
});
