/**
 * GET / on the API host: a small HTML page for browsers (API reference, where sites live, the
 * desktop app); clients asking for JSON keep the 404 envelope.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ env: { PORT: '4000', QUIRE_SITES_DOMAIN: 'localhost' } });
});
afterAll(async () => t?.close());

describe('GET / on the API host', () => {
  it('answers a browser with an HTML page linking the API reference, the site address pattern and the desktop app', async () => {
    const res = await t.app.inject({ url: '/', headers: { accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.body).toContain('<title>Quire server</title>');
    expect(res.body).toMatch(/<a href="http:\/\/[^"]+:4000\/v1\/docs">API reference<\/a>/);
    expect(res.body).toContain('http://my-project-docs.localhost:4000/');
    expect(res.body).toContain('pnpm desktop:web');
    expect(res.headers['content-security-policy']).toContain("default-src 'none'");
  });

  it('answers HTML without an Accept header too (curl), without a key', async () => {
    const res = await t.app.inject({ url: '/' });
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('API reference');
  });

  it('keeps the JSON 404 envelope for clients that ask for JSON only', async () => {
    const res = await t.app.inject({ url: '/', headers: { accept: 'application/json' } });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ error: { code: 'not_found' } });
  });

  it('leaves other unknown paths a JSON 404', async () => {
    const res = await t.app.inject({ url: '/nope', headers: { accept: 'text/html' } });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ error: { code: 'not_found' } });
  });
});
