/**
 * Approval gate routes (decisions.md section 9): create, list, get, change, delete; globs checked
 * (400 naming the field), eligible users checked against the organization, permissions, other
 * organizations' projects and unknown gates 404, every change audited.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createKey, createOrgWithKey, createTestApp, type TestApp } from '../helpers/app';
import { auditOf, person } from '../jobs/approval-fixture';

let t: TestApp;
let projectId: string;
const url = () => `/v1/projects/${projectId}/approval-gates`;

beforeAll(async () => {
  t = await createTestApp();
  const res = await t.app.inject({ method: 'POST', url: '/v1/projects', headers: bearer(t.adminKey), payload: { name: 'Docs', slug: 'gates-docs' } });
  projectId = res.json().data.id;
});
afterAll(async () => t?.close());

const post = (payload: unknown, key = t.adminKey) => t.app.inject({ method: 'POST', url: url(), headers: bearer(key), payload: payload as Record<string, unknown> });

describe('approval gates', () => {
  it('creates a gate with defaults, lists and gets it, and audits it', async () => {
    const res = await post({ name: 'Security', paths: ['security/**', '**/*.secret.mdx'] });
    expect(res.statusCode).toBe(201);
    const gate = res.json().data;
    expect(gate).toMatchObject({ id: expect.stringMatching(/^gat_/), name: 'Security', paths: ['security/**', '**/*.secret.mdx'], requiredApprovals: 1, eligibleUsers: [], eligibleRoles: [] });
    const list = await t.app.inject({ url: url(), headers: bearer(t.adminKey) });
    expect(list.json().data.map((g: { id: string }) => g.id)).toEqual([gate.id]);
    expect((await t.app.inject({ url: `${url()}/${gate.id}`, headers: bearer(t.adminKey) })).json().data).toEqual(gate);
    const audit = await auditOf(t.app, t.adminKey, projectId, 'approval_gate.created');
    expect(audit[0]).toMatchObject({ resource: { type: 'approval_gate', id: gate.id, name: 'Security' } });
  });

  it('changes only the given fields, and deletes', async () => {
    const member = await person(t.app, 'Ana', 'reviewer');
    const gate = (await post({ name: 'Legal', paths: ['legal/*.mdx'], requiredApprovals: 3 })).json().data;
    const patched = await t.app.inject({ method: 'PATCH', url: `${url()}/${gate.id}`, headers: bearer(t.adminKey), payload: { requiredApprovals: 2, eligibleUsers: [member.userId], eligibleRoles: ['admin'] } });
    expect(patched.statusCode).toBe(200);
    expect(patched.json().data).toMatchObject({ name: 'Legal', paths: ['legal/*.mdx'], requiredApprovals: 2, eligibleUsers: [member.userId], eligibleRoles: ['admin'] });
    const audit = await auditOf(t.app, t.adminKey, projectId, 'approval_gate.updated');
    expect(audit[0]?.metadata.changes).toEqual(['requiredApprovals', 'eligibleUsers', 'eligibleRoles']);
    expect((await t.app.inject({ method: 'DELETE', url: `${url()}/${gate.id}`, headers: bearer(t.adminKey) })).statusCode).toBe(204);
    expect((await t.app.inject({ url: `${url()}/${gate.id}`, headers: bearer(t.adminKey) })).statusCode).toBe(404);
    const deleted = await auditOf(t.app, t.adminKey, projectId, 'approval_gate.deleted');
    expect(deleted[0]).toMatchObject({ resource: { id: gate.id, name: 'Legal' } });
  });

  it('refuses bad globs with 400 naming the field, and changes nothing', async () => {
    const before = (await t.app.inject({ url: url(), headers: bearer(t.adminKey) })).json().data.length;
    for (const [paths, pattern] of [
      [['docs/**', '!docs/private/**'], /negated/],
      [['../outside/*'], /\.\./],
      [['docs\\*.md'], /backslash/],
      [[''], /empty/],
    ] as const) {
      const res = await post({ name: 'Bad', paths });
      expect(res.statusCode).toBe(400);
      expect(res.json().error.details.field).toMatch(/^paths\.\d$/);
      expect(res.json().error.message).toMatch(pattern);
    }
    const none = await post({ name: 'Bad', paths: [] });
    expect(none.statusCode).toBe(400);
    expect(none.json().error.details.field).toBe('paths');
    expect((await post({ name: 'Bad', paths: ['a/*'], requiredApprovals: 11 })).json().error.details.field).toBe('requiredApprovals');
    expect((await post({ name: 'Bad', paths: ['a/*'], requiredApprovals: 0 })).statusCode).toBe(400);
    expect((await post({ name: 'Bad', paths: ['a/*'], eligibleRoles: ['boss'] })).json().error.details.field).toMatch(/^eligibleRoles/);
    const patch = await t.app.inject({ method: 'PATCH', url: `${url()}/gat_unknown0000000000`, headers: bearer(t.adminKey), payload: { paths: ['ok/*'] } });
    expect(patch.statusCode).toBe(404);
    expect((await t.app.inject({ url: url(), headers: bearer(t.adminKey) })).json().data).toHaveLength(before);
  });

  it('refuses eligible users who are not members of the organization', async () => {
    const stranger = await createOrgWithKey(t);
    const res = await post({ name: 'Owners', paths: ['a/**'], eligibleUsers: [stranger.userId] });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.details.field).toBe('eligibleUsers.0');
    expect((await post({ name: 'Owners', paths: ['a/**'], eligibleUsers: ['not-a-user'] })).json().error.details.field).toMatch(/^eligibleUsers/);
  });

  it('needs projects:write to change gates and answers 404 for other organizations', async () => {
    const reader = await createKey(t, ['projects:read']);
    expect((await t.app.inject({ url: url(), headers: bearer(reader.key) })).statusCode).toBe(200);
    expect((await post({ name: 'X', paths: ['a/*'] }, reader.key)).statusCode).toBe(403);
    const other = await createOrgWithKey(t);
    expect((await t.app.inject({ url: url(), headers: bearer(other.key) })).statusCode).toBe(404);
    expect((await post({ name: 'X', paths: ['a/*'] }, other.key)).statusCode).toBe(404);
    const gate = (await post({ name: 'Mine', paths: ['a/*'] })).json().data;
    expect((await t.app.inject({ method: 'DELETE', url: `${url()}/${gate.id}`, headers: bearer(other.key) })).statusCode).toBe(404);
  });
});
