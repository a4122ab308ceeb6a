import { ApiError } from '@quire/shared/errors';
import { RoleSchema } from '@quire/shared/api/members';
import type { SignInInput, SignInResult } from '@quire/shared/api/auth';
import type { Db } from '../db/client';
import { hashPassword, needsRehash, verifyPassword } from './passwords';
import { createSession } from './sessions';
import { findUserByEmail, toPublicUser } from './users';
import type { SignInThrottle } from './sign-in-throttle';

/** The one message for a wrong e-mail and a wrong password alike, so accounts cannot be discovered. */
export const WRONG_CREDENTIALS = 'Wrong e-mail or password.';

/**
 * Signs a person in (decisions.md section 2, `auth.signIn`): checks the password (constant-time, and
 * as slow for an unknown e-mail or an account without a password as for a wrong password), picks the
 * organization (`input.orgId`, or the membership joined first) and opens a 30-day session.
 * Hashes made with weaker scrypt parameters are upgraded on the way.
 * @returns the session token (shown once), its expiry and who it belongs to.
 * @throws ApiError unauthorized (same message for unknown e-mail and wrong password);
 *   not_found when `orgId` is not one of the person's organizations;
 *   rate_limited when `throttle` refuses the attempt.
 */
export async function signIn(db: Db, input: SignInInput, options: { throttle?: SignInThrottle; ip?: string } = {}): Promise<SignInResult> {
  const ip = options.ip ?? 'local';
  await options.throttle?.attempt(input.email, ip);
  const user = await findUserByEmail(db, input.email);
  const ok = await verifyPassword(input.password, user?.passwordHash ?? '');
  // a wrong password stays counted as the failure the attempt began as
  if (!user || !ok) throw new ApiError('unauthorized', WRONG_CREDENTIALS);
  await options.throttle?.recordSuccess(input.email, ip);

  const memberships = await db.prisma.membership.findMany({
    where: { userId: user.id, ...(input.orgId ? { orgId: input.orgId } : {}) },
    include: { org: true },
    orderBy: [{ createdAt: 'asc' }, { orgId: 'asc' }],
    take: 1,
  });
  const membership = memberships[0];
  if (!membership) {
    if (input.orgId) throw new ApiError('not_found', `You are not a member of organization ${input.orgId}.`);
    throw new ApiError('unauthorized', WRONG_CREDENTIALS);
  }

  if (needsRehash(user.passwordHash)) {
    const passwordHash = await hashPassword(input.password);
    await db.prisma.user.updateMany({ where: { id: user.id, passwordHash: user.passwordHash }, data: { passwordHash } });
  }
  const session = await createSession(db, { userId: user.id, orgId: membership.orgId });
  return {
    token: session.token,
    expiresAt: session.expiresAt.toISOString(),
    user: toPublicUser(user),
    org: { id: membership.org.id, name: membership.org.name },
    role: RoleSchema.parse(membership.role),
  };
}
