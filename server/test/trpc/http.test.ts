import type { FastifyInstance } from 'fastify';
import { createTRPCClient, httpBatchLink } from '@trpc/client';
import type { AppRouter } from '../../src/trpc/routers/_app';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app';
import { seedMember, seedOrg, TEST_PASSWORD } from '../services/identity-fixtures';

describe('tRPC over HTTP at /trpc', () => {
  let t: TestApp;
  let app: FastifyInstance;

  beforeAll(async () => {
    t = await createTestApp();
    app = t.app;
    const orgId = await seedOrg(app.ctx.db, 'Acme Docs');
    await seedMember(app.ctx.db, orgId, 'ada@example.com', 'owner');
  });

  afterAll(async () => t?.close());

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

  it('does not take an API key as a session, and leaves JSON parsing of /v1 intact', async () => {
    const me = await app.inject({ method: 'GET', url: '/trpc/auth.me', headers: { authorization: `Bearer ${t.adminKey}` } });
    expect(me.statusCode).toBe(401);
    const created = await app.inject({
      method: 'POST',
      url: '/v1/api-keys',
      headers: { authorization: `Bearer ${t.adminKey}`, 'content-type': 'application/json' },
      payload: { name: 'ci', permissions: ['builds:read'] },
    });
    expect(created.statusCode).toBe(201);
    expect(created.json().data.name).toBe('ci');
  });

  it('serves the typed @trpc/client the desktop app uses, with request batching', async () => {
    const auth = { token: '' };
    const client = createTRPCClient<AppRouter>({
      links: [
        httpBatchLink({
          url: 'http://quire.test/trpc',
          headers: () => (auth.token ? { authorization: `Bearer ${auth.token}` } : {}),
          fetch: async (url, init) => {
            const res = await app.inject({
              method: (init?.method ?? 'GET') as 'GET' | 'POST',
              url: String(url).replace('http://quire.test', ''),
              headers: init?.headers as Record<string, string>,
              payload: init?.body as string | undefined,
            });
            return new Response(res.body, { status: res.statusCode, headers: { 'content-type': String(res.headers['content-type']) } });
          },
        }),
      ],
    });
    const session = await client.auth.signIn.mutate({ email: 'ada@example.com', password: TEST_PASSWORD });
    auth.token = session.token;
    const [me, members] = await Promise.all([client.auth.me.query(), client.members.list.query()]);
    expect(me.role).toBe('owner');
    expect(members.map((m) => m.user.email)).toEqual(['ada@example.com']);
  });
});
