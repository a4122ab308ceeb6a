import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../src/db/client';
import { hashPassword, needsRehash, verifyPassword } from '../../src/services/passwords';
import { signIn } from '../../src/services/sign-in';
import { openTempDb, seedMember, seedOrg } from './identity-fixtures';

describe('signIn service', () => {
  let db: Db;
  let cleanup: () => Promise<void>;

  beforeAll(async () => {
    ({ db, cleanup } = await openTempDb());
  });
  afterAll(async () => cleanup?.());

  it('upgrades a hash made with weaker scrypt parameters on a successful sign-in', async () => {
    const orgId = await seedOrg(db, 'Acme');
    const weak = await hashPassword('an-old-password', { N: 1024, r: 8, p: 1 });
    const user = await seedMember(db, orgId, 'old@acme.test', 'editor', { passwordHash: weak });
    await signIn(db, { email: 'old@acme.test', password: 'an-old-password' });
    const stored = (await db.prisma.user.findUniqueOrThrow({ where: { id: user.id } })).passwordHash;
    expect(stored).not.toBe(weak);
    expect(needsRehash(stored)).toBe(false);
    expect(await verifyPassword('an-old-password', stored)).toBe(true);
  });

  it('refuses an account that belongs to no organization with the generic message', async () => {
    await seedMember(db, null, 'orphan@acme.test');
    await expect(signIn(db, { email: 'orphan@acme.test', password: 'correct horse battery staple' })).rejects.toMatchObject({
      code: 'unauthorized',
      message: 'Wrong e-mail or password.',
    });
    expect(await db.prisma.session.count()).toBe(1); // only the first test's session
  });
});
