import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiError } from '@quire/shared/errors';
import type { AppContext } from '../../src/context';
import { openTempDb, seedMember, seedOrg, TEST_PASSWORD } from '../services/identity-fixtures';
import { appContextFor, callerFor, trpcErrorOf } from './trpc-fixtures';

describe('auth router', () => {
  let app: AppContext;
  let cleanup: () => Promise<void>;
  let acmeId: string;
  let betaId: string;

  beforeAll(async () => {
    const tmp = await openTempDb();
    cleanup = tmp.cleanup;
    app = appContextFor(tmp.db, tmp.dir);
    acmeId = await seedOrg(tmp.db, 'Acme', new Date('2030-01-01'));
    betaId = await seedOrg(tmp.db, 'Beta', new Date('2030-02-01'));
    await seedMember(tmp.db, acmeId, 'ada@example.com', 'admin', { joinedAt: new Date('2030-01-02') });
    await seedMember(tmp.db, betaId, 'ada@example.com', 'viewer', { joinedAt: new Date('2030-02-02') });
    await seedMember(tmp.db, acmeId, 'bootstrap@example.com', 'owner', { passwordHash: '' });
  });
  afterAll(async () => cleanup?.());

  it('signs in, answers me with the session identity, and signs out', async () => {
    const anonymous = await callerFor(app);
    const session = await anonymous.auth.signIn({ email: ' ADA@example.com', password: TEST_PASSWORD });
    expect(session.token).toMatch(/^qs_[A-Za-z0-9_-]{43}$/);
    const days = (Date.parse(session.expiresAt) - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(29.9);
    expect(days).toBeLessThanOrEqual(30);
    expect(session).toMatchObject({ user: { email: 'ada@example.com', name: 'ada' }, org: { id: acmeId, name: 'Acme' }, role: 'admin' });
    expect(session.user).not.toHaveProperty('passwordHash');

    const signedIn = await callerFor(app, session.token);
    expect(await signedIn.auth.me()).toEqual({ user: session.user, org: session.org, role: 'admin' });
    expect(await signedIn.auth.signOut()).toEqual({ signedOut: true });
    expect((await trpcErrorOf((await callerFor(app, session.token)).auth.me())).code).toBe('UNAUTHORIZED');
  });

  it('signs into the organization asked for', async () => {
    const session = await (await callerFor(app)).auth.signIn({ email: 'ada@example.com', password: TEST_PASSWORD, orgId: betaId });
    expect(session.org).toEqual({ id: betaId, name: 'Beta' });
    expect(session.role).toBe('viewer');
    const notMine = await trpcErrorOf((await callerFor(app)).auth.signIn({ email: 'ada@example.com', password: TEST_PASSWORD, orgId: 'org_doesnotexist0000' }));
    expect(notMine.code).toBe('NOT_FOUND');
  });

  it('answers a wrong password and an unknown e-mail alike, and refuses an account without a password', async () => {
    const anonymous = await callerFor(app, undefined, '198.51.100.1');
    const wrongPassword = await trpcErrorOf(anonymous.auth.signIn({ email: 'ada@example.com', password: 'wrong password' }));
    const unknownEmail = await trpcErrorOf(anonymous.auth.signIn({ email: 'nobody@example.com', password: TEST_PASSWORD }));
    const noPassword = await trpcErrorOf(anonymous.auth.signIn({ email: 'bootstrap@example.com', password: 'anything-at-all' }));
    for (const err of [wrongPassword, unknownEmail, noPassword]) {
      expect(err.code).toBe('UNAUTHORIZED');
      expect(err.message).toBe('Wrong e-mail or password.');
    }
    expect(await app.db.prisma.session.count({ where: { user: { email: 'bootstrap@example.com' } } })).toBe(0);
  });

  it('refuses me and signOut without a valid bearer token', async () => {
    expect((await trpcErrorOf((await callerFor(app)).auth.me())).code).toBe('UNAUTHORIZED');
    expect((await trpcErrorOf((await callerFor(app, 'qs_forged')).auth.signOut())).code).toBe('UNAUTHORIZED');
  });

  it('rejects malformed input with BAD_REQUEST before checking anything', async () => {
    const err = await trpcErrorOf((await callerFor(app)).auth.signIn({ email: 'not-an-email', password: 'x' }));
    expect(err.code).toBe('BAD_REQUEST');
  });

  it('answers TOO_MANY_REQUESTS after repeated failures for an e-mail, even with the right password', async () => {
    const throttle = app.signInThrottle;
    // ten failed attempts (ada's wrong password above was one: the last attempts are refused already)
    for (let i = 0; i < 10; i++) await throttle.attempt('ada@example.com', '192.0.2.50').catch((err: ApiError) => expect(err.code).toBe('rate_limited'));
    const err = await trpcErrorOf((await callerFor(app, undefined, '192.0.2.51')).auth.signIn({ email: 'ada@example.com', password: TEST_PASSWORD }));
    expect(err.code).toBe('TOO_MANY_REQUESTS');
    expect(err.message).toMatch(/Too many failed sign-ins/);
  });
});
