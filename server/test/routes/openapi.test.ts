import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t?.close());

describe('OpenAPI document and reference page', () => {
  it('serves /v1/openapi.json without a key, covering every /v1 route', async () => {
    const res = await t.app.inject({ url: '/v1/openapi.json' });
    expect(res.statusCode).toBe(200);
    const doc = res.json();
    expect(doc.openapi).toMatch(/^3\./);
    expect(doc.info.description).toMatch(/Idempotency-Key/);
    expect(doc.components.securitySchemes).toHaveProperty('bearerAuth');
    const documented = new Set(
      Object.entries(doc.paths as Record<string, Record<string, unknown>>).flatMap(([p, ops]) => Object.keys(ops).map((m) => `${m.toUpperCase()} ${p}`)),
    );
    for (const op of ['POST /v1/projects', 'GET /v1/projects', 'GET /v1/projects/{projectId}', 'PATCH /v1/projects/{projectId}', 'DELETE /v1/projects/{projectId}',
      'GET /v1/api-keys', 'POST /v1/api-keys', 'DELETE /v1/api-keys/{keyId}', 'POST /v1/projects/{projectId}/api-keys/{keyId}/rotate',
      'GET /v1/projects/{projectId}/audit-log', 'GET /v1/projects/{projectId}/audit-log/export']) {
      expect(documented, op).toContain(op);
    }
    const create = doc.paths['/v1/projects'].post;
    expect(create.requestBody.content['application/json'].schema.properties).toHaveProperty('slug');
    expect(create.responses).toHaveProperty('201');
    expect(create.responses).toHaveProperty('402');
  });

  it('documents the builds routes, with the trigger body optional as the route accepts none', async () => {
    const doc = (await t.app.inject({ url: '/v1/openapi.json' })).json();
    const trigger = doc.paths['/v1/projects/{projectId}/builds'].post;
    expect(trigger.responses).toHaveProperty('202');
    expect(trigger.requestBody.required).toBe(false);
    expect(trigger.requestBody.content['application/json'].schema.properties).toHaveProperty('commitSha');
    for (const p of ['/v1/projects/{projectId}/builds/{buildId}', '/v1/projects/{projectId}/builds/{buildId}/logs']) expect(doc.paths).toHaveProperty([p]);
  });

  it('documents preview protection (default and rule), member passes and the password throttles', async () => {
    const doc = (await t.app.inject({ url: '/v1/openapi.json' })).json();
    const settings = doc.paths['/v1/projects/{projectId}'].patch.requestBody.content['application/json'].schema.properties.settings;
    expect(settings.properties.protectPreviews.type).toBe('boolean');
    expect(settings.properties.protectPreviews.description).toMatch(/^Default true: preview sites open only through a preview link .* or a member pass/);
    expect(settings.properties.protectPreviews.description).toMatch(/except a preview that has a preview link/);
    expect(doc.paths['/v1/projects/{projectId}/preview-passes'].post.responses).toHaveProperty('201');
    expect(doc.info.description).toMatch(/sign-in .* allows 10 wrong passwords per e-mail and\s+50 per client IP in 15 minutes/);
    expect(doc.info.description).toMatch(/10 per link and 30 per client IP\s+over all links in 15 minutes/);
    expect(doc.paths['/v1/projects/{projectId}/previews'].post.description).toMatch(/limited to 10 per link and 30 per client IP/);
  });

  it('serves the API reference page and its assets locally, without a key', async () => {
    const page = await t.app.inject({ url: '/v1/docs/' });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('swagger-ui');
    expect(page.body).not.toMatch(/https?:\/\/(cdn|unpkg|jsdelivr)/);
    const asset = await t.app.inject({ url: '/v1/docs/static/swagger-ui-bundle.js' });
    expect(asset.statusCode).toBe(200);
  });
});
