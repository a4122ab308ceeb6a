import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { AUTH_FAILURE_LIMIT } from '../../src/plugins/auth';
import { openDb } from '../../src/db/client';
import { bearer, createKey, createOrgWithKey, createTestApp, type TestApp } from '../helpers/app';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t?.close());
afterEach(() => vi.useRealTimers());

const get = (headers: Record<string, string>, url = '/v1/projects') => t.app.inject({ url, headers });

describe('API-key authentication', () => {
  it('accepts the key as Bearer or Api-Key, and the same key in both', async () => {
    expect((await get(bearer(t.adminKey))).statusCode).toBe(200);
    expect((await get({ 'api-key': t.adminKey })).statusCode).toBe(200);
    expect((await get({ ...bearer(t.adminKey), 'api-key': t.adminKey })).statusCode).toBe(200);
  });

  it('refuses missing, malformed and unknown keys with 401 unauthorized', async () => {
    for (const headers of [{}, { authorization: t.adminKey }, { authorization: 'Basic abc' }, bearer('quire_xxxxxxxx_nope'), { 'api-key': 'garbage' }]) {
      const res = await get(headers);
      expect(res.statusCode).toBe(401);
      expect(res.json().error.code).toBe('unauthorized');
    }
  });

  it('refuses two different keys in Authorization and Api-Key', async () => {
    const other = await createKey(t, ['admin']);
    const res = await get({ ...bearer(t.adminKey), 'api-key': other.key });
    expect(res.statusCode).toBe(401);
    expect(res.json().error.message).toMatch(/two different/i);
  });

  it('never reads a key from the query string', async () => {
    for (const q of ['api_key', 'apiKey', 'key', 'access_token']) {
      expect((await get({}, `/v1/projects?${q}=${t.adminKey}`)).statusCode).toBe(401);
    }
  });

  it('refuses an expired key', async () => {
    const { key } = await createKey(t, ['admin'], { expiresAt: new Date(Date.now() - 1000) });
    const res = await get(bearer(key));
    expect(res.statusCode).toBe(401);
    expect(res.json().error.message).toMatch(/expired/);
  });

  it('refuses a key lacking the route permission with 403 forbidden; admin implies all', async () => {
    const read = await createKey(t, ['projects:read']);
    expect((await get(bearer(read.key))).statusCode).toBe(200);
    const res = await t.app.inject({ method: 'POST', url: '/v1/projects', headers: bearer(read.key), payload: { name: 'Nope' } });
    expect(res.statusCode).toBe(403);
    expect(res.json().error.code).toBe('forbidden');
    const keys = await t.app.inject({ url: '/v1/api-keys', headers: bearer(read.key) });
    expect(keys.statusCode).toBe(403);
    expect(await t.ctx.db.prisma.project.count({ where: { name: 'Nope' } })).toBe(0);
  });

  it('checks the key before reading the body: a bad body without a key is 401, not 400', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/v1/projects', headers: { 'content-type': 'application/json' }, payload: '{bad' });
    expect(res.statusCode).toBe(401);
  });

  it('hides projects of other organizations and outside a project-scoped key (404)', async () => {
    const mine = (await t.app.inject({ method: 'POST', url: '/v1/projects', headers: bearer(t.adminKey), payload: { name: 'Scoped A' } })).json().data;
    const other = (await t.app.inject({ method: 'POST', url: '/v1/projects', headers: bearer(t.adminKey), payload: { name: 'Scoped B' } })).json().data;
    const foreign = await createOrgWithKey(t);
    expect((await get(bearer(foreign.key), `/v1/projects/${mine.id}`)).statusCode).toBe(404);
    const scoped = await createKey(t, ['projects:read'], { projectId: mine.id });
    expect((await get(bearer(scoped.key), `/v1/projects/${mine.id}`)).statusCode).toBe(200);
    expect((await get(bearer(scoped.key), `/v1/projects/${other.id}`)).statusCode).toBe(404);
    const list = (await get(bearer(scoped.key))).json();
    expect(list.data.map((p: { id: string }) => p.id)).toEqual([mine.id]);
  });

  it('keeps last_used_at without a write per request, and flushes it on close', async () => {
    const { key, keyId } = await createKey(t, ['projects:read'], { name: 'usage' });
    await get(bearer(key));
    const row = await t.ctx.db.prisma.apiKey.findUniqueOrThrow({ where: { id: keyId } });
    expect(row.lastUsedAt).toBeNull();
    const listed = (await get(bearer(t.adminKey), '/v1/api-keys')).json().data.find((k: { id: string }) => k.id === keyId);
    expect(listed.last_used_at).not.toBeNull();
  });
});

describe('failed authentications per client IP', () => {
  const from = (ip: string, headers: Record<string, string>) => t.app.inject({ url: '/v1/projects', headers, remoteAddress: ip });
  const guess = (i: number) => bearer(`quire_guess${String(i).padStart(3, '0')}_${'x'.repeat(40)}`);

  it('answers 429 rate_limited with Retry-After once an IP had 30 keys refused in a minute (missing keys and valid ones do not count), for every key, until the window ends', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2031-01-01T00:00:10Z'));
    const attacker = '198.51.100.7';
    // Valid keys and requests without a key are not failures: they do not count.
    for (let i = 0; i < AUTH_FAILURE_LIMIT + 5; i++) {
      expect((await from(attacker, {})).statusCode).toBe(401);
      expect((await from(attacker, bearer(t.adminKey))).statusCode).toBe(200);
    }
    for (let i = 0; i < AUTH_FAILURE_LIMIT; i++) {
      const res = await from(attacker, guess(i));
      expect(res.statusCode).toBe(401);
    }
    const limited = await from(attacker, guess(999));
    expect(limited.statusCode).toBe(429);
    expect(limited.json().error.code).toBe('rate_limited');
    expect(limited.headers['retry-after']).toBe('50');
    expect(limited.headers['x-ratelimit-limit']).toBe(String(AUTH_FAILURE_LIMIT));
    expect(limited.headers['x-ratelimit-remaining']).toBe('0');
    // A guessed key that happens to be right must not be told apart from a wrong one.
    expect((await from(attacker, bearer(t.adminKey))).statusCode).toBe(429);
    // Another address is not affected.
    expect((await from('198.51.100.8', bearer(t.adminKey))).statusCode).toBe(200);
    expect((await from('198.51.100.8', guess(1))).statusCode).toBe(401);
    vi.setSystemTime(new Date('2031-01-01T00:01:00Z'));
    expect((await from(attacker, bearer(t.adminKey))).statusCode).toBe(200);
    expect((await from(attacker, guess(2))).statusCode).toBe(401);
  });
});

describe('last_used_at persistence', () => {
  it('is written to the database when the app closes', async () => {
    const t2 = await createTestApp();
    const { key, keyId } = await createKey(t2, ['projects:read']);
    await t2.app.inject({ url: '/v1/projects', headers: bearer(key) });
    await t2.app.close();
    // A new connection (SQLite or PostgreSQL) sees what the closed app wrote.
    const db = await openDb(t2.ctx.config.databaseUrl);
    const row = await db.prisma.apiKey.findUnique({ where: { id: keyId }, select: { lastUsedAt: true } });
    await db.close();
    await t2.close();
    expect(row?.lastUsedAt?.getTime()).toBeGreaterThan(Date.now() - 60_000);
  });
});
