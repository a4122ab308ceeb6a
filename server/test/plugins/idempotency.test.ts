import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IDEMPOTENCY_LEASE_MS } from '../../src/services/idempotency';
import { bearer, createKey, createTestApp, type TestApp } from '../helpers/app';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t?.close());

const create = (key: string, idem: string, payload: unknown) =>
  t.app.inject({ method: 'POST', url: '/v1/projects', headers: { ...bearer(key), 'idempotency-key': idem }, payload: payload as object });

describe('Idempotency-Key on POST', () => {
  it('replays the original status and body for the same key and body, creating one project', async () => {
    const first = await create(t.adminKey, 'idem-1', { name: 'Idem Docs' });
    expect(first.statusCode).toBe(201);
    expect(first.headers['idempotency-replayed']).toBeUndefined();
    const again = await create(t.adminKey, 'idem-1', { name: 'Idem Docs' });
    expect(again.statusCode).toBe(201);
    expect(again.headers['idempotency-replayed']).toBe('true');
    expect(again.json()).toEqual(first.json());
    expect(await t.ctx.db.prisma.project.count({ where: { name: 'Idem Docs' } })).toBe(1);
  });

  it('answers 409 conflict for the same key with a different body', async () => {
    await create(t.adminKey, 'idem-2', { name: 'First body' });
    const res = await create(t.adminKey, 'idem-2', { name: 'Second body' });
    expect(res.statusCode).toBe(409);
    expect(res.json().error.code).toBe('conflict');
    expect(await t.ctx.db.prisma.project.count({ where: { name: 'Second body' } })).toBe(0);
  });

  it('answers 409 while the first request with the key is still running', async () => {
    const { id: keyId } = await t.ctx.db.prisma.apiKey.findFirstOrThrow({ where: { name: 'Bootstrap admin key' } });
    await t.ctx.db.prisma.idempotencyRecord.create({
      data: { id: 'idm_running', scope: keyId, key: 'idem-3', method: 'POST', path: '/v1/projects', bodyHash: 'x', state: 'running', expiresAt: new Date(Date.now() + 60_000) },
    });
    const res = await create(t.adminKey, 'idem-3', { name: 'Running' });
    expect(res.statusCode).toBe(409);
    expect(res.json().error.details.issue).toBe('in progress');
  });

  it('never gives one key the stored response of another key', async () => {
    const other = await createKey(t, ['admin']);
    const mine = await create(t.adminKey, 'idem-4', { name: 'Scoped Idem' });
    const theirs = await create(other.key, 'idem-4', { name: 'Scoped Idem' });
    expect(theirs.headers['idempotency-replayed']).toBeUndefined();
    expect(theirs.statusCode).toBe(201);
    expect(theirs.json().data.id).not.toBe(mine.json().data.id);
  });

  it('does not store failures that a retry may fix (409), and validates the header', async () => {
    await create(t.adminKey, 'idem-5a', { name: 'Taken', slug: 'taken-slug' });
    const conflict = await create(t.adminKey, 'idem-5', { name: 'Taken 2', slug: 'taken-slug' });
    expect(conflict.statusCode).toBe(409);
    await t.app.inject({ method: 'PATCH', url: `/v1/projects/${(await t.ctx.db.prisma.project.findUniqueOrThrow({ where: { slug: 'taken-slug' } })).id}`, headers: bearer(t.adminKey), payload: { slug: 'moved-slug' } });
    const retry = await create(t.adminKey, 'idem-5', { name: 'Taken 2', slug: 'taken-slug' });
    expect(retry.statusCode).toBe(201);
    const bad = await create(t.adminKey, 'has space', { name: 'x' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.details.field).toBe('Idempotency-Key');
  });

  it('replays after an expiry only when the record is still valid (expired records start afresh)', async () => {
    await create(t.adminKey, 'idem-6', { name: 'Expiring' });
    await t.ctx.db.prisma.idempotencyRecord.updateMany({ where: { key: 'idem-6' }, data: { expiresAt: new Date(Date.now() - 1) } });
    const res = await create(t.adminKey, 'idem-6', { name: 'Expiring' });
    expect(res.statusCode).toBe(201);
    expect(res.headers['idempotency-replayed']).toBeUndefined();
  });

  describe('a claim abandoned by a crash', () => {
    /** Makes the record of `idem` look like its request died while running, `ageMs` ago. */
    const abandon = (idem: string, ageMs: number) =>
      t.ctx.db.prisma.idempotencyRecord.updateMany({
        where: { key: idem },
        data: { state: 'running', responseStatus: null, responseBody: null, createdAt: new Date(Date.now() - ageMs) },
      });

    it('answers 409 within the lease, and is taken over by the next request with the key after it', async () => {
      expect((await create(t.adminKey, 'idem-7', { name: 'Crashed' })).statusCode).toBe(201);
      await abandon('idem-7', IDEMPOTENCY_LEASE_MS - 10_000);
      const early = await create(t.adminKey, 'idem-7', { name: 'Crashed' });
      expect(early.statusCode).toBe(409);
      expect(early.json().error.details.issue).toBe('in progress');
      await abandon('idem-7', IDEMPOTENCY_LEASE_MS + 1_000);
      const retry = await create(t.adminKey, 'idem-7', { name: 'Crashed' });
      expect(retry.statusCode).toBe(201);
      expect(retry.headers['idempotency-replayed']).toBeUndefined();
      const replay = await create(t.adminKey, 'idem-7', { name: 'Crashed' });
      expect(replay.headers['idempotency-replayed']).toBe('true');
      expect(replay.json()).toEqual(retry.json());
    });

    it('goes to exactly one of two concurrent retries', async () => {
      expect((await create(t.adminKey, 'idem-8', { name: 'Raced' })).statusCode).toBe(201);
      await abandon('idem-8', IDEMPOTENCY_LEASE_MS + 1_000);
      const before = await t.ctx.db.prisma.project.count({ where: { name: 'Raced' } });
      const results = await Promise.all([create(t.adminKey, 'idem-8', { name: 'Raced' }), create(t.adminKey, 'idem-8', { name: 'Raced' })]);
      // One runs the request; the other finds it running (409) or, if it already finished, replays it.
      const ran = results.filter((r) => r.statusCode === 201 && r.headers['idempotency-replayed'] === undefined);
      expect(ran).toHaveLength(1);
      const other = results.find((r) => r !== ran[0])!;
      if (other.statusCode === 201) expect(other.json()).toEqual(ran[0]!.json());
      else expect(other.statusCode).toBe(409);
      expect(await t.ctx.db.prisma.project.count({ where: { name: 'Raced' } })).toBe(before + 1);
    });
  });
});

describe('Idempotency-Key on public routes behind a trusted proxy', () => {
  it("keeps each visitor's keys apart: another visitor with the same key and body is not answered the first one's record", async () => {
    const proxied = await createTestApp({ env: { QUIRE_TRUSTED_PROXIES: '10.9.0.1' } });
    try {
      const project = await proxied.app.inject({ method: 'POST', url: '/v1/projects', headers: bearer(proxied.adminKey), payload: { name: 'Proxied Docs' } });
      const send = (visitor: string) =>
        proxied.app.inject({
          method: 'POST',
          url: `/v1/projects/${project.json().data.id}/feedback/page`,
          remoteAddress: '10.9.0.1',
          headers: { 'x-forwarded-for': visitor, 'idempotency-key': 'same-key' },
          payload: { pagePath: 'shared', helpful: true },
        });
      const first = await send('198.51.100.1');
      const other = await send('198.51.100.2');
      expect(other.statusCode).toBe(201);
      expect(other.headers['idempotency-replayed']).toBeUndefined();
      expect(other.json().data.id).not.toBe(first.json().data.id);
      const retry = await send('198.51.100.1');
      expect(retry.headers['idempotency-replayed']).toBe('true');
      expect(retry.json()).toEqual(first.json());
      expect(await proxied.ctx.db.prisma.pageFeedback.count({ where: { pageKey: 'shared' } })).toBe(2);
    } finally {
      await proxied.close();
    }
  });
});
