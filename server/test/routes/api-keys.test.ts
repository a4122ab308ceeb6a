import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createKey, createOrgWithKey, createTestApp, type TestApp } from '../helpers/app';
import { placesHolding as placesHoldingIn } from '../helpers/stored-values';

let t: TestApp;
let projectId: string;
beforeAll(async () => {
  t = await createTestApp();
  projectId = (await t.app.inject({ method: 'POST', url: '/v1/projects', headers: bearer(t.adminKey), payload: { name: 'Keys Project' } })).json().data.id;
});
afterAll(async () => t?.close());

const createKeyApi = (payload: unknown, key = t.adminKey) => t.app.inject({ method: 'POST', url: '/v1/api-keys', headers: bearer(key), payload: payload as object });
const rotate = (pid: string, keyId: string, key = t.adminKey) => t.app.inject({ method: 'POST', url: `/v1/projects/${pid}/api-keys/${keyId}/rotate`, headers: bearer(key) });
const listProjects = (key: string) => t.app.inject({ url: '/v1/projects', headers: bearer(key) });
const secretOf = (key: string) => key.slice(key.lastIndexOf('_') + 1);

/** `table.column` of every value, in every table of the database (SQLite or PostgreSQL), that contains `needle`. */
function placesHolding(needle: string): Promise<string[]> {
  return placesHoldingIn(t.ctx, needle, ['ApiKey', 'IdempotencyRecord', 'AuditEntry']);
}

