/**
 * Audience profiles through HTTP (interface-spec.md "Endpoints > Audience profiles", "Errors";
 * decisions.md section 2): every route, its envelope (create, update, delete without `data`; reads
 * with it), every error code, permissions, other organizations, and the audit entries.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createKey, createOrgWithKey, createTestApp, type TestApp } from '../helpers/app';
import { audienceApi, createProfile, createProject, placesHolding as placesHoldingIn } from './audiences-fixture';
import { verifyAudienceToken } from '../../src/services/audience-tokens';

let t: TestApp;
let api: ReturnType<typeof audienceApi>;
let projectId: string;
let otherProjectId: string;
beforeAll(async () => {
  t = await createTestApp();
  api = audienceApi(t.app, t.adminKey);
  projectId = await createProject(t.app, t.adminKey, 'audience-docs');
  otherProjectId = await createProject(t.app, t.adminKey, 'audience-other');
});
afterAll(async () => t?.close());

const placesHolding = (needle: string) => placesHoldingIn(t.ctx, needle);
const profileCount = () => t.ctx.db.prisma.audienceProfile.count();
const auditOf = async (action: string) =>
  ((await t.app.inject({ url: `/v1/projects/${projectId}/audit-log?resource=audience&limit=100`, headers: bearer(t.adminKey) })).json().data as {
    action: string;
    resource: { type: string; id: string; name?: string };
    metadata: Record<string, unknown>;
  }[]).filter((e) => e.action === action);

function expectError(res: { statusCode: number; json(): unknown }, status: number, code: string, field?: string) {
  expect(res.statusCode).toBe(status);
  const body = res.json() as { error: { code: string; message: string; details?: { field?: string } } };
  expect(body.error.code).toBe(code);
  expect(body.error.message).toEqual(expect.any(String));
  if (field !== undefined) expect(body.error.details?.field).toBe(field);
}

describe('POST /v1/projects/{projectId}/audiences', () => {
  it('answers 201 with the profile itself, not wrapped in data; tags trimmed and kept once', async () => {
    const res = await api.create(projectId, { name: '  Partners  ', slug: 'partners', description: 'Partner docs', audiences: [' partner ', 'beta', 'partner'] });
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(body).not.toHaveProperty('data');
    expect(body).toEqual({
      id: expect.stringMatching(/^aud_[0-9A-Za-z]+$/),
      name: 'Partners',
      slug: 'partners',
      description: 'Partner docs',
      audiences: ['partner', 'beta'],
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    expect(new Date(body.createdAt).toISOString()).toBe(body.createdAt);
    const [entry] = await auditOf('audience.created');
    expect(entry).toMatchObject({ resource: { type: 'audience', id: body.id, name: 'Partners' }, metadata: { slug: 'partners', audiences: ['partner', 'beta'] } });
  });

  it('makes description null when omitted', async () => {
    const res = await api.create(projectId, { name: 'No description', slug: 'no-description', audiences: ['a'] });
    expect(res.statusCode).toBe(201);
    expect(res.json().description).toBeNull();
  });

  it.each([['Partners'], ['with space'], ['under_score'], ['ümlaut'], [''], ['a'.repeat(101)], ['dot.ted']])('answers 400 invalid_slug for %j and creates nothing', async (slug) => {
    const before = await profileCount();
    expectError(await api.create(projectId, { name: 'x', slug, audiences: ['a'] }), 400, 'invalid_slug', 'slug');
    expect(await profileCount()).toBe(before);
  });

  it('accepts any run of lowercase letters, numbers and hyphens as the spec words it', async () => {
    for (const slug of ['a', '0-9', 'x--y', 'a'.repeat(100)]) {
      expect((await api.create(projectId, { name: 'x', slug, audiences: ['a'] })).statusCode).toBe(201);
    }
  });

  it.each([[{}], [{ audiences: [] }], [{ audiences: null }]])('answers 422 empty_audiences when audiences is missing or empty (%j)', async (extra) => {
    const before = await profileCount();
    expectError(await api.create(projectId, { name: 'x', slug: 'empty-tags', ...extra }), 422, 'empty_audiences', 'audiences');
    expect(await profileCount()).toBe(before);
  });

  it('answers 409 slug_exists for a slug used in the project, while another project may use it', async () => {
    expect((await api.create(projectId, { name: 'One', slug: 'taken', audiences: ['a'] })).statusCode).toBe(201);
    const before = await profileCount();
    expectError(await api.create(projectId, { name: 'Two', slug: 'taken', audiences: ['b'] }), 409, 'slug_exists', 'slug');
    expect(await profileCount()).toBe(before);
    expect((await api.create(otherProjectId, { name: 'Elsewhere', slug: 'taken', audiences: ['a'] })).statusCode).toBe(201);
  });

  it('gives one 201 and 409s to concurrent creations of one slug', async () => {
    const results = await Promise.all(Array.from({ length: 4 }, (_, i) => api.create(projectId, { name: `Race ${i}`, slug: 'race', audiences: ['a'] })));
    expect(results.map((r) => r.statusCode).sort()).toEqual([201, 409, 409, 409]);
    for (const r of results.filter((x) => x.statusCode === 409)) expect(r.json().error.code).toBe('slug_exists');
  });

  it.each([
    [{ slug: 'v1', audiences: ['a'] }, 'name'],
    [{ name: '   ', slug: 'v2', audiences: ['a'] }, 'name'],
    [{ name: 'x'.repeat(201), slug: 'v3', audiences: ['a'] }, 'name'],
    [{ name: 'x', audiences: ['a'] }, 'slug'],
    [{ name: 'x', slug: 'v4', audiences: ['a'], description: 'd'.repeat(1001) }, 'description'],
    [{ name: 'x', slug: 'v5', audiences: ['  '] }, 'audiences.0'],
    [{ name: 'x', slug: 'v6', audiences: ['ok', 't'.repeat(101)] }, 'audiences.1'],
    [{ name: 'x', slug: 'v7', audiences: Array.from({ length: 51 }, (_, i) => `t${i}`) }, 'audiences'],
    [{ name: 'x', slug: 'v8', audiences: [42] }, 'audiences.0'],
    [{ name: 'x', slug: 'v9', audiences: 'a' }, 'audiences'],
    [{ name: 'x', slug: 'v10', audiences: ['a'], extra: 1 }, 'extra'],
    [{ name: 'x', slug: 'v11', audiences: ['nul\u0000tag'] }, 'audiences.0'],
    [{ name: 'x\ud800', slug: 'v12', audiences: ['a'] }, 'name'],
  ])('answers 400 invalid_request naming the field for %j', async (payload, field) => {
    const before = await profileCount();
    expectError(await api.create(projectId, payload), 400, 'invalid_request', field);
    expect(await profileCount()).toBe(before);
  });

  it('accepts 50 tags of 100 characters', async () => {
    const audiences = Array.from({ length: 50 }, (_, i) => `${i}`.padEnd(100, 'x'));
    const res = await api.create(projectId, { name: 'Wide', slug: 'wide', audiences });
    expect(res.statusCode).toBe(201);
    expect(res.json().audiences).toEqual(audiences);
  });
});

describe('GET /v1/projects/{projectId}/audiences and /{profileId}', () => {
  it('lists every profile of the project only, oldest first, as {data} without pagination', async () => {
    const fresh = await createProject(t.app, t.adminKey, 'audience-list');
    const ids = [await createProfile(t.app, t.adminKey, fresh, 'first'), await createProfile(t.app, t.adminKey, fresh, 'second')];
    await createProfile(t.app, t.adminKey, otherProjectId, 'not-listed');
    const res = await api.list(fresh);
    expect(res.statusCode).toBe(200);
    expect(Object.keys(res.json())).toEqual(['data']);
    const listed = res.json().data as { id: string; createdAt: string }[];
    expect(listed.map((p) => p.id).sort()).toEqual([...ids].sort());
    expect(listed.map((p) => p.createdAt)).toEqual(listed.map((p) => p.createdAt).sort());
    expect(listed.find((p) => p.id === ids[0])).toMatchObject({ slug: 'first', audiences: ['partners'], description: null });
    expect((await api.list(await createProject(t.app, t.adminKey, 'audience-none'))).json()).toEqual({ data: [] });
  });

  it('returns one profile as {data: profile}', async () => {
    const id = await createProfile(t.app, t.adminKey, projectId, 'get-me', ['x', 'y']);
    const res = await api.get(projectId, id);
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({ id, slug: 'get-me', audiences: ['x', 'y'] });
  });

  it('answers 404 profile_not_found for an unknown profile and for a profile of another project', async () => {
    expectError(await api.get(projectId, 'aud_missing'), 404, 'profile_not_found');
    const elsewhere = await createProfile(t.app, t.adminKey, otherProjectId, 'elsewhere');
    expectError(await api.get(projectId, elsewhere), 404, 'profile_not_found');
    expectError(await api.update(projectId, elsewhere, { name: 'hijack' }), 404, 'profile_not_found');
    expectError(await api.remove(projectId, elsewhere), 404, 'profile_not_found');
    expectError(await api.token(projectId, elsewhere), 404, 'profile_not_found');
    expect((await api.get(otherProjectId, elsewhere)).json().data.name).toBe('elsewhere');
  });
});

describe('PATCH /v1/projects/{projectId}/audiences/{profileId}', () => {
  it('changes only the given fields and answers the profile without data', async () => {
    const id = (await api.create(projectId, { name: 'Before', slug: 'patch-me', description: 'old', audiences: ['a'] })).json().id as string;
    const res = await api.update(projectId, id, { name: 'After' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).not.toHaveProperty('data');
    expect(res.json()).toMatchObject({ id, name: 'After', slug: 'patch-me', description: 'old', audiences: ['a'] });

    const replaced = await api.update(projectId, id, { audiences: ['b', ' c ', 'b'], description: null });
    expect(replaced.json()).toMatchObject({ name: 'After', description: null, audiences: ['b', 'c'] });
    expect((await api.get(projectId, id)).json().data).toMatchObject({ name: 'After', description: null, audiences: ['b', 'c'] });

    const [entry] = await auditOf('audience.updated');
    expect(entry).toMatchObject({
      resource: { type: 'audience', id, name: 'After' },
      metadata: { changes: ['description', 'audiences'], values: { description: { from: 'old', to: null }, audiences: { from: ['a'], to: ['b', 'c'] } } },
    });
  });

  it('accepts the current slug as a no-op and refuses another with 422 slug_immutable, changing nothing', async () => {
    const id = await createProfile(t.app, t.adminKey, projectId, 'fixed');
    const same = await api.update(projectId, id, { slug: 'fixed', name: 'Renamed' });
    expect(same.statusCode).toBe(200);
    expect(same.json()).toMatchObject({ slug: 'fixed', name: 'Renamed' });
    expectError(await api.update(projectId, id, { slug: 'moved', name: 'Ignored' }), 422, 'slug_immutable', 'slug');
    expectError(await api.update(projectId, id, { slug: 'FIXED' }), 422, 'slug_immutable', 'slug');
    expect((await api.get(projectId, id)).json().data).toMatchObject({ slug: 'fixed', name: 'Renamed' });
  });

  it('answers 422 empty_audiences for [] or null and keeps the tags', async () => {
    const id = await createProfile(t.app, t.adminKey, projectId, 'keep-tags', ['kept']);
    expectError(await api.update(projectId, id, { audiences: [] }), 422, 'empty_audiences', 'audiences');
    expectError(await api.update(projectId, id, { audiences: null, name: 'Ignored' }), 422, 'empty_audiences', 'audiences');
    expect((await api.get(projectId, id)).json().data).toMatchObject({ audiences: ['kept'], name: 'keep-tags' });
  });

  it('answers 400 for bad fields and 404 profile_not_found for an unknown profile', async () => {
    const id = await createProfile(t.app, t.adminKey, projectId, 'patch-bad');
    expectError(await api.update(projectId, id, { name: '' }), 400, 'invalid_request', 'name');
    expectError(await api.update(projectId, id, { audiences: ['a', ''] }), 400, 'invalid_request', 'audiences.1');
    expectError(await api.update(projectId, id, { createdAt: '2020-01-01T00:00:00Z' }), 400, 'invalid_request', 'createdAt');
    expectError(await api.update(projectId, 'aud_nope', { name: 'x' }), 404, 'profile_not_found');
  });

  it('writes nothing and audits nothing when nothing changes', async () => {
    const id = await createProfile(t.app, t.adminKey, projectId, 'unchanged', ['a', 'b']);
    const before = (await api.get(projectId, id)).json().data;
    const audits = (await auditOf('audience.updated')).length;
    const res = await api.update(projectId, id, { name: 'unchanged', audiences: ['a', 'b'] });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual(before);
    expect(await api.update(projectId, id, {})).toMatchObject({ statusCode: 200 });
    expect((await auditOf('audience.updated')).length).toBe(audits);
  });
});

describe('DELETE /v1/projects/{projectId}/audiences/{profileId}', () => {
  it('answers {deleted: true, id}, removes the profile and its tokens, and a second delete is 404', async () => {
    const id = await createProfile(t.app, t.adminKey, projectId, 'delete-me');
    expect((await api.token(projectId, id)).statusCode).toBe(201);
    const res = await api.remove(projectId, id);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ deleted: true, id });
    expectError(await api.get(projectId, id), 404, 'profile_not_found');
    expect(await t.ctx.db.prisma.audienceToken.count({ where: { profileId: id } })).toBe(0);
    expectError(await api.remove(projectId, id), 404, 'profile_not_found');
    const [entry] = await auditOf('audience.deleted');
    expect(entry).toMatchObject({ resource: { type: 'audience', id, name: 'delete-me' }, metadata: { slug: 'delete-me' } });
    // The slug is free again.
    expect((await api.create(projectId, { name: 'again', slug: 'delete-me', audiences: ['a'] })).statusCode).toBe(201);
  });
});

describe('concurrent changes of one profile', () => {
  it('a profile deleted while it is updated or given a token answers 404, never 500', async () => {
    for (let round = 0; round < 3; round++) {
      const id = await createProfile(t.app, t.adminKey, projectId, `contended-${round}`);
      const [updated, removed, issued] = await Promise.all([api.update(projectId, id, { name: 'x' }), api.remove(projectId, id), api.token(projectId, id)]);
      expect(removed.statusCode).toBe(200);
      expect([200, 404]).toContain(updated.statusCode);
      expect([201, 404]).toContain(issued.statusCode);
      for (const r of [updated, issued]) if (r.statusCode === 404) expect(r.json().error.code).toBe('profile_not_found');
      expect(await t.ctx.db.prisma.audienceToken.count({ where: { profileId: id } })).toBe(0);
    }
  });
});

describe('POST /v1/projects/{projectId}/audiences/{profileId}/token', () => {
  it('answers 201 {token, magicLink, expiresAt, audiences, label} without data; default 30 days', async () => {
    const id = await createProfile(t.app, t.adminKey, projectId, 'token-default', ['partner', 'beta']);
    const res = await api.token(projectId, id);
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(Object.keys(body).sort()).toEqual(['audiences', 'expiresAt', 'label', 'magicLink', 'token']);
    expect(body.token).toMatch(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{43}$/);
    expect(body.magicLink).toBe(`http://audience-docs-docs.localhost:${t.ctx.config.port}/?_quire_token=${body.token}`);
    expect(body.audiences).toEqual(['partner', 'beta']);
    expect(body.label).toBeNull();
    const days = (Date.parse(body.expiresAt) - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(29.99);
    expect(days).toBeLessThanOrEqual(30);
    const payload = JSON.parse(Buffer.from(body.token.split('.')[0], 'base64url').toString('utf8'));
    expect(payload).toEqual({ v: 1, p: projectId, a: id, e: Date.parse(body.expiresAt) / 1000, j: expect.stringMatching(/^[0-9A-Za-z]{22}$/) });
    expect(await t.ctx.db.prisma.audienceToken.findUnique({ where: { id: payload.j } })).toMatchObject({ projectId, profileId: id, label: null });
  });

  it.each([
    ['90d', 90],
    ['1y', 365],
  ])('expiresIn %s lasts %d days', async (expiresIn, daysWanted) => {
    const id = await createProfile(t.app, t.adminKey, projectId, `token-${expiresIn}`);
    const body = (await api.token(projectId, id, { expiresIn, label: 'For ACME' })).json();
    const days = (Date.parse(body.expiresAt) - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(daysWanted - 0.01);
    expect(days).toBeLessThanOrEqual(daysWanted);
    expect(body.label).toBe('For ACME');
  });

  it('expiresIn never gives expiresAt null', async () => {
    const id = await createProfile(t.app, t.adminKey, projectId, 'token-never');
    const res = await api.token(projectId, id, { expiresIn: 'never' });
    expect(res.statusCode).toBe(201);
    expect(res.json().expiresAt).toBeNull();
  });

  it.each([
    [{ expiresIn: '7d' }, 'expiresIn'],
    [{ expiresIn: null }, 'expiresIn'],
    [{ expiresIn: 30 }, 'expiresIn'],
    [{ label: 'l'.repeat(201) }, 'label'],
    [{ label: 5 }, 'label'],
    [{ audiences: ['admin'] }, 'audiences'],
  ])('answers 400 invalid_request for %j and issues nothing', async (payload, field) => {
    const id = await createProfile(t.app, t.adminKey, projectId, `token-bad-${field.toLowerCase()}-${Math.random().toString(36).slice(2, 8)}`);
    expectError(await api.token(projectId, id, payload), 400, 'invalid_request', field);
    expect(await t.ctx.db.prisma.audienceToken.count({ where: { profileId: id } })).toBe(0);
  });

  it('points the magic link at the active custom domain when the project has one', async () => {
    const pid = await createProject(t.app, t.adminKey, 'custom-domain');
    await t.ctx.db.prisma.project.update({ where: { id: pid }, data: { customDomain: 'docs.example.com' } });
    t.ctx.events.emit('project.changed', { projectId: pid });
    const id = await createProfile(t.app, t.adminKey, pid, 'custom');
    const body = (await api.token(pid, id)).json();
    expect(body.magicLink).toBe(`http://docs.example.com/?_quire_token=${body.token}`);
  });

  it('audits audience.token_created without the token and never stores the token or the project key in the clear', async () => {
    const id = await createProfile(t.app, t.adminKey, projectId, 'token-audit');
    const body = (await api.token(projectId, id, { expiresIn: '90d', label: 'Partner X' })).json();
    const [entry] = await auditOf('audience.token_created');
    expect(entry).toMatchObject({ resource: { type: 'audience', id, name: 'token-audit' }, metadata: { expiresIn: '90d', expiresAt: body.expiresAt, label: 'Partner X' } });
    expect(JSON.stringify(entry)).not.toContain(body.token.split('.')[1]);
    const [payloadPart, signature] = body.token.split('.');
    expect(await placesHolding(payloadPart)).toEqual([]);
    expect(await placesHolding(signature)).toEqual([]);
    const project = await t.ctx.db.prisma.project.findUniqueOrThrow({ where: { id: projectId } });
    expect(project.audienceSecret).toMatch(/^v1\./);
    const shown = (await t.app.inject({ url: `/v1/projects/${projectId}`, headers: bearer(t.adminKey) })).json().data;
    expect(JSON.stringify(shown)).not.toContain('audienceSecret');
    expect(JSON.stringify(shown)).not.toContain(project.audienceSecret!);
  });

  it('issues working tokens under concurrent first use of a project key, all with one key', async () => {
    const pid = await createProject(t.app, t.adminKey, 'concurrent-key');
    const id = await createProfile(t.app, t.adminKey, pid, 'many');
    const results = await Promise.all(Array.from({ length: 5 }, () => api.token(pid, id)));
    expect(results.map((r) => r.statusCode)).toEqual([201, 201, 201, 201, 201]);
    for (const r of results) expect(await verifyAudienceToken(t.ctx, pid, r.json().token)).toMatchObject({ ok: true });
  });
});

describe('access to audience routes', () => {
  it('lets projects:read read and refuses it writes with 403; projects:write writes', async () => {
    const id = await createProfile(t.app, t.adminKey, projectId, 'perm');
    const reader = audienceApi(t.app, (await createKey(t, ['projects:read'])).key);
    expect((await reader.list(projectId)).statusCode).toBe(200);
    expect((await reader.get(projectId, id)).statusCode).toBe(200);
    expectError(await reader.create(projectId, { name: 'x', slug: 'reader', audiences: ['a'] }), 403, 'forbidden');
    expectError(await reader.update(projectId, id, { name: 'x' }), 403, 'forbidden');
    expectError(await reader.remove(projectId, id), 403, 'forbidden');
    expectError(await reader.token(projectId, id), 403, 'forbidden');
    const builder = audienceApi(t.app, (await createKey(t, ['builds:read', 'builds:write'])).key);
    expectError(await builder.list(projectId), 403, 'forbidden');

    const writer = audienceApi(t.app, (await createKey(t, ['projects:write'])).key);
    expect((await writer.create(projectId, { name: 'x', slug: 'writer', audiences: ['a'] })).statusCode).toBe(201);
    expect((await writer.update(projectId, id, { name: 'y' })).statusCode).toBe(200);
    expect((await writer.token(projectId, id)).statusCode).toBe(201);
    expect((await writer.remove(projectId, id)).statusCode).toBe(200);
  });

  it('answers 404 not_found on every route for another organization and for a key scoped to another project', async () => {
    const id = await createProfile(t.app, t.adminKey, projectId, 'foreign');
    const foreign = audienceApi(t.app, (await createOrgWithKey(t)).key);
    const scoped = audienceApi(t.app, (await createKey(t, ['admin'], { projectId: otherProjectId })).key);
    for (const caller of [foreign, scoped]) {
      expectError(await caller.list(projectId), 404, 'not_found');
      expectError(await caller.get(projectId, id), 404, 'not_found');
      expectError(await caller.create(projectId, { name: 'x', slug: 'intruder', audiences: ['a'] }), 404, 'not_found');
      expectError(await caller.update(projectId, id, { name: 'x' }), 404, 'not_found');
      expectError(await caller.remove(projectId, id), 404, 'not_found');
      expectError(await caller.token(projectId, id), 404, 'not_found');
    }
    expect((await api.get(projectId, id)).json().data.name).toBe('foreign');
    expect(await t.ctx.db.prisma.audienceToken.count({ where: { profileId: id } })).toBe(0);
  });

  it('answers 401 without a key', async () => {
    expectError(await t.app.inject({ url: `/v1/projects/${projectId}/audiences` }), 401, 'unauthorized');
  });
});

describe('OpenAPI document', () => {
  it('documents the audience routes with their unwrapped answers', async () => {
    const doc = (await t.app.inject({ url: '/v1/openapi.json' })).json();
    const create = doc.paths['/v1/projects/{projectId}/audiences'].post;
    expect(create.responses['201'].content['application/json'].schema.properties).toHaveProperty('slug');
    expect(Object.keys(create.responses)).toEqual(expect.arrayContaining(['201', '400', '409', '422']));
    const token = doc.paths['/v1/projects/{projectId}/audiences/{profileId}/token'].post;
    expect(token.responses['201'].content['application/json'].schema.properties).toHaveProperty('magicLink');
    expect(doc.paths['/v1/projects/{projectId}/audiences/{profileId}'].delete.responses['200'].content['application/json'].schema.properties).toHaveProperty('deleted');
  });
});
