import { ApiError } from '@quire/shared/errors';
import { newId } from '@quire/shared/ids';
import { EmailSchema, PasswordSchema, type PublicUser } from '@quire/shared/api/members';
import type { Db } from '../db/client';
import { hashPassword } from './passwords';

/**
 * Users (`usr_`): people with an e-mail (unique across the service), a name and a password hash
 * (decisions.md section 2). Org roles live in memberships (see ./members).
 */

/** What {@link createUser} needs. */
export interface NewUser {
  email: string;
  /** Default: the part of the e-mail before `@`. */
  name?: string;
  /** Plain password (hashed here); omitted or `null`: the account cannot sign in until one is set. */
  password?: string | null;
}

/** The fields other people may see; never the password hash. */
export function toPublicUser(user: { id: string; email: string; name: string }): PublicUser {
  return { id: user.id, email: user.email, name: user.name };
}

/**
 * Normalises an e-mail address the way accounts are keyed (trimmed, lower case).
 * @throws ApiError invalid_request (`details.field: "email"`) when it is not an e-mail address.
 */
export function normalizeEmail(email: string): string {
  const parsed = EmailSchema.safeParse(email);
  if (!parsed.success) throw new ApiError('invalid_request', `Not an e-mail address: ${JSON.stringify(email)}.`, { field: 'email', issue: 'must be an e-mail address' });
  return parsed.data;
}

/**
 * Checks a chosen password against the policy (8-1024 characters).
 * @throws ApiError invalid_request (`details.field: "password"`) otherwise.
 */
export function assertPasswordPolicy(password: string): void {
  const parsed = PasswordSchema.safeParse(password);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]?.message ?? 'invalid password';
    throw new ApiError('invalid_request', `The password is not acceptable: ${issue}.`, { field: 'password', issue });
  }
}

/** The user with this e-mail (normalised first), or null. Includes the password hash: keep it server-side. */
export async function findUserByEmail(db: Db, email: string) {
  const parsed = EmailSchema.safeParse(email);
  if (!parsed.success) return null;
  return db.prisma.user.findUnique({ where: { email: parsed.data } });
}

/**
 * Creates a user. The password, when given, must meet {@link assertPasswordPolicy} and is stored
 * as a scrypt hash; without one the hash is '' ("cannot sign in").
 * @throws ApiError invalid_request for a bad e-mail, name or password; conflict when the e-mail is taken.
 */
export async function createUser(db: Db, input: NewUser): Promise<PublicUser> {
  const email = normalizeEmail(input.email);
  const name = (input.name ?? email.split('@')[0]!).trim();
  if (!name || name.length > 200) throw new ApiError('invalid_request', 'A name has 1-200 characters.', { field: 'name', issue: 'must have 1-200 characters' });
  if (input.password != null) assertPasswordPolicy(input.password);
  const passwordHash = input.password != null ? await hashPassword(input.password) : '';
  if (await db.prisma.user.findUnique({ where: { email }, select: { id: true } })) {
    throw new ApiError('conflict', `A user with e-mail ${email} already exists.`, { field: 'email', issue: 'already exists' });
  }
  try {
    const user = await db.prisma.user.create({ data: { id: newId('user'), email, name, passwordHash } });
    return toPublicUser(user);
  } catch (err) {
    // Lost a race with another writer (the CLI and the server share the database).
    if ((err as { code?: string }).code === 'P2002') {
      throw new ApiError('conflict', `A user with e-mail ${email} already exists.`, { field: 'email', issue: 'already exists' });
    }
    throw err;
  }
}

/**
 * Sets a user's password (policy-checked, hashed) and ends all their sessions, so a reset
 * locks out whoever held the old password.
 * @throws ApiError invalid_request for a password outside the policy; not_found for an unknown user.
 */
export async function setUserPassword(db: Db, userId: string, password: string): Promise<void> {
  assertPasswordPolicy(password);
  const passwordHash = await hashPassword(password);
  await db.prisma.$transaction(async (tx) => {
    const updated = await tx.user.updateMany({ where: { id: userId }, data: { passwordHash } });
    if (updated.count === 0) throw new ApiError('not_found', `No user ${userId}.`);
    await tx.session.deleteMany({ where: { userId } });
  });
}
