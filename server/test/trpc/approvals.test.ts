import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '@quire/shared/ids';
import type { AppContext } from '../../src/context';
import { openTempDb, seedMember, seedOrg, TEST_PASSWORD } from '../services/identity-fixtures';
import { appContextFor, callerFor, trpcErrorOf } from './trpc-fixtures';

describe('approvals router (desktop app)', () => {
  let app: AppContext;
  let cleanup: () => Promise<void>;
  let projectId: string;
  let foreignProjectId: string;
  const tokens: Record<string, string> = {};

  /** A building production build of the project, started by `createdById`. */
  const building = async (createdById: string) =>
    (await app.db.prisma.build.create({ data: { id: newId('build'), projectId, status: 'building', trigger: 'api', branch: 'main', createdById } })).id;

  beforeAll(async () => {
    const tmp = await openTempDb();
    cleanup = tmp.cleanup;
    app = appContextFor(tmp.db, tmp.dir);
    const orgId = await seedOrg(tmp.db, 'Acme');
    const otherOrg = await seedOrg(tmp.db, 'Other');
    projectId = (await tmp.db.prisma.project.create({ data: { id: newId('project'), orgId, name: 'Docs', slug: 'docs', settings: '{}' } })).id;
    foreignProjectId = (await tmp.db.prisma.project.create({ data: { id: newId('project'), orgId: otherOrg, name: 'Theirs', slug: 'theirs', settings: '{}' } })).id;
    for (const role of ['editor', 'reviewer', 'viewer'] as const) {
      await seedMember(tmp.db, orgId, `${role}@acme.test`, role);
      tokens[role] = (await (await callerFor(app)).auth.signIn({ email: `${role}@acme.test`, password: TEST_PASSWORD })).token;
    }
  });
  afterAll(async () => cleanup?.());

  it('lets an editor add a gate and request an approval; the reviewer approves it, not the author nor a viewer', async () => {
    const editor = await callerFor(app, tokens.editor);
    const gate = await editor.approvals.gates.create({ projectId, gate: { name: 'Security', paths: ['security/**'], requiredApprovals: 1 } });
    expect(gate).toMatchObject({ id: expect.stringMatching(/^gat_/), paths: ['security/**'] });
    expect(await (await callerFor(app, tokens.viewer)).approvals.gates.list({ projectId })).toHaveLength(1);

    const editorId = (await app.db.prisma.user.findUniqueOrThrow({ where: { email: 'editor@acme.test' } })).id;
    const approval = await editor.approvals.request({ projectId, buildId: await building(editorId) });
    expect(approval).toMatchObject({ status: 'pending', author: { id: editorId } });

    const own = await trpcErrorOf(editor.approvals.approve({ projectId, approvalId: approval.id }));
    expect(own.code).toBe('FORBIDDEN');
    expect(own.message).toMatch(/author/);
    expect((await trpcErrorOf((await callerFor(app, tokens.viewer)).approvals.approve({ projectId, approvalId: approval.id }))).code).toBe('FORBIDDEN');

    const reviewer = await callerFor(app, tokens.reviewer);
    const approved = await reviewer.approvals.approve({ projectId, approvalId: approval.id, comment: 'ok' });
    expect(approved).toMatchObject({ status: 'approved', approvals: [{ user: { email: 'reviewer@acme.test' }, comment: 'ok' }] });
    const again = await trpcErrorOf(reviewer.approvals.reject({ projectId, approvalId: approval.id, reason: 'no' }));
    expect(again.code).toBe('CONFLICT');
    expect(again.message).toMatch(/"approved".*"rejected"/);
    expect((await reviewer.approvals.list({ projectId, status: 'approved' })).total).toBe(1);
  });

  it('refuses gate changes to a reviewer, bad globs as BAD_REQUEST, foreign projects as NOT_FOUND', async () => {
    const reviewer = await callerFor(app, tokens.reviewer);
    expect((await trpcErrorOf(reviewer.approvals.gates.create({ projectId, gate: { name: 'X', paths: ['a/*'], requiredApprovals: 1 } }))).code).toBe('FORBIDDEN');
    const editor = await callerFor(app, tokens.editor);
    const bad = await trpcErrorOf(editor.approvals.gates.create({ projectId, gate: { name: 'X', paths: ['!a/*'], requiredApprovals: 1 } }));
    expect(bad.code).toBe('BAD_REQUEST');
    expect((await trpcErrorOf(editor.approvals.list({ projectId: foreignProjectId }))).code).toBe('NOT_FOUND');
    expect((await trpcErrorOf(editor.approvals.get({ projectId, approvalId: 'apv_unknown00000000' }))).code).toBe('NOT_FOUND');
    expect((await trpcErrorOf((await callerFor(app)).approvals.list({ projectId }))).code).toBe('UNAUTHORIZED');
  });

  it('lets a reviewer reject with a reason', async () => {
    const editorId = (await app.db.prisma.user.findUniqueOrThrow({ where: { email: 'editor@acme.test' } })).id;
    const approval = await (await callerFor(app, tokens.editor)).approvals.request({ projectId, buildId: await building(editorId), requiredApprovals: 2 });
    const rejected = await (await callerFor(app, tokens.reviewer)).approvals.reject({ projectId, approvalId: approval.id, reason: 'Needs legal review' });
    expect(rejected).toMatchObject({ status: 'rejected', rejection: { user: { email: 'reviewer@acme.test' }, reason: 'Needs legal review' } });
  });
});
