/**
 * Approval routes (decisions.md section 9) without running builds: an approval requested by hand
 * for a queued production build, listing with a status filter and pagination, who may decide
 * (eligible users and roles of the gates, reviewer role or above, keys with projects:write, never
 * the author), the 409 of a decided approval naming both states, bad input and foreign ids.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '@quire/shared/ids';
import { bearer, createOrgWithKey, createTestApp, type TestApp } from '../helpers/app';
import { auditOf, person } from '../jobs/approval-fixture';

let t: TestApp;
let projectId: string;
let queuedBuildId: string;
let ownerId: string;
const base = () => `/v1/projects/${projectId}/approvals`;

/** A build row of the project in `status` (the runner is off in this file). */
async function buildRow(options: { isPreview?: boolean; status?: string } = {}): Promise<string> {
  const row = await t.ctx.db.prisma.build.create({
    data: { id: newId('build'), projectId, status: options.status ?? 'building', trigger: 'api', branch: 'main', isPreview: options.isPreview ?? false, createdById: ownerId },
  });
  return row.id;
}

const decide = (id: string, action: 'approve' | 'reject', key: string, payload?: Record<string, unknown>) =>
  t.app.inject({ method: 'POST', url: `${base()}/${id}/${action}`, headers: bearer(key), ...(payload ? { payload } : {}) });

beforeAll(async () => {
  t = await createTestApp();
  const res = await t.app.inject({ method: 'POST', url: '/v1/projects', headers: bearer(t.adminKey), payload: { name: 'Docs', slug: 'approvals-docs', repoUrl: 'https://example.com/docs.git' } });
  projectId = res.json().data.id;
  ownerId = (await t.ctx.db.prisma.membership.findFirstOrThrow({ where: { role: 'owner' } })).userId;
  const build = await t.app.inject({ method: 'POST', url: `/v1/projects/${projectId}/builds`, headers: bearer(t.adminKey) });
  queuedBuildId = build.json().data.id;
});
afterAll(async () => t?.close());

describe('requesting an approval by hand', () => {
  it('makes a queued production build wait for one approval, audited', async () => {
    const res = await t.app.inject({ method: 'POST', url: base(), headers: bearer(t.adminKey), payload: { buildId: queuedBuildId } });
    expect(res.statusCode).toBe(201);
    expect(res.json().data).toMatchObject({ id: expect.stringMatching(/^apv_/), buildId: queuedBuildId, status: 'pending', gates: [], paths: [], requiredApprovals: 1, approvals: [], author: { id: ownerId }, decidedAt: null });
    const audit = await auditOf(t.app, t.adminKey, projectId, 'approval.requested');
    expect(audit[0]).toMatchObject({ resource: { type: 'approval', id: res.json().data.id } });
    const twice = await t.app.inject({ method: 'POST', url: base(), headers: bearer(t.adminKey), payload: { buildId: queuedBuildId } });
    expect(twice.statusCode).toBe(409);
  });

  it('refuses previews (400 naming buildId), ended builds (409), unknown builds (404) and bad counts', async () => {
    const preview = await t.app.inject({ method: 'POST', url: base(), headers: bearer(t.adminKey), payload: { buildId: await buildRow({ isPreview: true }) } });
    expect(preview.statusCode).toBe(400);
    expect(preview.json().error.details.field).toBe('buildId');
    const done = await t.app.inject({ method: 'POST', url: base(), headers: bearer(t.adminKey), payload: { buildId: await buildRow({ status: 'deployed' }) } });
    expect(done.statusCode).toBe(409);
    expect(done.json().error.message).toMatch(/already deployed/);
    expect((await t.app.inject({ method: 'POST', url: base(), headers: bearer(t.adminKey), payload: { buildId: 'bld_nope' } })).statusCode).toBe(404);
    const many = await t.app.inject({ method: 'POST', url: base(), headers: bearer(t.adminKey), payload: { buildId: await buildRow(), requiredApprovals: 11 } });
    expect(many.json().error.details.field).toBe('requiredApprovals');
  });
});

describe('listing and reading approvals', () => {
  it('lists newest first with a status filter and pagination, and gets one', async () => {
    const second = (await t.app.inject({ method: 'POST', url: base(), headers: bearer(t.adminKey), payload: { buildId: await buildRow(), requiredApprovals: 2 } })).json().data;
    const page1 = (await t.app.inject({ url: `${base()}?pageSize=1`, headers: bearer(t.adminKey) })).json();
    expect(page1.pagination).toEqual({ page: 1, pageSize: 1, total: 2, totalPages: 2 });
    expect(page1.data[0].id).toBe(second.id);
    expect((await t.app.inject({ url: `${base()}?status=approved`, headers: bearer(t.adminKey) })).json().data).toEqual([]);
    expect((await t.app.inject({ url: `${base()}?status=maybe`, headers: bearer(t.adminKey) })).statusCode).toBe(400);
    const one = await t.app.inject({ url: `${base()}/${second.id}`, headers: bearer(t.adminKey) });
    expect(one.json().data).toMatchObject({ id: second.id, requiredApprovals: 2 });
    expect((await t.app.inject({ url: `${base()}/apv_unknown000000000`, headers: bearer(t.adminKey) })).statusCode).toBe(404);
    const other = await createOrgWithKey(t);
    expect((await t.app.inject({ url: `${base()}/${second.id}`, headers: bearer(other.key) })).statusCode).toBe(404);
    expect((await decide(second.id, 'approve', other.key)).statusCode).toBe(404);
  });
});