describe('POST /v1/api-keys', () => {
  it('creates a key from permissions, returning the full key once in snake_case', async () => {
    const res = await createKeyApi({ name: 'CI', permissions: ['builds:write', 'projects:read'] });
    expect(res.statusCode).toBe(201);
    const k = res.json().data;
    expect(k).toMatchObject({ name: 'CI', permissions: ['builds:write', 'projects:read'], scope: 'build', mode: 'live', project_id: null, last_used_at: null, expires_at: null });
    expect(k.key).toMatch(/^quire_[0-9A-Za-z]{8}_[0-9A-Za-z]{32,}$/);
    expect(k.key.startsWith(`${k.prefix}_`)).toBe(true);
    expect(k.id).toMatch(/^key_/);
    expect((await listProjects(k.key)).statusCode).toBe(200);
  });

  it('maps scope to permissions, supports test keys, project scope and expiry', async () => {
    const res = await createKeyApi({ name: 'Reader', scope: 'read', mode: 'test', projectId, expiresIn: '30d' });
    const k = res.json().data;
    expect(k).toMatchObject({ permissions: ['projects:read', 'builds:read', 'search:read'], scope: 'read', mode: 'test', project_id: projectId });
    expect(k.key).toMatch(/^sk_test_[0-9A-Za-z]{8}_/);
    const days = (Date.parse(k.expires_at) - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(29.9);
    expect(days).toBeLessThan(30.1);
  });

  it.each([
    [{ name: 'x' }, 'permissions'],
    [{ name: 'x', permissions: ['admin'], scope: 'full' }, 'scope'],
    [{ name: 'x', permissions: ['root'] }, 'permissions.0'],
    [{ name: 'x', scope: 'all' }, 'scope'],
    [{ name: '', scope: 'read' }, 'name'],
    [{ name: 'x', scope: 'read', expiresIn: '2d' }, 'expiresIn'],
    [{ name: 'x', scope: 'read', mode: 'prod' }, 'mode'],
  ])('answers 400 with details.field for %j', async (body, field) => {
    const before = await t.ctx.db.prisma.apiKey.count();
    const res = await createKeyApi(body);
    expect(res.statusCode).toBe(400);
    expect(res.json().error.details.field).toBe(field);
    expect(await t.ctx.db.prisma.apiKey.count()).toBe(before);
  });

  it('answers 404 for a projectId of another organization', async () => {
    const foreign = await createOrgWithKey(t);
    const res = await createKeyApi({ name: 'x', scope: 'read', projectId }, foreign.key);
    expect(res.statusCode).toBe(404);
  });
});

describe('no secret at rest', () => {
  it('stores no full key anywhere in the database after creating and rotating keys, with and without Idempotency-Key', async () => {
    const idem = (key: string) => ({ ...bearer(t.adminKey), 'idempotency-key': key });
    const plain = (await createKeyApi({ name: 'At rest 1', scope: 'read' })).json().data;
    const withIdem = (await t.app.inject({ method: 'POST', url: '/v1/api-keys', headers: idem('rest-create'), payload: { name: 'At rest 2', scope: 'read' } })).json().data;
    const rotated = (await rotate(projectId, plain.id)).json().data;
    const rotatedIdem = (await t.app.inject({ method: 'POST', url: `/v1/projects/${projectId}/api-keys/${withIdem.id}/rotate`, headers: idem('rest-rotate') })).json().data;
    const secrets = [plain.key, withIdem.key, rotated.key, rotatedIdem.key, t.adminKey].map(secretOf);
    expect(new Set(secrets).size).toBe(5);
    expect(await t.ctx.db.prisma.idempotencyRecord.count({ where: { key: { in: ['rest-create', 'rest-rotate'] }, state: 'done' } })).toBe(2);
    for (const secret of secrets) expect(await placesHolding(secret)).toEqual([]);
  });

  it('replays a create or rotate with the same shape and a notice in place of the secret', async () => {
    const headers = { ...bearer(t.adminKey), 'idempotency-key': 'replay-create' };
    const send = () => t.app.inject({ method: 'POST', url: '/v1/api-keys', headers, payload: { name: 'Replayed', scope: 'build' } });
    const first = await send();
    const again = await send();
    expect(again.statusCode).toBe(201);
    expect(again.headers['idempotency-replayed']).toBe('true');
    const { key: firstKey, ...firstRest } = first.json().data;
    const { key: notice, ...againRest } = again.json().data;
    expect(againRest).toEqual(firstRest);
    expect(notice).not.toContain(secretOf(firstKey));
    expect(notice).toMatch(/only once.*rotate/i);
    expect(await t.ctx.db.prisma.apiKey.count({ where: { name: 'Replayed' } })).toBe(1);

    const rotateHeaders = { ...bearer(t.adminKey), 'idempotency-key': 'replay-rotate' };
    const url = `/v1/projects/${projectId}/api-keys/${firstRest.id}/rotate`;
    const rotated = await t.app.inject({ method: 'POST', url, headers: rotateHeaders });
    const replayed = await t.app.inject({ method: 'POST', url, headers: rotateHeaders });
    expect(replayed.statusCode).toBe(201);
    expect(replayed.json().data).toEqual({ ...rotated.json().data, key: notice });
    expect((await listProjects(rotated.json().data.key)).statusCode).toBe(200);
  });

  it('says in the OpenAPI document that a replay carries no secret', async () => {
    const doc = (await t.app.inject({ url: '/v1/openapi.json' })).json();
    for (const op of [doc.paths['/v1/api-keys'].post, doc.paths['/v1/projects/{projectId}/api-keys/{keyId}/rotate'].post]) {
      expect(op.description).toMatch(/Idempotency-Key/);
      expect(op.responses['201'].description).toMatch(/replay/i);
    }
  });
});

describe('GET /v1/api-keys', () => {
  it('lists active keys without secrets; other organizations\' keys are not shown', async () => {
    const foreign = await createOrgWithKey(t);
    const res = await t.app.inject({ url: '/v1/api-keys', headers: bearer(t.adminKey) });
    expect(res.statusCode).toBe(200);
    const keys = res.json().data as Record<string, unknown>[];
    expect(res.json()).not.toHaveProperty('pagination');
    expect(keys.length).toBeGreaterThan(0);
    for (const k of keys) {
      expect(Object.keys(k).sort()).toEqual(['created_at', 'expires_at', 'id', 'last_used_at', 'mode', 'name', 'permissions', 'prefix', 'project_id', 'scope']);
    }
    expect(keys.map((k) => k.id)).not.toContain(foreign.keyId);
    expect(res.body).not.toContain(t.adminKey);
  });
});

describe('DELETE /v1/api-keys/{keyId}', () => {
  it('revokes at once (204); the key then gets 401; a second delete and other orgs get 404', async () => {
    const { key, keyId } = await createKey(t, ['projects:read']);
    expect((await listProjects(key)).statusCode).toBe(200);
    const foreign = await createOrgWithKey(t);
    expect((await t.app.inject({ method: 'DELETE', url: `/v1/api-keys/${keyId}`, headers: bearer(foreign.key) })).statusCode).toBe(404);
    const res = await t.app.inject({ method: 'DELETE', url: `/v1/api-keys/${keyId}`, headers: bearer(t.adminKey) });
    expect(res.statusCode).toBe(204);
    expect((await listProjects(key)).statusCode).toBe(401);
    expect((await t.app.inject({ method: 'DELETE', url: `/v1/api-keys/${keyId}`, headers: bearer(t.adminKey) })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'DELETE', url: '/v1/api-keys/key_unknown', headers: bearer(t.adminKey) })).statusCode).toBe(404);
    const listed = (await t.app.inject({ url: '/v1/api-keys', headers: bearer(t.adminKey) })).json().data.map((k: { id: string }) => k.id);
    expect(listed).not.toContain(keyId);
    expect(await t.ctx.db.prisma.auditEntry.count({ where: { action: 'api_key.revoked', resourceId: keyId } })).toBe(1);
  });
});

