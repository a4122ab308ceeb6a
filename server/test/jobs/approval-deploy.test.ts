/**
 * A gated production deploy end to end, with the real builder and build runner on a local git
 * repository (decisions.md section 9): it waits before its deploy step (still `building`, step
 * `waiting_for_approval`, the old site served), its approval is listed, the author cannot approve,
 * two distinct approvals deploy it; a rejection fails it with the reason; an unrelated change does
 * not wait; a cancel ends the wait; a wait survives a server restart. SQLite, and PostgreSQL
 * under QUIRE_TEST_DB=postgres.
 */
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FixtureRepo } from '../helpers/git-repo';
import { auditOf, auth, createServer, gatedDocsRepo, person, site, waitForBuild, type Server } from './approval-fixture';

let server: Server;
let app: FastifyInstance;
let repo: FixtureRepo;
let ownerKey: string;
let projectId: string;
let gateId: string;
const people: Record<'ana' | 'bo' | 'viewer', { userId: string; key: string }> = {} as never;

const trigger = async () => {
  const res = await app.inject({ method: 'POST', url: `/v1/projects/${projectId}/builds`, headers: auth(ownerKey) });
  expect(res.statusCode).toBe(202);
  return res.json().data.id as string;
};
const approvals = async (query = '') => (await app.inject({ url: `/v1/projects/${projectId}/approvals${query}`, headers: auth(ownerKey) })).json();
const decide = (approvalId: string, action: 'approve' | 'reject', key: string, payload?: Record<string, unknown>) =>
  app.inject({ method: 'POST', url: `/v1/projects/${projectId}/approvals/${approvalId}/${action}`, headers: auth(key), ...(payload ? { payload } : {}) });
const isWaiting = (b: { status: string; step: string | null }) => b.step === 'waiting_for_approval' || !['queued', 'building'].includes(b.status);
const ended = (b: { status: string }) => !['queued', 'building'].includes(b.status);
const logOf = async (buildId: string) => (await app.inject({ url: `/v1/projects/${projectId}/builds/${buildId}/logs`, headers: auth(ownerKey) })).body;

beforeAll(async () => {
  server = await createServer();
  app = await server.open();
  ownerKey = app.bootstrap.adminKey!;
  repo = gatedDocsRepo('FIRST');
  const res = await app.inject({ method: 'POST', url: '/v1/projects', headers: auth(ownerKey), payload: { name: 'acme', slug: 'acme', repoUrl: repo.path, repoBranch: repo.branch } });
  projectId = res.json().data.id;
  people.ana = await person(app, 'Ana', 'reviewer');
  people.bo = await person(app, 'Bo', 'editor');
  people.viewer = await person(app, 'Vi', 'viewer', ['projects:read']);
}, 60_000);
afterAll(async () => {
  await app?.close();
  await server?.remove();
  repo?.cleanup();
});

