/**
 * GET /healthz and GET /readyz: outside /v1, no key, no rate limit; readiness lists each
 * registered check and answers 503 when one fails or hangs.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t?.close());

describe('GET /healthz', () => {
  it('answers 200 {"status":"ok"} without a key, with a request id and no rate-limit headers', async () => {
    const res = await t.app.inject({ url: '/healthz' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'ok' });
    expect(res.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    expect(res.headers['x-ratelimit-limit']).toBeUndefined();
  });

  it('is not rate limited: more calls than the public per-IP limit all answer 200', async () => {
    const codes = new Set<number>();
    for (let i = 0; i < 1_050; i++) codes.add((await t.app.inject({ url: '/healthz' })).statusCode);
    expect([...codes]).toEqual([200]);
    // The API's public budget of this IP is untouched by them.
    const api = await t.app.inject({ url: '/v1/openapi.json' });
    expect(Number(api.headers['x-ratelimit-remaining'])).toBeGreaterThan(990);
  });

  it('ignores API keys, even invalid ones', async () => {
    const res = await t.app.inject({ url: '/healthz', headers: { authorization: 'Bearer nope' } });
    expect(res.statusCode).toBe(200);
  });
});

describe('GET /readyz', () => {
  it('checks the database and the deployment store', async () => {
    const res = await t.app.inject({ url: '/readyz' });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.status).toBe('ok');
    expect(body.checks.database).toMatchObject({ status: 'ok' });
    expect(body.checks.storage).toMatchObject({ status: 'ok' });
    expect(body.checks.queue).toMatchObject({ status: 'ok' }); // the job queue registers its own check
    expect(typeof body.checks.database.ms).toBe('number');
  });

  it('answers 503 naming the failing check while the others stay ok, and 200 again once it recovers', async () => {
    let queueUp = false;
    t.ctx.readiness.register('mirror', () => {
      if (!queueUp) throw new Error('ECONNREFUSED 127.0.0.1:6379');
    });
    const down = await t.app.inject({ url: '/readyz' });
    expect(down.statusCode).toBe(503);
    expect(down.json()).toMatchObject({ status: 'failing', checks: { database: { status: 'ok' }, mirror: { status: 'failing', error: 'failed' } } });
    expect(down.body).not.toContain('ECONNREFUSED');
    queueUp = true;
    expect((await t.app.inject({ url: '/readyz' })).statusCode).toBe(200);
  });

  it('counts a check that does not answer in time as failing', async () => {
    const report = await t.ctx.readiness.run(50);
    expect(report.status).toBe('ok');
    t.ctx.readiness.register('hung', () => new Promise(() => {}));
    const started = Date.now();
    const hung = await t.ctx.readiness.run(50);
    expect(Date.now() - started).toBeLessThan(1000);
    expect(hung.checks.hung).toMatchObject({ status: 'failing', error: 'timed out' });
    expect(() => t.ctx.readiness.register('hung', () => {})).toThrow(/already registered/);
  });
});
