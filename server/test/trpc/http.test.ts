import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app';
import { loadConfig } from '../../src/env';
import { seedMember, seedOrg, TEST_PASSWORD } from '../services/identity-fixtures';

describe('tRPC over HTTP at /trpc', () => {
  let app: FastifyInstance;
  let dir: string;

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-trpc-http-'));
    app = await buildApp(loadConfig({ QUIRE_DATA_DIR: dir, QUIRE_LOG_LEVEL: 'silent' }), { runJobs: false });
    await app.ready();
    const orgId = await seedOrg(app.ctx.db, 'Acme Docs');
    await seedMember(app.ctx.db, orgId, 'ada@example.com', 'owner');
  });

  afterAll(async () => {
    await app?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('signs in with POST /trpc/auth.signIn and uses the token as a Bearer on /trpc/auth.me', async () => {
    const signIn = await app.inject({
      method: 'POST',
      url: '/trpc/auth.signIn',
      headers: { 'content-type': 'application/json' },
      payload: { email: 'Ada@Example.com', password: TEST_PASSWORD },
    });
    expect(signIn.statusCode).toBe(200);
    const { token, user, org, role } = signIn.json().result.data;
    expect(token).toMatch(/^qs_/);
    expect(user.email).toBe('ada@example.com');
    expect(org.name).toBe('Acme Docs');
    expect(role).toBe('owner');

    const me = await app.inject({ method: 'GET', url: '/trpc/auth.me', headers: { authorization: `Bearer ${token}` } });
    expect(me.statusCode).toBe(200);
    expect(me.json().result.data.user.email).toBe('ada@example.com');
  });

  it('answers a wrong password with 401 in tRPC\'s envelope', async () => {
    const res = await app.inject({
      method: 'POST',
      url: '/trpc/auth.signIn',
      headers: { 'content-type': 'application/json' },
      payload: { email: 'ada@example.com', password: 'not the password' },
    });
    expect(res.statusCode).toBe(401);
    const body = res.json();
    expect(body.error.data.code).toBe('UNAUTHORIZED');
    expect(body.error.message).toBe('Wrong e-mail or password.');
    expect(body.error.data.stack).toBeUndefined();
  });

  it('answers auth.me without a session with 401', async () => {
    const res = await app.inject({ method: 'GET', url: '/trpc/auth.me' });
    expect(res.statusCode).toBe(401);
    expect(res.json().error.data.code).toBe('UNAUTHORIZED');
  });

  it('answers invalid input with 400 and the offending field', async () => {
    const res = await app.inject({
      method: 'POST',
      url: '/trpc/auth.signIn',
      headers: { 'content-type': 'application/json' },
      payload: { email: 'not-an-email', password: 'x' },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.data.issues).toEqual([{ field: 'email', message: 'must be an e-mail address' }]);
  });
});