describe('a gated production deploy', () => {
  it('deploys the first build (no gate yet), then a gate on security/** is added', async () => {
    const first = await trigger();
    expect(await waitForBuild(app, ownerKey, projectId, first, ended)).toMatchObject({ status: 'deployed', step: null });
    expect((await site(app, 'acme')).body).toContain('FIRST home page');
    const gate = await app.inject({ method: 'POST', url: `/v1/projects/${projectId}/approval-gates`, headers: auth(ownerKey), payload: { name: 'Security', paths: ['security/**'], requiredApprovals: 2 } });
    expect(gate.statusCode).toBe(201);
    gateId = gate.json().data.id;
  });

  it('waits before deploying a change to a gated path, approved by two distinct people, then deploys it', async () => {
    repo.commit({ 'security/keys.mdx': '# Keys\n\nRotate keys. SECOND\n', 'index.mdx': '# Welcome\n\nSECOND home page.\n' }, 'rotate');
    const buildId = await trigger();
    const waiting = await waitForBuild(app, ownerKey, projectId, buildId, isWaiting);
    expect(waiting).toMatchObject({ status: 'building', step: 'waiting_for_approval', commitSha: repo.headSha() });
    expect(await logOf(buildId)).toMatch(/waiting for approval apv_\w+ before deploying: 2 approval\(s\) required by gates "Security" \(changed: security\/keys\.mdx\)/);
    expect((await site(app, 'acme')).body).toContain('FIRST home page');
    // It holds no worker: it stays waiting (no requeue, no timeout) while nothing decides it.
    await new Promise((r) => setTimeout(r, 500));
    expect((await waitForBuild(app, ownerKey, projectId, buildId, () => true)).step).toBe('waiting_for_approval');

    const listed = await approvals('?status=pending');
    expect(listed.pagination).toMatchObject({ total: 1, page: 1 });
    const approval = listed.data[0];
    expect(approval).toMatchObject({
      buildId,
      status: 'pending',
      gates: [{ id: gateId, name: 'Security' }],
      paths: ['security/keys.mdx'],
      requiredApprovals: 2,
      approvals: [],
      author: { id: expect.stringMatching(/^usr_/) },
      decidedAt: null,
    });

    const byAuthor = await decide(approval.id, 'approve', ownerKey);
    expect(byAuthor.statusCode).toBe(403);
    expect(byAuthor.json().error.message).toMatch(/author of a change cannot approve/);
    expect((await decide(approval.id, 'approve', people.viewer.key)).statusCode).toBe(403);

    const first = await decide(approval.id, 'approve', people.ana.key, { comment: 'Looks right' });
    expect(first.statusCode).toBe(200);
    expect(first.json().data).toMatchObject({ status: 'pending', approvals: [{ user: { id: people.ana.userId, name: 'Ana' }, comment: 'Looks right' }] });
    const again = await decide(approval.id, 'approve', people.ana.key);
    expect(again.statusCode).toBe(409);
    expect(again.json().error.message).toMatch(/distinct/);
    expect((await waitForBuild(app, ownerKey, projectId, buildId, () => true)).step).toBe('waiting_for_approval');

    const second = await decide(approval.id, 'approve', people.bo.key);
    expect(second.json().data).toMatchObject({ status: 'approved', decidedAt: expect.any(String) });
    expect(second.json().data.approvals.map((a: { user: { id: string } }) => a.user.id)).toEqual([people.ana.userId, people.bo.userId]);
    const deployed = await waitForBuild(app, ownerKey, projectId, buildId, ended);
    expect(deployed).toMatchObject({ status: 'deployed', step: null, url: 'http://acme-docs.localhost:4000/' });
    // the site switches when the deploy is announced, a moment after the build row says `deployed`
    expect(await siteShows(app, 'acme', '/', 'SECOND home page')).toBe(true);
    expect(await logOf(buildId)).toMatch(/✓ deployed to http:\/\/acme-docs\.localhost:4000\/ after approval/);

    const late = await decide(approval.id, 'reject', people.bo.key, { reason: 'too late' });
    expect(late.statusCode).toBe(409);
    expect(late.json().error.message).toMatch(/"approved".*"rejected"/);

    const audit = await auditOf(app, ownerKey, projectId, 'approval.approved');
    expect(audit.map((e: { actor: { id: string } }) => e.actor.id).sort()).toEqual([people.ana.userId, people.bo.userId].sort());
  });

  it('deploys a change to an unrelated path without waiting', async () => {
    repo.commit({ 'guides/setup.mdx': '# Setup\n\nInstall it. THIRD\n' }, 'guide');
    const buildId = await trigger();
    expect(await waitForBuild(app, ownerKey, projectId, buildId, ended)).toMatchObject({ status: 'deployed', step: null });
    expect(await siteShows(app, 'acme', '/guides/setup', 'THIRD')).toBe(true);
    expect((await approvals()).pagination.total).toBe(1);
  });

  it('fails the build with the reason when a person rejects it, and keeps the old site', async () => {
    repo.commit({ 'security/keys.mdx': '# Keys\n\nRotate keys. REJECTED\n' }, 'risky');
    const buildId = await trigger();
    await waitForBuild(app, ownerKey, projectId, buildId, isWaiting);
    const approval = (await approvals('?status=pending')).data[0];
    expect((await decide(approval.id, 'reject', people.ana.key, { reason: '' })).statusCode).toBe(400);
    const res = await decide(approval.id, 'reject', people.ana.key, { reason: 'Rotation schedule not agreed yet' });
    expect(res.json().data).toMatchObject({ status: 'rejected', rejection: { user: { id: people.ana.userId }, reason: 'Rotation schedule not agreed yet' } });
    const failed = await waitForBuild(app, ownerKey, projectId, buildId, ended);
    expect(failed).toMatchObject({ status: 'failed', step: null });
    expect(failed.error).toContain('Rotation schedule not agreed yet');
    expect((await site(app, 'acme', '/security/keys')).body).toContain('SECOND');
    expect(await auditOf(app, ownerKey, projectId, 'approval.rejected')).toMatchObject([{ actor: { id: people.ana.userId }, resource: { type: 'approval', id: approval.id } }]);
  });

  it('cancels a waiting build at once and closes its approval', async () => {
    repo.commit({ 'security/keys.mdx': '# Keys\n\nRotate keys. CANCELLED\n' }, 'again');
    const buildId = await trigger();
    await waitForBuild(app, ownerKey, projectId, buildId, isWaiting);
    // A production build is refused while one waits; a preview may run.
    const blocked = await app.inject({ method: 'POST', url: `/v1/projects/${projectId}/builds`, headers: auth(ownerKey) });
    expect(blocked.statusCode).toBe(409);
    expect(blocked.json().error.message).toMatch(/waiting for approval/);
    const preview = await app.inject({ method: 'POST', url: `/v1/projects/${projectId}/builds`, headers: auth(ownerKey), payload: { preview: true } });
    expect(preview.statusCode).toBe(202);
    expect(await waitForBuild(app, ownerKey, projectId, preview.json().data.id, ended)).toMatchObject({ status: 'deployed', isPreview: true });
    expect((await waitForBuild(app, ownerKey, projectId, buildId, () => true)).step).toBe('waiting_for_approval');
    const cancel = await app.inject({ method: 'DELETE', url: `/v1/projects/${projectId}/builds/${buildId}`, headers: auth(ownerKey) });
    expect(cancel.statusCode).toBe(204);
    expect(await waitForBuild(app, ownerKey, projectId, buildId, () => true)).toMatchObject({ status: 'cancelled', step: null });
    const approval = (await approvals()).data.find((a: { buildId: string }) => a.buildId === buildId);
    expect(approval).toMatchObject({ status: 'rejected', rejection: { user: null, reason: expect.stringMatching(/cancelled/) } });
  });
});

