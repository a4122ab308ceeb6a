import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/app';
import { loadConfig } from '../../src/env';
import { bearer } from '../helpers/app';

// Built by hand (not createTestApp) to add a route that crashes before the app is ready.
let app: FastifyInstance;
let key: string;
let dataDir: string;
beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-errors-'));
  app = await buildApp(loadConfig({ QUIRE_DATA_DIR: dataDir, QUIRE_LOG_LEVEL: 'silent' }), { runJobs: false });
  app.get('/v1/__crash', { config: { public: true } }, async () => {
    throw new Error('secret internal detail at /srv/db password=hunter2');
  });
  await app.ready();
  key = app.bootstrap.adminKey!;
});
afterAll(async () => {
  await app.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe('error envelope', () => {
  it('answers unknown routes with 404 not_found in the envelope, with request id and rate-limit headers', async () => {
    const res = await app.inject({ url: '/v1/no-such-thing' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ error: { code: 'not_found' } });
    expect(res.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    expect(res.headers['x-ratelimit-limit']).toBeDefined();
  });

  it('answers malformed JSON with 400 invalid_request and changes nothing', async () => {
    const res = await app.inject({ method: 'POST', url: '/v1/projects', headers: { ...bearer(key), 'content-type': 'application/json' }, payload: '{"name": ' });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toMatchObject({ code: 'invalid_request', details: { field: 'body' } });
    expect(await app.ctx.db.prisma.project.count()).toBe(0);
  });

  it('answers bodies over 1 MiB with 413 in the envelope', async () => {
    const big = JSON.stringify({ name: 'x', description: 'a'.repeat(1024 * 1024 + 10) });
    const res = await app.inject({ method: 'POST', url: '/v1/projects', headers: { ...bearer(key), 'content-type': 'application/json' }, payload: big });
    expect(res.statusCode).toBe(413);
    expect(res.json().error.code).toBe('payload_too_large');
  });

  it('answers a crash with 500 internal_error without internals', async () => {
    const res = await app.inject({ url: '/v1/__crash' });
    expect(res.statusCode).toBe(500);
    expect(res.json()).toEqual({ error: { code: 'internal_error', message: 'Something went wrong on our side.' } });
    expect(res.body).not.toContain('hunter2');
  });

  it('gives every response a different X-Request-Id', async () => {
    const a = await app.inject({ url: '/v1/projects', headers: bearer(key) });
    const b = await app.inject({ url: '/v1/projects', headers: bearer(key) });
    expect(a.headers['x-request-id']).not.toBe(b.headers['x-request-id']);
    expect(a.headers['x-content-type-options']).toBe('nosniff');
  });
});
