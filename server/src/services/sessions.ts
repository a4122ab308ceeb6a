import { createHash, randomBytes } from 'node:crypto';
import { newId } from '@quire/shared/ids';
import { RoleSchema } from '@quire/shared/api/members';
import type { SessionIdentity } from '@quire/shared/api/auth';
import type { Db } from '../db/client';
import { toPublicUser } from './users';

/**
 * Sign-in sessions of the desktop app and other tRPC clients (decisions.md section 2).
 * A session token is `qs_<43 base64url chars>` (256 random bits). Only its SHA-256 hash is stored
 * (Session.tokenHash), so a leaked database does not yield usable tokens. Sessions last 30 days.
 */

/** How long a session lasts from sign-in: 30 days, in milliseconds. */
export const SESSION_TTL_MS = 30 * 24 * 60 * 60 * 1000;

/** Prefix of session tokens; tells them apart from API keys (`quire_`, `sk_test_`) at a glance. */
export const SESSION_TOKEN_PREFIX = 'qs_';

/** SHA-256 hex of a session token, as stored in Session.tokenHash. */
export function hashSessionToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** A freshly created session: the token is returned this once and never again. */
export interface NewSession {
  id: string;
  token: string;
  expiresAt: Date;
}

/**
 * Creates a session of `userId` in organization `orgId`, expiring {@link SESSION_TTL_MS} from `now`.
 * Also deletes this user's expired sessions, so the table does not grow without bound.
 */
export async function createSession(db: Db, input: { userId: string; orgId: string }, now = new Date()): Promise<NewSession> {
  const token = SESSION_TOKEN_PREFIX + randomBytes(32).toString('base64url');
  const expiresAt = new Date(now.getTime() + SESSION_TTL_MS);
  const id = newId('session');
  await db.prisma.$transaction([
    db.prisma.session.deleteMany({ where: { userId: input.userId, expiresAt: { lte: now } } }),
    db.prisma.session.create({ data: { id, tokenHash: hashSessionToken(token), userId: input.userId, orgId: input.orgId, expiresAt } }),
  ]);
  return { id, token, expiresAt };
}

/** A valid session with the identity it stands for (role read fresh from the membership). */
export interface ResolvedSession extends SessionIdentity {
  sessionId: string;
  expiresAt: Date;
}

/**
 * Looks up the session of `token`.
 * @returns null when the token is unknown, expired, or its user is no longer a member of the
 *   session's organization (a removed member is signed out at once); otherwise the identity,
 *   with the role as it is now (a role change applies to existing sessions).
 */
export async function resolveSession(db: Db, token: string, now = new Date()): Promise<ResolvedSession | null> {
  if (!token.startsWith(SESSION_TOKEN_PREFIX) || token.length > 200) return null;
  const session = await db.prisma.session.findUnique({ where: { tokenHash: hashSessionToken(token) }, include: { user: true } });
  if (!session || session.expiresAt.getTime() <= now.getTime()) return null;
  const membership = await db.prisma.membership.findUnique({
    where: { orgId_userId: { orgId: session.orgId, userId: session.userId } },
    include: { org: true },
  });
  const role = RoleSchema.safeParse(membership?.role);
  if (!membership || !role.success) return null;
  return {
    sessionId: session.id,
    expiresAt: session.expiresAt,
    user: toPublicUser(session.user),
    org: { id: membership.org.id, name: membership.org.name },
    role: role.data,
  };
}

/** Ends the session of `token` (no-op when it does not exist). @returns whether a session was ended. */
export async function revokeSession(db: Db, token: string): Promise<boolean> {
  const { count } = await db.prisma.session.deleteMany({ where: { tokenHash: hashSessionToken(token) } });
  return count > 0;
}

/** Ends every session of `userId`, or only those in `orgId` when given. @returns how many were ended. */
export async function revokeUserSessions(db: Db, userId: string, orgId?: string): Promise<number> {
  const { count } = await db.prisma.session.deleteMany({ where: { userId, ...(orgId ? { orgId } : {}) } });
  return count;
}
