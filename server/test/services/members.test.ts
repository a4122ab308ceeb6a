import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError } from '@quire/shared/errors';
import type { Db } from '../../src/db/client';
import { inviteMember, listMembers, removeMember, setMemberRole, type MemberActor } from '../../src/services/members';
import { verifyPassword } from '../../src/services/passwords';
import { openTempDb, seedMember, seedOrg } from './identity-fixtures';

async function apiErrorOf(promise: Promise<unknown>): Promise<ApiError> {
  const err = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ApiError);
  return err as ApiError;
}

describe('membership rules', () => {
  let db: Db;
  let cleanup: () => Promise<void>;
  let orgId: string;
  let otherOrgId: string;
  let owner: MemberActor;
  let admin: MemberActor;
  let editor: MemberActor;

  beforeAll(async () => {
    ({ db, cleanup } = await openTempDb());
    orgId = await seedOrg(db, 'Acme');
    otherOrgId = await seedOrg(db, 'Other');
    const o = await seedMember(db, orgId, 'owner@acme.test', 'owner');
    const a = await seedMember(db, orgId, 'admin@acme.test', 'admin');
    const e = await seedMember(db, orgId, 'editor@acme.test', 'editor');
    owner = { orgId, userId: o.id, role: 'owner' };
    admin = { orgId, userId: a.id, role: 'admin' };
    editor = { orgId, userId: e.id, role: 'editor' };
  });
  afterAll(async () => cleanup?.());

  it('invites a new person with a one-time password that works, and lists them', async () => {
    const result = await inviteMember(db, admin, { email: 'new@acme.test', name: 'New Person', role: 'reviewer' });
    expect(result.role).toBe('reviewer');
    expect(result.user).toMatchObject({ email: 'new@acme.test', name: 'New Person' });
    expect(result.oneTimePassword).toBeDefined();
    const row = await db.prisma.user.findUniqueOrThrow({ where: { id: result.user.id } });
    expect(await verifyPassword(result.oneTimePassword!, row.passwordHash)).toBe(true);
    const members = await listMembers(db, orgId);
    expect(members.map((m) => m.user.email)).toContain('new@acme.test');
    expect(members.find((m) => m.user.email === 'new@acme.test')?.role).toBe('reviewer');
  });

  it('adds an existing account without touching its password, and refuses a second invite', async () => {
    const outsider = await seedMember(db, otherOrgId, 'outsider@other.test', 'owner');
    const before = (await db.prisma.user.findUniqueOrThrow({ where: { id: outsider.id } })).passwordHash;
    const result = await inviteMember(db, owner, { email: 'Outsider@Other.test', role: 'viewer' });
    expect(result.user.id).toBe(outsider.id);
    expect(result.oneTimePassword).toBeUndefined();
    expect((await db.prisma.user.findUniqueOrThrow({ where: { id: outsider.id } })).passwordHash).toBe(before);
    const again = await apiErrorOf(inviteMember(db, owner, { email: 'outsider@other.test', role: 'viewer' }));
    expect(again.code).toBe('conflict');
  });

  it('lets only owners and admins manage members, and only owners manage owners', async () => {
    expect((await apiErrorOf(inviteMember(db, editor, { email: 'x@acme.test', role: 'viewer' }))).code).toBe('forbidden');
    expect((await apiErrorOf(inviteMember(db, admin, { email: 'x@acme.test', role: 'owner' }))).code).toBe('forbidden');
    expect((await apiErrorOf(setMemberRole(db, admin, { userId: editor.userId, role: 'owner' }))).code).toBe('forbidden');
    expect((await apiErrorOf(setMemberRole(db, admin, { userId: owner.userId, role: 'viewer' }))).code).toBe('forbidden');
    expect((await apiErrorOf(removeMember(db, admin, { userId: owner.userId }))).code).toBe('forbidden');
    expect(await db.prisma.user.count({ where: { email: 'x@acme.test' } })).toBe(0);
    const roles = Object.fromEntries((await listMembers(db, orgId)).map((m) => [m.user.email, m.role]));
    expect(roles['owner@acme.test']).toBe('owner');
    expect(roles['editor@acme.test']).toBe('editor');
  });

  it('never demotes or removes the last owner, but does once there is a second', async () => {
    expect((await apiErrorOf(setMemberRole(db, owner, { userId: owner.userId, role: 'admin' }))).code).toBe('conflict');
    expect((await apiErrorOf(removeMember(db, owner, { userId: owner.userId }))).code).toBe('conflict');
    const promoted = await setMemberRole(db, owner, { userId: admin.userId, role: 'owner' });
    expect(promoted.role).toBe('owner');
    const demoted = await setMemberRole(db, { ...admin, role: 'owner' }, { userId: owner.userId, role: 'admin' });
    expect(demoted.role).toBe('admin');
    // restore for the other tests
    await setMemberRole(db, { ...admin, role: 'owner' }, { userId: owner.userId, role: 'owner' });
    await setMemberRole(db, owner, { userId: admin.userId, role: 'admin' });
  });

  it('answers not_found for people outside the organization', async () => {
    const stranger = await seedMember(db, otherOrgId, 'stranger@other.test', 'editor');
    expect((await apiErrorOf(setMemberRole(db, owner, { userId: stranger.id, role: 'viewer' }))).code).toBe('not_found');
    expect((await apiErrorOf(removeMember(db, owner, { userId: stranger.id }))).code).toBe('not_found');
    expect(await db.prisma.membership.count({ where: { userId: stranger.id } })).toBe(1);
  });

  it('removes the membership, and deletes the account only when it has no other membership', async () => {
    const shared = await seedMember(db, orgId, 'shared@acme.test', 'viewer');
    await seedMember(db, otherOrgId, 'shared@acme.test', 'viewer');
    const lonely = await seedMember(db, orgId, 'lonely@acme.test', 'viewer');

    expect(await removeMember(db, admin, { userId: shared.id })).toEqual({ userId: shared.id, userDeleted: false });
    expect(await db.prisma.user.count({ where: { id: shared.id } })).toBe(1);
    expect(await db.prisma.membership.count({ where: { userId: shared.id, orgId } })).toBe(0);

    expect(await removeMember(db, admin, { userId: lonely.id })).toEqual({ userId: lonely.id, userDeleted: true });
    expect(await db.prisma.user.count({ where: { id: lonely.id } })).toBe(0);
    expect((await listMembers(db, orgId)).map((m) => m.user.id)).not.toContain(lonely.id);
  });

  it('records every membership change in the organization\'s audit log with its actor', async () => {
    const target = await seedMember(db, orgId, 'audited@acme.test', 'viewer');
    await setMemberRole(db, admin, { userId: target.id, role: 'editor' });
    await removeMember(db, owner, { userId: target.id });
    const entries = await db.prisma.auditEntry.findMany({ where: { orgId, resourceId: target.id }, orderBy: { createdAt: 'asc' } });
    expect(entries.map((e) => [e.action, e.actorId, e.resourceType, e.resourceName, JSON.parse(e.metadata)])).toEqual([
      ['member.role_changed', admin.userId, 'member', 'audited@acme.test', { from: 'viewer', to: 'editor' }],
      ['member.removed', owner.userId, 'member', 'audited@acme.test', { role: 'editor', accountDeleted: true }],
    ]);
    expect(entries.every((e) => e.projectId === null)).toBe(true);
  });
});