describe('the first deploy of a gated project', () => {
  it('counts every file as changed, so a gate matching any file makes it wait', async () => {
    const res = await app.inject({ method: 'POST', url: '/v1/projects', headers: auth(ownerKey), payload: { name: 'fresh', slug: 'fresh', repoUrl: repo.path, repoBranch: repo.branch } });
    const fresh = res.json().data.id as string;
    await app.inject({ method: 'POST', url: `/v1/projects/${fresh}/approval-gates`, headers: auth(ownerKey), payload: { name: 'Guides', paths: ['guides/*.mdx'] } });
    const buildId = (await app.inject({ method: 'POST', url: `/v1/projects/${fresh}/builds`, headers: auth(ownerKey) })).json().data.id as string;
    expect(await waitForBuild(app, ownerKey, fresh, buildId, isWaiting)).toMatchObject({ status: 'building', step: 'waiting_for_approval' });
    expect((await site(app, 'fresh')).statusCode).toBe(404);
    const approval = (await app.inject({ url: `/v1/projects/${fresh}/approvals`, headers: auth(ownerKey) })).json().data[0];
    expect(approval).toMatchObject({ paths: ['guides/setup.mdx'], requiredApprovals: 1 });
    await app.inject({ method: 'POST', url: `/v1/projects/${fresh}/approvals/${approval.id}/approve`, headers: auth(people.bo.key) });
    expect(await waitForBuild(app, ownerKey, fresh, buildId, ended)).toMatchObject({ status: 'deployed' });
    expect((await site(app, 'fresh')).statusCode).toBe(200);
  });
});

describe('a gated deploy across a server restart', () => {
  it('keeps waiting after a restart and deploys once approved by the new server', async () => {
    repo.commit({ 'security/keys.mdx': '# Keys\n\nRotate keys. RESTARTED\n' }, 'after restart');
    const buildId = await trigger();
    await waitForBuild(app, ownerKey, projectId, buildId, isWaiting);
    await app.close();
    app = await server.open();
    // The restarted runner leaves the waiting build alone (no requeue, its output kept).
    await new Promise((r) => setTimeout(r, 300));
    expect(await waitForBuild(app, ownerKey, projectId, buildId, () => true)).toMatchObject({ status: 'building', step: 'waiting_for_approval' });
    expect((await site(app, 'acme', '/security/keys')).body).toContain('SECOND');
    const approval = (await approvals('?status=pending')).data[0];
    expect(approval.buildId).toBe(buildId);
    await decide(approval.id, 'approve', people.ana.key);
    expect((await decide(approval.id, 'approve', people.bo.key)).json().data.status).toBe('approved');
    expect(await waitForBuild(app, ownerKey, projectId, buildId, ended)).toMatchObject({ status: 'deployed' });
    // The site switches when the deploy is announced, a moment after the build row says `deployed`.
    expect(await siteShows(app, 'acme', '/security/keys', 'RESTARTED')).toBe(true);
  });
});

/** Whether the site page comes to contain `text` within 5 s. */
async function siteShows(app: FastifyInstance, slug: string, url: string, text: string): Promise<boolean> {
  const until = Date.now() + 5_000;
  for (;;) {
    if ((await site(app, slug, url)).body.includes(text)) return true;
    if (Date.now() > until) return false;
    await new Promise((r) => setTimeout(r, 50));
  }
}
