/**
 * What must be atomic across server processes holds on one PostgreSQL database (decisions.md
 * sections 2 and 4): two apps on the same database stand for two server processes, each with its
 * own connection pool, and requests race through both.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/app';
import { loadConfig } from '../../src/env';
import { bearer, createOrgWithKey, createTestApp, type TestApp } from '../helpers/app';
import { createTempDatabase, type TempDatabase } from '../helpers/pg-database';
import { requirePostgres } from '../helpers/services';

const postgres = await requirePostgres();

describe.skipIf(!postgres)('two server processes on one PostgreSQL database', () => {
  let database: TempDatabase;
  let a: TestApp;
  let b: FastifyInstance;
  let dataDirB: string;
  beforeAll(async () => {
    database = await createTempDatabase(postgres!.url);
    a = await createTestApp({ env: { DATABASE_URL: database.url } });
    dataDirB = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-test-b-'));
    b = await buildApp(loadConfig({ QUIRE_DATA_DIR: dataDirB, QUIRE_LOG_LEVEL: 'silent', QUIRE_ALLOW_FILE_REPOS: '1', DATABASE_URL: database.url }), { runJobs: false });
    await b.ready();
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
    await database?.drop();
    if (dataDirB) fs.rmSync(dataDirB, { recursive: true, force: true });
  });

  it('starts exactly one build when 10 triggers for one project race through both', async () => {
    const created = await a.app.inject({ method: 'POST', url: '/v1/projects', headers: bearer(a.adminKey), payload: { name: 'Race', repoUrl: path.join(os.tmpdir(), 'race-repo') } });
    expect(created.statusCode).toBe(201);
    const projectId = created.json().data.id as string;
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, i) => (i % 2 ? b : a.app).inject({ method: 'POST', url: `/v1/projects/${projectId}/builds`, headers: bearer(a.adminKey), payload: {} })),
    );
    const codes = results.map((r) => r.statusCode).sort();
    expect(codes).toEqual([202, ...Array(9).fill(409)]);
    expect(await a.ctx.db.prisma.build.count({ where: { projectId } })).toBe(1);
  });

  it('keeps the project quota when 10 creations race through both (free plan: 5 projects)', async () => {
    const org = await createOrgWithKey(a, { plan: 'free' });
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, i) => (i % 2 ? b : a.app).inject({ method: 'POST', url: '/v1/projects', headers: bearer(org.key), payload: { name: `Quota ${i}` } })),
    );
    const codes = results.map((r) => r.statusCode);
    expect(codes.filter((c) => c === 201)).toHaveLength(5);
    expect(results.filter((r) => r.statusCode !== 201).map((r) => r.json().error.code)).toEqual(Array(5).fill('quota_exceeded'));
    expect(await a.ctx.db.prisma.project.count({ where: { orgId: org.orgId } })).toBe(5);
  });

  it('rotates a key once when two rotations race: one 201, one 404, one live successor', async () => {
    const created = await a.app.inject({ method: 'POST', url: '/v1/projects', headers: bearer(a.adminKey), payload: { name: 'Rotate race' } });
    const projectId = created.json().data.id as string;
    const key = (await a.app.inject({ method: 'POST', url: '/v1/api-keys', headers: bearer(a.adminKey), payload: { name: 'Rotated', scope: 'read' } })).json().data;
    const results = await Promise.all(
      [a.app, b].map((app) => app.inject({ method: 'POST', url: `/v1/projects/${projectId}/api-keys/${key.id}/rotate`, headers: bearer(a.adminKey) })),
    );
    expect(results.map((r) => r.statusCode).sort()).toEqual([201, 404]);
    expect(await a.ctx.db.prisma.apiKey.count({ where: { previousKeyId: key.id } })).toBe(1);
  });
});
