import { ApiError } from '@quire/shared/errors';
import { MEMBER_MANAGER_ROLES, RoleSchema, type InviteMemberInput, type InviteMemberResult, type Member, type Role } from '@quire/shared/api/members';
import type { Db } from '../db/client';
import { generatePassword } from './passwords';
import { createUser, findUserByEmail, toPublicUser } from './users';
import { revokeUserSessions } from './sessions';
import { recordAudit, type DbClient } from './audit';

/**
 * Organization memberships: who belongs to an organization and with which role
 * (decisions.md section 2). Rules enforced here, for tRPC and the CLI alike:
 * - only owners and admins invite, change roles and remove;
 * - an admin cannot create, promote, demote or remove an owner;
 * - the last owner cannot be demoted or removed;
 * - people outside the caller's organization answer not_found (decisions.md section 10).
 * Every change is audited at organization level (resource type `member`): `member.added`,
 * `member.role_changed`, `member.removed` (interface-spec.md: every state-changing action is recorded).
 */

/** The member acting: their organization, id and current role. */
export interface MemberActor {
  orgId: string;
  userId: string;
  role: Role;
}

/** Audit actions of membership changes. */
export type MemberAuditAction = 'member.added' | 'member.role_changed' | 'member.removed';

/**
 * Records a membership change in the audit log of organization `orgId` (shown in each of its
 * projects' logs). `actorUserId` null: the operator's CLI. Pass the transaction client when inside one.
 */
export async function recordMemberChange(
  db: DbClient,
  input: { orgId: string; actorUserId: string | null; action: MemberAuditAction; member: { id: string; email: string }; metadata: Record<string, unknown> },
): Promise<void> {
  await recordAudit(db, {
    orgId: input.orgId,
    projectId: null,
    auth: input.actorUserId ? { userId: input.actorUserId, keyId: null } : null,
    action: input.action,
    resource: { type: 'member', id: input.member.id, name: input.member.email },
    metadata: input.metadata,
  });
}

type MembershipRow = { role: string; createdAt: Date; user: { id: string; email: string; name: string } };

function toMember(row: MembershipRow): Member {
  return { user: toPublicUser(row.user), role: RoleSchema.parse(row.role), joinedAt: row.createdAt.toISOString() };
}

/**
 * Checks that `actor` may manage a member whose role is `targetRole` (absent for a new member)
 * and give them `newRole` (absent for a removal).
 * @throws ApiError forbidden when the actor is not an owner or admin, or is an admin touching an owner.
 */
export function assertCanManage(actor: MemberActor, targetRole: Role | undefined, newRole: Role | undefined): void {
  if (!MEMBER_MANAGER_ROLES.includes(actor.role)) {
    throw new ApiError('forbidden', 'Only owners and admins can manage members.');
  }
  if (actor.role !== 'owner' && (targetRole === 'owner' || newRole === 'owner')) {
    throw new ApiError('forbidden', 'Only an owner can add, promote, demote or remove an owner.');
  }
}

/** Every member of `orgId`, oldest membership first. */
export async function listMembers(db: Db, orgId: string): Promise<Member[]> {
  const rows = await db.prisma.membership.findMany({
    where: { orgId },
    include: { user: true },
    orderBy: [{ createdAt: 'asc' }, { userId: 'asc' }],
  });
  return rows.map(toMember);
}

/**
 * Makes an existing user a member of `orgId` with `role` (no permission check: callers check, or
 * are the operator's CLI).
 * @throws ApiError not_found for an unknown organization or user; conflict when already a member.
 */
export async function addMembership(db: Db, input: { orgId: string; userId: string; role: Role }): Promise<Member> {
  const [org, existing] = await Promise.all([
    db.prisma.organization.findUnique({ where: { id: input.orgId }, select: { id: true } }),
    db.prisma.membership.findUnique({ where: { orgId_userId: { orgId: input.orgId, userId: input.userId } } }),
  ]);
  if (!org) throw new ApiError('not_found', `No organization ${input.orgId}.`);
  if (existing) throw new ApiError('conflict', `That user is already a member (role ${existing.role}).`, { field: 'email', issue: 'already a member' });
  try {
    const row = await db.prisma.membership.create({ data: { orgId: input.orgId, userId: input.userId, role: input.role }, include: { user: true } });
    return toMember(row);
  } catch (err) {
    const code = (err as { code?: string }).code;
    if (code === 'P2002') throw new ApiError('conflict', 'That user is already a member.', { field: 'email', issue: 'already a member' });
    if (code === 'P2003') throw new ApiError('not_found', `No user ${input.userId}.`);
    throw err;
  }
}

/**
 * Adds the person with `input.email` to the actor's organization with `input.role`. A new e-mail
 * gets a new account with a generated one-time password (returned once); an existing account
 * keeps its password and name.
 * @throws ApiError forbidden (see {@link assertCanManage}); conflict when already a member;
 *   invalid_request for a bad e-mail or name.
 */
