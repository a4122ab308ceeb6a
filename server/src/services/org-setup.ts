import { ApiError } from '@quire/shared/errors';
import type { PublicUser } from '@quire/shared/api/members';
import type { Db } from '../db/client';
import { createApiKey } from './api-keys';
import { addMembership, recordMemberChange } from './members';
import { createOrganization, type Plan } from './organizations';
import { generatePassword } from './passwords';
import { createUser, findUserByEmail, normalizeEmail, toPublicUser } from './users';

/**
 * Setting up a further organization (decisions.md section 2, `pnpm quire org create`): the
 * organization, optionally its owner, and an `admin` API key for it.
 */

/** Name given to the admin key made by {@link setUpOrganization}. */
export const ORG_ADMIN_KEY_NAME = 'Admin key (quire org create)';

/** What {@link setUpOrganization} made. */
export interface OrganizationSetup {
  org: { id: string; name: string; plan: Plan };
  /** Present when an owner e-mail was given. */
  owner?: {
    user: PublicUser;
    /** True when the account was created now (else an existing account got a membership). */
    created: boolean;
    /** The new account's one-time password, shown once. */
    oneTimePassword?: string;
  };
  /** The `admin` key: id and the full secret (never retrievable again). */
  apiKey: { id: string; key: string; prefix: string };
}

/**
 * Creates organization `name` on `plan`, makes `ownerEmail` (if given) its owner — creating the
 * account with a one-time password when the e-mail is new — and issues an `admin` API key
 * (created by the owner when there is one). If a step fails, what was created is removed again.
 * @throws ApiError invalid_request for an empty name or a bad e-mail.
 */
export async function setUpOrganization(db: Db, input: { name: string; plan: Plan; ownerEmail?: string }): Promise<OrganizationSetup> {
  const name = input.name.trim();
  if (!name || name.length > 200) {
    throw new ApiError('invalid_request', 'An organization name has 1-200 characters.', { field: 'name', issue: 'must have 1-200 characters' });
  }
  const ownerEmail = input.ownerEmail === undefined ? undefined : normalizeEmail(input.ownerEmail);
  const existingOwner = ownerEmail ? await findUserByEmail(db, ownerEmail) : null;
  const oneTimePassword = ownerEmail && !existingOwner ? generatePassword() : undefined;

  const org = await createOrganization(db, { name, plan: input.plan });
  let createdUserId: string | undefined;
  try {
    let owner: OrganizationSetup['owner'];
    if (ownerEmail) {
      const user = existingOwner ? toPublicUser(existingOwner) : await createUser(db, { email: ownerEmail, password: oneTimePassword! });
      if (!existingOwner) createdUserId = user.id;
      await addMembership(db, { orgId: org.id, userId: user.id, role: 'owner' });
      await recordMemberChange(db.prisma, { orgId: org.id, actorUserId: null, action: 'member.added', member: user, metadata: { role: 'owner', newAccount: !existingOwner } });
      owner = { user, created: !existingOwner, ...(oneTimePassword ? { oneTimePassword } : {}) };
    }
    const { record, key } = await createApiKey(db, {
      orgId: org.id,
      createdById: owner?.user.id ?? null,
      name: ORG_ADMIN_KEY_NAME,
      permissions: ['admin'],
    });
    return { org: { id: org.id, name: org.name, plan: input.plan }, ...(owner ? { owner } : {}), apiKey: { id: record.id, key, prefix: record.prefix } };
  } catch (err) {
    await db.prisma.organization.deleteMany({ where: { id: org.id } });
    if (createdUserId) await db.prisma.user.deleteMany({ where: { id: createdUserId } });
    throw err;
  }
}

/** The default organization for operator commands: the oldest one, or null when there is none yet. */
export async function oldestOrganization(db: Db): Promise<{ id: string; name: string } | null> {
  return db.prisma.organization.findFirst({ orderBy: [{ createdAt: 'asc' }, { id: 'asc' }], select: { id: true, name: true } });
}
