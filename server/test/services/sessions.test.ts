import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../src/db/client';
import { createSession, hashSessionToken, resolveSession, revokeSession, SESSION_TTL_MS } from '../../src/services/sessions';
import { openTempDb, seedMember, seedOrg } from './identity-fixtures';

describe('sessions', () => {
  let db: Db;
  let cleanup: () => Promise<void>;
  let orgId: string;
  let userId: string;

  beforeAll(async () => {
    ({ db, cleanup } = await openTempDb());
    orgId = await seedOrg(db, 'Acme');
    userId = (await seedMember(db, orgId, 'ada@acme.test', 'editor')).id;
  });
  afterAll(async () => cleanup?.());

  it('stores only a SHA-256 hash of the token and resolves it for 30 days', async () => {
    const now = new Date('2030-01-01T00:00:00Z');
    const session = await createSession(db, { userId, orgId }, now);
    expect(session.expiresAt.getTime() - now.getTime()).toBe(SESSION_TTL_MS);
    const row = await db.prisma.session.findUniqueOrThrow({ where: { id: session.id } });
    expect(row.tokenHash).toBe(hashSessionToken(session.token));
    expect(row.tokenHash).not.toContain(session.token.slice(3));

    const resolved = await resolveSession(db, session.token, new Date(now.getTime() + SESSION_TTL_MS - 1000));
    expect(resolved).toMatchObject({ user: { id: userId, email: 'ada@acme.test' }, org: { id: orgId, name: 'Acme' }, role: 'editor' });
    expect(await resolveSession(db, session.token, new Date(now.getTime() + SESSION_TTL_MS))).toBeNull();
  });

  it('refuses unknown tokens and revoked sessions', async () => {
    const session = await createSession(db, { userId, orgId });
    expect(await resolveSession(db, `${session.token}x`)).toBeNull();
    expect(await resolveSession(db, 'quire_abcdefgh_notasessiontoken')).toBeNull();
    expect(await revokeSession(db, session.token)).toBe(true);
    expect(await resolveSession(db, session.token)).toBeNull();
  });

  it('follows the membership: a new role applies at once, a removed member is signed out', async () => {
    const session = await createSession(db, { userId, orgId });
    await db.prisma.membership.update({ where: { orgId_userId: { orgId, userId } }, data: { role: 'admin' } });
    expect((await resolveSession(db, session.token))?.role).toBe('admin');
    await db.prisma.membership.delete({ where: { orgId_userId: { orgId, userId } } });
    expect(await resolveSession(db, session.token)).toBeNull();
  });
});