describe('POST /v1/projects/{projectId}/api-keys/{keyId}/rotate', () => {
  it('issues a new key with the same name, permissions and expiry (201, camelCase); the old key is refused', async () => {
    const created = (await createKeyApi({ name: 'Deploy', scope: 'build', expiresIn: '90d' })).json().data;
    const res = await rotate(projectId, created.id);
    expect(res.statusCode).toBe(201);
    const r = res.json().data;
    expect(Object.keys(r).sort()).toEqual(['createdAt', 'expiresAt', 'id', 'key', 'name', 'permissions', 'prefix', 'previousKeyId', 'scope']);
    expect(r).toMatchObject({ name: 'Deploy', scope: 'build', expiresAt: created.expires_at, previousKeyId: created.id });
    expect(r.id).not.toBe(created.id);
    expect((await listProjects(created.key)).statusCode).toBe(401);
    expect((await listProjects(r.key)).statusCode).toBe(200);
    expect((await rotate(projectId, created.id)).statusCode).toBe(404);
    const entry = await t.ctx.db.prisma.auditEntry.findFirstOrThrow({ where: { action: 'api_key.rotated', resourceId: r.id } });
    expect(JSON.parse(entry.metadata)).toMatchObject({ previousKeyId: created.id, scope: 'build' });
  });

  it('refuses the old key as soon as rotate returns, even while it is in use (rotation race)', async () => {
    const { key, keyId } = await createKey(t, ['projects:read']);
    const inFlight = Array.from({ length: 20 }, () => listProjects(key));
    const rotated = await rotate(projectId, keyId);
    expect(rotated.statusCode).toBe(201);
    // Requests started before rotate may have passed; every request after it must fail.
    await Promise.all(inFlight);
    const after = await Promise.all(Array.from({ length: 10 }, () => listProjects(key)));
    expect(after.map((r) => r.statusCode)).toEqual(Array(10).fill(401));
  });

  it('gives 404 for unknown keys, keys of another project and of another organization', async () => {
    const other = (await t.app.inject({ method: 'POST', url: '/v1/projects', headers: bearer(t.adminKey), payload: { name: 'Other Keys Project' } })).json().data.id;
    const scoped = await createKey(t, ['projects:read'], { projectId: other });
    expect((await rotate(projectId, scoped.keyId)).statusCode).toBe(404);
    expect((await rotate(other, scoped.keyId)).statusCode).toBe(201);
    expect((await rotate(projectId, 'key_nope')).statusCode).toBe(404);
    const foreign = await createOrgWithKey(t);
    expect((await rotate(projectId, foreign.keyId)).statusCode).toBe(404);
    expect((await rotate(projectId, foreign.keyId, foreign.key)).statusCode).toBe(404);
  });

  it('needs admin', async () => {
    const { key, keyId } = await createKey(t, ['projects:read', 'projects:write', 'builds:write']);
    expect((await rotate(projectId, keyId, key)).statusCode).toBe(403);
    expect((await t.app.inject({ url: '/v1/api-keys', headers: bearer(key) })).statusCode).toBe(403);
  });
});
