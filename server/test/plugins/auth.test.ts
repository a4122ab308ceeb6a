import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createKey, createOrgWithKey, createTestApp, type TestApp } from '../helpers/app';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t?.close());

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

describe('last_used_at persistence', () => {
  it('is written to the database when the app closes', async () => {
    const t2 = await createTestApp();
    const { key, keyId } = await createKey(t2, ['projects:read']);
    await t2.app.inject({ url: '/v1/projects', headers: bearer(key) });
    const { default: Database } = await import('better-sqlite3');
    const file = t2.ctx.config.databaseUrl.replace(/^file:/, '');
    await t2.app.close();
    const db = new Database(file, { readonly: true });
    const row = db.prepare('SELECT lastUsedAt FROM ApiKey WHERE id = ?').get(keyId) as { lastUsedAt: number | null };
    db.close();
    await t2.close();
    expect(row.lastUsedAt).toBeGreaterThan(Date.now() - 60_000);
  });
});