describe('deciding', () => {
  it('refuses the author, viewers and keys without projects:write; a reviewer approves; a decided approval is 409 naming both states', async () => {
    const approval = (await t.app.inject({ url: `${base()}?status=pending`, headers: bearer(t.adminKey) })).json().data.find((a: { buildId: string }) => a.buildId === queuedBuildId);
    const author = await decide(approval.id, 'approve', t.adminKey);
    expect(author.statusCode).toBe(403);
    expect(author.json().error.message).toMatch(/author/);
    const viewer = await person(t.app, 'Vi', 'viewer');
    expect((await decide(approval.id, 'approve', viewer.key)).statusCode).toBe(403);
    const readOnly = await person(t.app, 'Ro', 'reviewer', ['projects:read']);
    expect((await decide(approval.id, 'approve', readOnly.key)).statusCode).toBe(403);
    const reviewer = await person(t.app, 'Ana', 'reviewer');
    const ok = await decide(approval.id, 'approve', reviewer.key, { comment: 'fine' });
    expect(ok.statusCode).toBe(200);
    expect(ok.json().data).toMatchObject({ status: 'approved', approvals: [{ user: { id: reviewer.userId, name: 'Ana' }, comment: 'fine' }] });
    const late = await decide(approval.id, 'reject', reviewer.key, { reason: 'changed my mind' });
    expect(late.statusCode).toBe(409);
    expect(late.json().error.message).toMatch(/"approved".*"rejected"/);
    expect((await decide(approval.id, 'approve', (await person(t.app, 'Bo', 'editor')).key)).statusCode).toBe(409);
  });

  it('needs a reason to reject (400 naming reason) and lets the author withdraw their change', async () => {
    const approval = (await t.app.inject({ method: 'POST', url: base(), headers: bearer(t.adminKey), payload: { buildId: await buildRow() } })).json().data;
    const noReason = await decide(approval.id, 'reject', t.adminKey, {});
    expect(noReason.statusCode).toBe(400);
    expect(noReason.json().error.details.field).toBe('reason');
    expect((await decide(approval.id, 'reject', t.adminKey, { reason: '   ' })).statusCode).toBe(400);
    const res = await decide(approval.id, 'reject', t.adminKey, { reason: 'Not ready' });
    expect(res.json().data).toMatchObject({ status: 'rejected', rejection: { user: { id: ownerId }, reason: 'Not ready' } });
  });

  it('lets only the users and roles a matched gate names decide', async () => {
    const ana = await person(t.app, 'Ana2', 'reviewer');
    const bo = await person(t.app, 'Bo2', 'editor');
    const cy = await person(t.app, 'Cy2', 'admin');
    const gate = (await t.app.inject({ method: 'POST', url: `/v1/projects/${projectId}/approval-gates`, headers: bearer(t.adminKey), payload: { name: 'Legal', paths: ['legal/**'], requiredApprovals: 2, eligibleUsers: [ana.userId], eligibleRoles: ['admin'] } })).json().data;
    // The state a gated build leaves when it pauses (jobs/build-runner.ts; end to end in test/jobs/approval-deploy.test.ts).
    const buildId = await buildRow();
    const approval = await t.ctx.db.prisma.approval.create({
      data: { id: newId('approval'), projectId, buildId, status: 'pending', gateIds: JSON.stringify([gate.id]), paths: JSON.stringify(['legal/terms.mdx']), requiredApprovals: 2, authorId: ownerId },
    });
    const refused = await decide(approval.id, 'approve', bo.key);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error.message).toMatch(/not eligible/);
    expect((await decide(approval.id, 'approve', ana.key)).json().data.status).toBe('pending');
    const done = await decide(approval.id, 'approve', cy.key);
    expect(done.json().data).toMatchObject({ status: 'approved', gates: [{ id: gate.id, name: 'Legal' }], paths: ['legal/terms.mdx'] });
  });
});

describe('cancelling a build with a requested approval', () => {
  it('closes the approval as rejected', async () => {
    const buildId = await buildRow({ status: 'queued' });
    const approval = (await t.app.inject({ method: 'POST', url: base(), headers: bearer(t.adminKey), payload: { buildId } })).json().data;
    expect((await t.app.inject({ method: 'DELETE', url: `/v1/projects/${projectId}/builds/${buildId}`, headers: bearer(t.adminKey) })).statusCode).toBe(204);
    const after = (await t.app.inject({ url: `${base()}/${approval.id}`, headers: bearer(t.adminKey) })).json().data;
    expect(after).toMatchObject({ status: 'rejected', rejection: { user: null, reason: expect.stringMatching(/cancelled/) }, decidedAt: expect.any(String) });
  });
});
