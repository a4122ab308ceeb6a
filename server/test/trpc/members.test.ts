import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppContext } from '../../src/context';
import { openTempDb, seedMember, seedOrg, TEST_PASSWORD } from '../services/identity-fixtures';
import { appContextFor, callerFor, trpcErrorOf } from './trpc-fixtures';

describe('members router', () => {
  let app: AppContext;
  let cleanup: () => Promise<void>;
  let ownerToken: string;
  let adminToken: string;
  let editorToken: string;
  let ownerId: string;
  let editorId: string;

  async function signIn(email: string, password = TEST_PASSWORD) {
    return (await callerFor(app)).auth.signIn({ email, password });
  }

  beforeAll(async () => {
    const tmp = await openTempDb();
    cleanup = tmp.cleanup;
    app = appContextFor(tmp.db, tmp.dir);
    const orgId = await seedOrg(tmp.db, 'Acme');
    ownerId = (await seedMember(tmp.db, orgId, 'owner@acme.test', 'owner')).id;
    await seedMember(tmp.db, orgId, 'admin@acme.test', 'admin');
    editorId = (await seedMember(tmp.db, orgId, 'editor@acme.test', 'editor')).id;
    ownerToken = (await signIn('owner@acme.test')).token;
    adminToken = (await signIn('admin@acme.test')).token;
    editorToken = (await signIn('editor@acme.test')).token;
  });
  afterAll(async () => cleanup?.());

  it('lists the organization\'s members to any member', async () => {
    const members = await (await callerFor(app, editorToken)).members.list();
    expect(members.map((m) => [m.user.email, m.role])).toEqual([
      ['owner@acme.test', 'owner'],
      ['admin@acme.test', 'admin'],
      ['editor@acme.test', 'editor'],
    ]);
    expect(Date.parse(members[0]!.joinedAt)).not.toBeNaN();
  });

  it('invites a new person who can then sign in with the one-time password', async () => {
    const invited = await (await callerFor(app, adminToken)).members.invite({ email: 'Writer@Acme.test', name: 'Wanda Writer', role: 'editor' });
    expect(invited.user).toMatchObject({ email: 'writer@acme.test', name: 'Wanda Writer' });
    expect(invited.oneTimePassword).toBeTruthy();
    const session = await signIn('writer@acme.test', invited.oneTimePassword!);
    expect(session.role).toBe('editor');
    expect(session.org.name).toBe('Acme');
  });

  it('forbids editors to invite, change roles or remove', async () => {
    const editor = await callerFor(app, editorToken);
    expect((await trpcErrorOf(editor.members.invite({ email: 'x@acme.test', role: 'viewer' }))).code).toBe('FORBIDDEN');
    expect((await trpcErrorOf(editor.members.setRole({ userId: ownerId, role: 'viewer' }))).code).toBe('FORBIDDEN');
    expect((await trpcErrorOf(editor.members.remove({ userId: ownerId }))).code).toBe('FORBIDDEN');
    expect((await (await callerFor(app, ownerToken)).members.list()).length).toBeGreaterThanOrEqual(3);
  });

  it('keeps owners out of an admin\'s reach and protects the last owner', async () => {
    const admin = await callerFor(app, adminToken);
    const promote = await trpcErrorOf(admin.members.setRole({ userId: editorId, role: 'owner' }));
    expect(promote.code).toBe('FORBIDDEN');
    expect((await trpcErrorOf(admin.members.remove({ userId: ownerId }))).code).toBe('FORBIDDEN');
    const lastOwner = await trpcErrorOf((await callerFor(app, ownerToken)).members.setRole({ userId: ownerId, role: 'admin' }));
    expect(lastOwner.code).toBe('CONFLICT');
    expect(lastOwner.message).toMatch(/last owner/);
    expect((await (await callerFor(app, ownerToken)).auth.me()).role).toBe('owner');
  });

  it('changes a role, which applies to the member\'s open session at once', async () => {
    const updated = await (await callerFor(app, adminToken)).members.setRole({ userId: editorId, role: 'reviewer' });
    expect(updated.role).toBe('reviewer');
    expect((await (await callerFor(app, editorToken)).auth.me()).role).toBe('reviewer');
  });

  it('removes a member, whose session stops working, and then answers NOT_FOUND for them', async () => {
    const owner = await callerFor(app, ownerToken);
    expect(await owner.members.remove({ userId: editorId })).toEqual({ userId: editorId, userDeleted: true });
    expect((await trpcErrorOf((await callerFor(app, editorToken)).auth.me())).code).toBe('UNAUTHORIZED');
    expect((await trpcErrorOf(owner.members.remove({ userId: editorId }))).code).toBe('NOT_FOUND');
    expect((await owner.members.list()).map((m) => m.user.id)).not.toContain(editorId);
  });

  it('validates input with the shared schemas', async () => {
    const owner = await callerFor(app, ownerToken);
    expect((await trpcErrorOf(owner.members.invite({ email: 'x@acme.test', role: 'superuser' as never }))).code).toBe('BAD_REQUEST');
    expect((await trpcErrorOf(owner.members.setRole({ userId: 'not-an-id', role: 'viewer' }))).code).toBe('BAD_REQUEST');
  });
});
