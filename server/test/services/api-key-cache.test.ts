import { inspect } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createKey, createTestApp, type TestApp } from '../helpers/app';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t?.close());

describe('API-key cache', () => {
  it('keeps no presented key in memory, only hashes, after keys authenticate (live, revoked and unknown)', async () => {
    const live = await createKey(t, ['projects:read']);
    const revoked = await createKey(t, ['projects:read']);
    const unknown = `quire_unknown0_${'u'.repeat(40)}`;
    expect((await t.app.inject({ url: '/v1/projects', headers: bearer(live.key) })).statusCode).toBe(200);
    expect((await t.app.inject({ url: '/v1/projects', headers: bearer(revoked.key) })).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'DELETE', url: `/v1/api-keys/${revoked.keyId}`, headers: bearer(t.adminKey) })).statusCode).toBe(204);
    expect((await t.app.inject({ url: '/v1/projects', headers: bearer(revoked.key) })).statusCode).toBe(401);
    expect((await t.app.inject({ url: '/v1/projects', headers: bearer(unknown) })).statusCode).toBe(401);
    // Everything the cache holds itself (not the app's database handles and logger it was given).
    const own = Object.entries(t.ctx.apiKeys).filter(([name]) => name !== 'deps');
    expect(own.length).toBeGreaterThan(0);
    const dump = inspect(own, { depth: 8, showHidden: true, maxArrayLength: Infinity, maxStringLength: Infinity });
    for (const key of [live.key, revoked.key, unknown, t.adminKey]) expect(dump).not.toContain(key.slice(key.lastIndexOf('_') + 1));
  });
});
