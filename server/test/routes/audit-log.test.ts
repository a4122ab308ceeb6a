import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '@quire/shared/ids';
import { createApiKey } from '../../src/services/api-keys';
import { bearer, createOrgWithKey, createTestApp, type TestApp } from '../helpers/app';

let t: TestApp;
let projectId: string;
let editorKey: string;
let editorId: string;
beforeAll(async () => {
  t = await createTestApp();
  const h = bearer(t.adminKey);
  projectId = (await t.app.inject({ method: 'POST', url: '/v1/projects', headers: h, payload: { name: 'Audited' } })).json().data.id;
  // A second actor: Editor.Person@Example.com with an admin key.
  const user = await t.ctx.db.prisma.user.create({ data: { id: newId('user'), email: 'editor.person@example.com', name: 'Editor Person', passwordHash: '' } });
  editorId = user.id;
  await t.ctx.db.prisma.membership.create({ data: { orgId: t.app.bootstrap.orgId!, userId: user.id, role: 'admin' } });
  editorKey = (await createApiKey(t.ctx.db, { orgId: t.app.bootstrap.orgId!, createdById: user.id, name: 'editor', permissions: ['admin'] })).key;
  await t.app.inject({ method: 'PATCH', url: `/v1/projects/${projectId}`, headers: bearer(editorKey), payload: { name: 'Audited 2', webhookSecret: 'hush-hush-123' } });
  const k = (await t.app.inject({ method: 'POST', url: '/v1/api-keys', headers: h, payload: { name: 'proj key', scope: 'read', projectId } })).json().data;
  await t.app.inject({ method: 'POST', url: `/v1/projects/${projectId}/api-keys/${k.id}/rotate`, headers: h });
});
afterAll(async () => t?.close());

const list = (q = '', key = t.adminKey) => t.app.inject({ url: `/v1/projects/${projectId}/audit-log${q}`, headers: bearer(key) });

describe('GET /v1/projects/{projectId}/audit-log', () => {
  it('lists entries newest first with actor, resource, metadata and hasMore', async () => {
    const res = await list();
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.hasMore).toBe(false);
    expect(body.data.map((e: { action: string }) => e.action)).toEqual(['api_key.rotated', 'api_key.created', 'settings.updated', 'project.created']);
    const updated = body.data[2];
    expect(updated.actor).toEqual({ id: editorId, name: 'Editor Person', email: 'editor.person@example.com' });
    expect(updated.resource).toEqual({ type: 'settings', id: projectId, name: 'Audited 2' });
    expect(updated.metadata.changes).toEqual(['name', 'webhookSecret']);
    expect(res.body).not.toContain('hush-hush-123');
    expect(body.data[0].id).toMatch(/^log_/);
  });

  it('pages with page/limit and hasMore; refuses bad values', async () => {
    const first = (await list('?limit=3')).json();
    expect(first.data).toHaveLength(3);
    expect(first.hasMore).toBe(true);
    const second = (await list('?limit=3&page=2')).json();
    expect(second.data.map((e: { action: string }) => e.action)).toEqual(['project.created']);
    expect(second.hasMore).toBe(false);
    const bad = await list('?limit=0');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.details.field).toBe('limit');
    expect((await list('?resource=planet')).json().error.details.field).toBe('resource');
  });

  it('clamps limit above 100 to 100 (pages of 100, the rest on page 2)', async () => {
    // A project of its own with 120 build entries, so the other tests' lists stay as they are.
    const clamped = (await t.app.inject({ method: 'POST', url: '/v1/projects', headers: bearer(t.adminKey), payload: { name: 'Clamped' } })).json().data.id;
    const base = Date.now();
    await t.ctx.db.prisma.auditEntry.createMany({
      data: Array.from({ length: 120 }, (_, i) => ({
        id: newId('auditEntry'), orgId: t.app.bootstrap.orgId!, projectId: clamped, action: 'build.triggered', actorId: null, apiKeyId: null,
        resourceType: 'build', resourceId: `bld_${i}`, resourceName: null, metadata: '{}', createdAt: new Date(base - 1000 - i),
      })),
    });
    const page = (q: string) => t.app.inject({ url: `/v1/projects/${clamped}/audit-log${q}`, headers: bearer(t.adminKey) });
    const first = await page('?resource=build&limit=1000');
    expect(first.statusCode).toBe(200);
    expect(first.json().data).toHaveLength(100);
    expect(first.json().hasMore).toBe(true);
    const second = (await page('?resource=build&limit=1000&page=2')).json();
    expect(second.data).toHaveLength(20);
    expect(second.hasMore).toBe(false);
  });

  it('filters by actor (case-insensitive email substring) and resource', async () => {
    const byEditor = (await list('?actor=EDITOR.PERSON')).json().data;
    expect(byEditor.map((e: { action: string }) => e.action)).toEqual(['settings.updated']);
    const keys = (await list('?resource=api_key')).json().data;
    expect(keys.map((e: { action: string }) => e.action)).toEqual(['api_key.rotated', 'api_key.created']);
  });

  it('shows empty actor strings when the actor was deleted', async () => {
    const t2 = await createTestApp();
    try {
      const pid = (await t2.app.inject({ method: 'POST', url: '/v1/projects', headers: bearer(t2.adminKey), payload: { name: 'Orphan' } })).json().data.id;
      const owner = await t2.ctx.db.prisma.user.findFirstOrThrow();
      await t2.ctx.db.prisma.user.delete({ where: { id: owner.id } });
      const entry = (await t2.app.inject({ url: `/v1/projects/${pid}/audit-log`, headers: bearer(t2.adminKey) })).json().data[0];
      expect(entry.actor).toEqual({ id: '', name: '', email: '' });
    } finally {
      await t2.close();
    }
  });

  it('needs admin and hides other organizations\' logs (404)', async () => {
    const foreign = await createOrgWithKey(t);
    expect((await list('', foreign.key)).statusCode).toBe(404);
    const reader = (await t.app.inject({ method: 'POST', url: '/v1/api-keys', headers: bearer(t.adminKey), payload: { name: 'r', scope: 'read' } })).json().data.key;
    expect((await list('', reader)).statusCode).toBe(403);
  });
});

describe('GET /v1/projects/{projectId}/audit-log/export', () => {
  it('streams the whole log as CSV', async () => {
    const res = await t.app.inject({ url: `/v1/projects/${projectId}/audit-log/export?format=csv`, headers: bearer(t.adminKey) });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/csv/);
    expect(res.headers['content-disposition']).toMatch(/attachment; filename="audit-log-audited.csv"/);
    const lines = res.body.trim().split('\r\n');
    expect(lines[0]).toBe('id,createdAt,action,actorId,actorName,actorEmail,resourceType,resourceId,resourceName,metadata');
    expect(lines.length).toBeGreaterThanOrEqual(5);
    expect(lines.some((l) => l.includes(',api_key.rotated,'))).toBe(true);
    expect(res.body).toContain('"{""previousKeyId""');
  });

  it('streams JSON Lines whose entries equal the list entries', async () => {
    const res = await t.app.inject({ url: `/v1/projects/${projectId}/audit-log/export?format=jsonl`, headers: bearer(t.adminKey) });
    expect(res.headers['content-type']).toMatch(/^application\/x-ndjson/);
    const entries = res.body.trim().split('\n').map((l) => JSON.parse(l));
    const listed = (await list('?limit=100')).json().data;
    expect(entries.slice(0, listed.length)).toEqual(listed);
    expect((await t.app.inject({ url: `/v1/projects/${projectId}/audit-log/export?format=xml`, headers: bearer(t.adminKey) })).statusCode).toBe(400);
  });
});