export async function inviteMember(db: Db, actor: MemberActor, input: InviteMemberInput): Promise<InviteMemberResult> {
  assertCanManage(actor, undefined, input.role);
  const existing = await findUserByEmail(db, input.email);
  if (existing) {
    const member = await addMembership(db, { orgId: actor.orgId, userId: existing.id, role: input.role });
    await recordMemberChange(db.prisma, { orgId: actor.orgId, actorUserId: actor.userId, action: 'member.added', member: member.user, metadata: { role: member.role, newAccount: false } });
    return { user: member.user, role: member.role };
  }
  const oneTimePassword = generatePassword();
  const user = await createUser(db, { email: input.email, name: input.name, password: oneTimePassword });
  try {
    const member = await addMembership(db, { orgId: actor.orgId, userId: user.id, role: input.role });
    await recordMemberChange(db.prisma, { orgId: actor.orgId, actorUserId: actor.userId, action: 'member.added', member: member.user, metadata: { role: member.role, newAccount: true } });
    return { user: member.user, role: member.role, oneTimePassword };
  } catch (err) {
    await db.prisma.user.deleteMany({ where: { id: user.id } }); // no orphan account without a membership
    throw err;
  }
}

async function loadTarget(tx: Pick<Db['prisma'], 'membership'>, orgId: string, userId: string) {
  const row = await tx.membership.findUnique({ where: { orgId_userId: { orgId, userId } }, include: { user: true } });
  if (!row) throw new ApiError('not_found', `No member ${userId} in this organization.`);
  return row;
}

async function assertNotLastOwner(tx: Pick<Db['prisma'], 'membership'>, orgId: string, what: string): Promise<void> {
  const owners = await tx.membership.count({ where: { orgId, role: 'owner' } });
  if (owners <= 1) throw new ApiError('conflict', `The last owner cannot be ${what}; make someone else an owner first.`);
}

/**
 * Changes the role of member `userId` in the actor's organization.
 * @returns the member with the new role (unchanged when it already had it).
 * @throws ApiError not_found when `userId` is not a member; forbidden (see {@link assertCanManage});
 *   conflict when it would demote the last owner.
 */
export async function setMemberRole(db: Db, actor: MemberActor, input: { userId: string; role: Role }): Promise<Member> {
  return db.prisma.$transaction(async (tx) => {
    const target = await loadTarget(tx, actor.orgId, input.userId);
    const currentRole = RoleSchema.parse(target.role);
    assertCanManage(actor, currentRole, input.role);
    if (currentRole === input.role) return toMember(target);
    if (currentRole === 'owner') await assertNotLastOwner(tx, actor.orgId, 'demoted');
    const row = await tx.membership.update({
      where: { orgId_userId: { orgId: actor.orgId, userId: input.userId } },
      data: { role: input.role },
      include: { user: true },
    });
    await recordMemberChange(tx, { orgId: actor.orgId, actorUserId: actor.userId, action: 'member.role_changed', member: row.user, metadata: { from: currentRole, to: input.role } });
    return toMember(row);
  });
}

/** Result of {@link removeMember}. */
export interface RemoveMemberResult {
  userId: string;
  /** True when the person had no other membership, so their account was deleted too. */
  userDeleted: boolean;
}

/**
 * Removes member `userId` from the actor's organization and ends their sessions there. When they
 * belong to no other organization the account is deleted too; their audit entries then show
 * empty actor strings (AuditEntry.actorId is set null by the database).
 * @throws ApiError not_found when `userId` is not a member; forbidden (see {@link assertCanManage});
 *   conflict when removing the last owner.
 */
export async function removeMember(db: Db, actor: MemberActor, input: { userId: string }): Promise<RemoveMemberResult> {
  const result = await db.prisma.$transaction(async (tx) => {
    const target = await loadTarget(tx, actor.orgId, input.userId);
    const currentRole = RoleSchema.parse(target.role);
    assertCanManage(actor, currentRole, undefined);
    if (currentRole === 'owner') await assertNotLastOwner(tx, actor.orgId, 'removed');
    await tx.membership.delete({ where: { orgId_userId: { orgId: actor.orgId, userId: input.userId } } });
    const others = await tx.membership.count({ where: { userId: input.userId } });
    if (others === 0) await tx.user.delete({ where: { id: input.userId } });
    const removedSelf = actor.userId === input.userId && others === 0;
    await recordMemberChange(tx, {
      orgId: actor.orgId,
      actorUserId: removedSelf ? null : actor.userId,
      action: 'member.removed',
      member: target.user,
      metadata: { role: currentRole, accountDeleted: others === 0 },
    });
    return { userId: input.userId, userDeleted: others === 0 };
  });
  if (!result.userDeleted) await revokeUserSessions(db, input.userId, actor.orgId);
  return result;
}
