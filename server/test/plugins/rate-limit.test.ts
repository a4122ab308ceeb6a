import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { bearer, createOrgWithKey, createTestApp, type TestApp } from '../helpers/app';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t?.close());
afterEach(() => vi.useRealTimers());

describe('rate limits per organization', () => {
  it('sends the three X-RateLimit headers on success and on errors', async () => {
    const ok = await t.app.inject({ url: '/v1/projects', headers: bearer(t.adminKey) });
    expect(ok.headers['x-ratelimit-limit']).toBe('1000');
    expect(Number(ok.headers['x-ratelimit-remaining'])).toBeLessThan(1000);
    expect(Number(ok.headers['x-ratelimit-reset'])).toBeGreaterThan(Date.now() / 1000);
    const unauthorized = await t.app.inject({ url: '/v1/projects' });
    expect(unauthorized.statusCode).toBe(401);
    expect(unauthorized.headers['x-ratelimit-limit']).toBeDefined();
    const notFound = await t.app.inject({ url: '/v1/projects/prj_missing', headers: bearer(t.adminKey) });
    expect(notFound.headers['x-ratelimit-remaining']).toBeDefined();
  });

  it('refuses the 101st request of a minute on the free plan with 429 and Retry-After, then resets', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2030-01-01T00:00:05Z'));
    const free = await createOrgWithKey(t, { plan: 'free' });
    const other = await createOrgWithKey(t, { plan: 'free' });
    let last;
    for (let i = 0; i < 100; i++) {
      last = await t.app.inject({ url: '/v1/projects', headers: bearer(free.key) });
      expect(last.statusCode).toBe(200);
    }
    expect(last!.headers['x-ratelimit-remaining']).toBe('0');
    const limited = await t.app.inject({ url: '/v1/projects', headers: bearer(free.key) });
    expect(limited.statusCode).toBe(429);
    expect(limited.json().error.code).toBe('rate_limited');
    expect(limited.headers['retry-after']).toBe('55');
    expect(limited.headers['x-ratelimit-reset']).toBe(String(Date.parse('2030-01-01T00:01:00Z') / 1000));
    // Another organization is not affected.
    expect((await t.app.inject({ url: '/v1/projects', headers: bearer(other.key) })).statusCode).toBe(200);
    vi.setSystemTime(new Date('2030-01-01T00:01:00Z'));
    const after = await t.app.inject({ url: '/v1/projects', headers: bearer(free.key) });
    expect(after.statusCode).toBe(200);
    expect(after.headers['x-ratelimit-remaining']).toBe('99');
  });

  it('applies the enterprise limit from configuration', async () => {
    const ent = await createOrgWithKey(t, { plan: 'enterprise' });
    const res = await t.app.inject({ url: '/v1/projects', headers: bearer(ent.key) });
    expect(res.headers['x-ratelimit-limit']).toBe(String(t.ctx.config.enterpriseRateLimit));
  });
});
