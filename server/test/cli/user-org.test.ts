import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDb, type Db } from '../../src/db/client';
import { hashApiKey } from '../../src/services/api-keys';
import { signIn } from '../../src/services/sign-in';
import { quire } from './cli-fixtures';

describe('quire org create / user add / user password', () => {
  let dir: string;
  let db: Db;

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-cli-'));
  });
  afterAll(async () => {
    await db?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  async function database(): Promise<Db> {
    db ??= await openDb(`file:${path.join(dir, 'quire.db')}`);
    return db;
  }

  it('refuses user add before any organization exists, changing nothing', async () => {
    const run = await quire(dir, ['user', 'add', 'ada@example.com', '--role', 'editor'], 'tty');
    expect(run.status).toBe(1);
    expect(run.stderr).toMatch(/no organization yet/);
    expect(await (await database()).prisma.user.count()).toBe(0);
  });

  it('creates an organization with an owner and a working admin key', async () => {
    const run = await quire(dir, ['org', 'create', 'Acme Docs', '--plan', 'free', '--owner', 'Owner@Acme.test']);
    expect(run.status).toBe(0);
    expect(run.stdout).toMatch(/Created organization "Acme Docs" on the free plan/);
    expect(run.values.org_id).toMatch(/^org_/);
    expect(run.values.plan).toBe('free');
    expect(run.values.api_key).toMatch(/^quire_[0-9A-Za-z]{8}_[0-9A-Za-z]{32,}$/);
    expect(run.values.owner_email).toBe('owner@acme.test');

    const db = await database();
    const key = await db.prisma.apiKey.findUniqueOrThrow({ where: { hash: hashApiKey(run.values.api_key!) } });
    expect(key.orgId).toBe(run.values.org_id);
    expect(JSON.parse(key.permissions)).toEqual(['admin']);
    expect(key.createdById).toBe(run.values.owner_id);
    const session = await signIn(db, { email: 'owner@acme.test', password: run.values.owner_password! });
    expect(session.role).toBe('owner');
    expect(session.org.id).toBe(run.values.org_id);
  });

  it('creates an organization for an existing account without changing its password, and one without owner', async () => {
    const withExisting = await quire(dir, ['org', 'create', 'Beta', '--owner', 'owner@acme.test']);
    expect(withExisting.status).toBe(0);
    expect(withExisting.values.plan).toBe('pro');
    expect(withExisting.values.owner_password).toBeUndefined();
    const db = await database();
    expect(await db.prisma.membership.findFirst({ where: { orgId: withExisting.values.org_id, userId: withExisting.values.owner_id } })).toMatchObject({ role: 'owner' });

    const ownerless = await quire(dir, ['org', 'create', 'Gamma']);
    expect(ownerless.status).toBe(0);
    expect(ownerless.values.owner_id).toBeUndefined();
    expect(ownerless.values.api_key).toMatch(/^quire_/);
  });

  it('adds a user to the oldest organization with the password piped on stdin', async () => {
    const run = await quire(dir, ['user', 'add', 'writer@acme.test', '--role', 'editor', '--name', 'Wanda'], 'piped-password-123\nignored second line\n');
    expect(run.status).toBe(0);
    expect(run.values).toMatchObject({ email: 'writer@acme.test', role: 'editor' });
    expect(run.values.password).toBeUndefined();
    const db = await database();
    const acme = await db.prisma.organization.findFirstOrThrow({ where: { name: 'Acme Docs' } });
    expect(run.values.org_id).toBe(acme.id);
    const session = await signIn(db, { email: 'writer@acme.test', password: 'piped-password-123' });
    expect(session).toMatchObject({ role: 'editor', user: { name: 'Wanda' } });
  });

  it('prints a one-time password on a terminal, and adds to the organization given with --org', async () => {
    const db = await database();
    const gamma = await db.prisma.organization.findFirstOrThrow({ where: { name: 'Gamma' } });
    const run = await quire(dir, ['user', 'add', 'viewer@gamma.test', '--role', 'viewer', '--org', gamma.id], 'tty');
    expect(run.status).toBe(0);
    expect(run.stdout).toMatch(/shown only this once/);
    expect(run.values.org_id).toBe(gamma.id);
    const session = await signIn(db, { email: 'viewer@gamma.test', password: run.values.password! });
    expect(session.org.name).toBe('Gamma');
  });

  it('refuses adding an existing member again, and a too-short piped password', async () => {
    const again = await quire(dir, ['user', 'add', 'writer@acme.test', '--role', 'admin'], 'tty');
    expect(again.status).toBe(1);
    expect(again.stderr).toMatch(/already a member/);
    const short = await quire(dir, ['user', 'add', 'short@acme.test', '--role', 'viewer'], 'short\n');
    expect(short.status).toBe(1);
    expect(short.stderr).toMatch(/at least 8 characters/);
    const db = await database();
    expect(await db.prisma.user.count({ where: { email: 'short@acme.test' } })).toBe(0);
    expect((await db.prisma.membership.findFirstOrThrow({ where: { user: { email: 'writer@acme.test' } } })).role).toBe('editor');
  });

  it('sets a password for an account that had none (the bootstrap owner), ending old sessions', async () => {
    const db = await database();
    const acme = await db.prisma.organization.findFirstOrThrow({ where: { name: 'Acme Docs' } });
    await db.prisma.user.create({ data: { id: 'usr_bootstrapowner0001', email: 'admin@quire.local', name: 'Administrator', passwordHash: '' } });
    await db.prisma.membership.create({ data: { orgId: acme.id, userId: 'usr_bootstrapowner0001', role: 'owner' } });
    await expect(signIn(db, { email: 'admin@quire.local', password: 'first-password-1' })).rejects.toMatchObject({ code: 'unauthorized' });

    const set = await quire(dir, ['user', 'password', 'admin@quire.local'], 'first-password-1\n');
    expect(set.status).toBe(0);
    const first = await signIn(db, { email: 'admin@quire.local', password: 'first-password-1' });
    expect(first.role).toBe('owner');

    const reset = await quire(dir, ['user', 'password', 'admin@quire.local'], 'tty');
    expect(reset.status).toBe(0);
    expect(reset.values.password).toBeTruthy();
    expect(await db.prisma.session.count({ where: { userId: 'usr_bootstrapowner0001' } })).toBe(0);
    await expect(signIn(db, { email: 'admin@quire.local', password: 'first-password-1' })).rejects.toMatchObject({ code: 'unauthorized' });
  });

  it('fails user password for an unknown account', async () => {
    const run = await quire(dir, ['user', 'password', 'ghost@example.com'], 'tty');
    expect(run.status).toBe(1);
    expect(run.stderr).toMatch(/No account with e-mail ghost@example.com/);
  });
});
