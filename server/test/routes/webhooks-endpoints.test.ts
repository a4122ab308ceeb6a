/**
 * Registering, listing and deleting outgoing webhook endpoints (decisions.md section 8) with the
 * default address policy: private networks refused (QUIRE_ALLOW_PRIVATE_NETWORK unset).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createKey, createOrgWithKey, createTestApp, type TestApp } from '../helpers/app';

let t: TestApp;
let projectId: string;

const base = () => `/v1/projects/${projectId}/webhooks`;
const create = (payload: unknown, key = t.adminKey, headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'POST', url: base(), headers: { ...bearer(key), ...headers }, payload: payload as object });
const list = (key = t.adminKey) => t.app.inject({ url: base(), headers: bearer(key) });
const remove = (id: string, key = t.adminKey) => t.app.inject({ method: 'DELETE', url: `${base()}/${id}`, headers: bearer(key) });

beforeAll(async () => {
  t = await createTestApp();
  const res = await t.app.inject({ method: 'POST', url: '/v1/projects', headers: bearer(t.adminKey), payload: { name: 'Hooks', slug: 'hooks' } });
  projectId = res.json().data.id;
});
afterAll(async () => {
  await t.close();
});

describe('webhook endpoints', () => {
  it('registers an endpoint with a Standard Webhooks secret shown once, lists it without the secret, deletes it', async () => {
    const res = await create({ url: 'https://hooks.example.com/quire', description: 'CI', events: ['build.deployed', 'build.failed', 'build.deployed'] });
    expect(res.statusCode).toBe(201);
    const created = res.json().data;
    expect(created).toMatchObject({ projectId, url: 'https://hooks.example.com/quire', description: 'CI', events: ['build.deployed', 'build.failed'] });
    expect(created.id).toMatch(/^whk_/);
    expect(created.secret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
    expect(Buffer.from(created.secret.slice('whsec_'.length), 'base64')).toHaveLength(24);

    const listed = await list();
    expect(listed.statusCode).toBe(200);
    const entry = listed.json().data.find((e: { id: string }) => e.id === created.id);
    expect(entry).toMatchObject({ id: created.id, url: created.url, events: ['build.deployed', 'build.failed'] });
    expect(entry).not.toHaveProperty('secret');
    expect(listed.body).not.toContain(created.secret);

    expect((await remove(created.id)).statusCode).toBe(204);
    const again = await remove(created.id);
    expect(again.statusCode).toBe(404);
    expect(again.json().error.code).toBe('not_found');
    expect((await list()).json().data.map((e: { id: string }) => e.id)).not.toContain(created.id);
  });

  it('audits webhook.created and webhook.deleted under resource type webhook, without the secret', async () => {
    const created = (await create({ url: 'https://audit.example.com/hook' })).json().data;
    await remove(created.id);
    const log = await t.app.inject({ url: `/v1/projects/${projectId}/audit-log?resource=webhook`, headers: bearer(t.adminKey) });
    const actions = log.json().data.filter((e: { resource: { id: string } }) => e.resource.id === created.id).map((e: { action: string }) => e.action);
    expect(actions).toEqual(['webhook.deleted', 'webhook.created']);
    expect(log.body).not.toContain(created.secret);
  });

  it('defaults to every event type', async () => {
    const created = (await create({ url: 'https://all.example.com/hook' })).json().data;
    expect(created.events).toEqual([]);
    await remove(created.id);
  });

  it.each([
    ['http://[::ffff:127.0.0.1]/', 'loopback'],
    ['http://0x7f.1/', 'loopback'],
    ['http://localhost./hook', ''],
    ['http://10.1.2.3/hook', 'private'],
    ['http://169.254.169.254/latest/meta-data', 'link-local'],
    ['http://017700000001/', 'loopback'],
  ])('refuses the private address %s with details.field url, creating nothing', async (url, words) => {
    const before = (await list()).json().data.length;
    const res = await create({ url });
    expect(res.statusCode).toBe(400);
    const error = res.json().error;
    expect(error.code).toBe('invalid_request');
    expect(error.details.field).toBe('url');
    expect(error.message).toContain(words);
    expect(error.message).toContain('QUIRE_ALLOW_PRIVATE_NETWORK');
    expect((await list()).json().data).toHaveLength(before);
  });

  it.each([
    [{ url: 'ftp://example.com/hook' }, 'url'],
    [{ url: 'not a url' }, 'url'],
    [{ url: 'https://user:pw@example.com/hook' }, 'url'],
    [{ url: 'https://example.com/hook', events: ['build.started'] }, 'events.0'],
    [{ url: 'https://example.com/hook', extra: true }, ''],
    [{}, 'url'],
  ])('refuses a bad body %j with 400 naming the field', async (payload, field) => {
    const res = await create(payload);
    expect(res.statusCode).toBe(400);
    expect(res.json().error.code).toBe('invalid_request');
    if (field) expect(res.json().error.details.field).toBe(field);
  });

  it('needs admin to register, list and delete (decisions.md section 2); webhook:create alone is not enough', async () => {
    const reader = await createKey(t, ['projects:read']);
    const sender = await createKey(t, ['webhook:create']);
    expect((await create({ url: 'https://perm.example.com/hook' }, reader.key)).statusCode).toBe(403);
    expect((await create({ url: 'https://perm.example.com/hook' }, sender.key)).statusCode).toBe(403);
    const created = await create({ url: 'https://perm.example.com/hook' });
    expect(created.statusCode).toBe(201);
    const id = created.json().data.id as string;
    expect((await list(reader.key)).statusCode).toBe(403);
    expect((await list()).json().data.map((e: { id: string }) => e.id)).toContain(id);
    expect((await remove(id, sender.key)).statusCode).toBe(403);
    expect((await remove(id)).statusCode).toBe(204);
  });

  it("answers 404 for another organization's project", async () => {
    const other = await createOrgWithKey(t);
    expect((await create({ url: 'https://x.example.com/hook' }, other.key)).statusCode).toBe(404);
    expect((await list(other.key)).statusCode).toBe(404);
    const mine = (await create({ url: 'https://mine.example.com/hook' })).json().data;
    expect((await remove(mine.id, other.key)).statusCode).toBe(404);
    expect((await list()).json().data.map((e: { id: string }) => e.id)).toContain(mine.id);
    await remove(mine.id);
  });

  it('replays a create with Idempotency-Key without the secret', async () => {
    const headers = { 'idempotency-key': 'webhook-create-1' };
    const first = await create({ url: 'https://idem.example.com/hook' }, t.adminKey, headers);
    const replay = await create({ url: 'https://idem.example.com/hook' }, t.adminKey, headers);
    expect(replay.statusCode).toBe(201);
    expect(replay.headers['idempotency-replayed']).toBe('true');
    expect(replay.json().data.id).toBe(first.json().data.id);
    expect(replay.json().data.secret).not.toBe(first.json().data.secret);
    expect(replay.body).not.toContain(first.json().data.secret);
    await remove(first.json().data.id);
  });
});
