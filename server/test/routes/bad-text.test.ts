/**
 * Text no database can store (NUL, lone UTF-16 surrogates) is refused with 400 invalid_request
 * naming the field, on bodies, query strings and path parameters of every API route, and nothing
 * is written.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findUnstorableText } from '@quire/shared/text';
import { bearer, createTestApp, type TestApp } from '../helpers/app';

let t: TestApp;
let projectId: string;
beforeAll(async () => {
  t = await createTestApp();
  projectId = (await t.app.inject({ method: 'POST', url: '/v1/projects', headers: bearer(t.adminKey), payload: { name: 'Clean' } })).json().data.id;
});
afterAll(async () => t?.close());

const projectCount = () => t.ctx.db.prisma.project.count();

function expectRefused(res: { statusCode: number; json(): unknown }, field: string) {
  expect(res.statusCode).toBe(400);
  const body = res.json() as { error: { code: string; details: { field: string; issue: string } } };
  expect(body.error.code).toBe('invalid_request');
  expect(body.error.details.field).toBe(field);
}

describe('text a database would refuse', () => {
  it('refuses a project name holding a lone surrogate or a NUL, and creates nothing', async () => {
    const before = await projectCount();
    for (const name of ['\ud800', 'a\udc00b', 'trail \ud83d', 'nul\u0000byte']) {
      const res = await t.app.inject({ method: 'POST', url: '/v1/projects', headers: bearer(t.adminKey), payload: { name } });
      expectRefused(res, 'name');
    }
    expect(await projectCount()).toBe(before);
  });

  it('names nested fields, array items and member names', async () => {
    const patch = (payload: unknown) => t.app.inject({ method: 'PATCH', url: `/v1/projects/${projectId}`, headers: bearer(t.adminKey), payload: payload as object });
    expectRefused(await patch({ settings: { aiEnabled: true, note: 'x\u0000' } }), 'settings.note');
    const keyRes = await t.app.inject({ method: 'POST', url: '/v1/api-keys', headers: bearer(t.adminKey), payload: { name: 'k', permissions: ['projects:read', '\udfff'] } });
    expectRefused(keyRes, 'permissions.1');
    const memberName = await patch({ ['bad\ud800']: 1 });
    expect(memberName.statusCode).toBe(400);
    expect((memberName.json() as { error: { details: { field: string } } }).error.details.field).toBe('bad\\ud800');
    expect((await t.app.inject({ url: `/v1/projects/${projectId}`, headers: bearer(t.adminKey) })).json().data.name).toBe('Clean');
  });

  it('refuses a raw JSON body with an escaped lone surrogate, a query parameter and a path parameter holding NUL', async () => {
    const raw = await t.app.inject({
      method: 'POST', url: '/v1/projects', headers: { ...bearer(t.adminKey), 'content-type': 'application/json' }, payload: '{"name":"ok","description":"\\udbff"}',
    });
    expectRefused(raw, 'description');
    expectRefused(await t.app.inject({ url: `/v1/projects/${projectId}/audit-log?actor=a%00b`, headers: bearer(t.adminKey) }), 'actor');
    expectRefused(await t.app.inject({ url: `/v1/projects/prj_%00/builds`, headers: bearer(t.adminKey) }), 'projectId');
  });

  it('still accepts well-formed text: paired surrogates (emoji) and other control characters', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/v1/projects', headers: bearer(t.adminKey), payload: { name: 'Docs 📚\t\u0001' } });
    expect(res.statusCode).toBe(201);
    expect(res.json().data.name).toBe('Docs 📚\t\u0001');
  });
});

describe('text a database would refuse, over tRPC', () => {
  it('answers BAD_REQUEST in tRPC\'s envelope with apiCode invalid_request naming the field', async () => {
    const res = await t.app.inject({
      method: 'POST', url: '/trpc/auth.signIn', headers: { 'content-type': 'application/json' }, payload: { email: 'a\u0000@example.com', password: 'x\ud800' },
    });
    expect(res.statusCode).toBe(400);
    const error = res.json().error;
    expect(error.data).toMatchObject({ code: 'BAD_REQUEST', apiCode: 'invalid_request' });
    expect(error.message).toMatch(/^email: contains a NUL/);
  });
});

describe('findUnstorableText', () => {
  it('reports the first offending path and stops hostile nesting', () => {
    expect(findUnstorableText({ a: ['ok', { b: '\ud800' }] })).toEqual({ path: 'a.1.b', issue: expect.stringContaining('surrogate') });
    expect(findUnstorableText('\u0000')).toEqual({ path: '', issue: expect.stringContaining('NUL') });
    expect(findUnstorableText({ a: '😀', b: [1, true, null] })).toBeNull();
    let deep: unknown = 'x';
    for (let i = 0; i < 100; i++) deep = [deep];
    expect(findUnstorableText(deep)?.issue).toContain('nested');
  });
});
