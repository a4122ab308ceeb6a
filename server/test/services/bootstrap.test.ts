import fs from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { bearer, createTestApp, type TestApp } from '../helpers/app';
import { buildApp } from '../../src/app';

const apps: TestApp[] = [];
afterEach(async () => {
  while (apps.length) await apps.pop()!.close();
});

describe('bootstrap', () => {
  it('creates the default organization, owner and an admin key written to <data dir>/admin-key with mode 0600', async () => {
    const t = await createTestApp({ env: { QUIRE_DEFAULT_PLAN: 'free', QUIRE_ADMIN_EMAIL: 'Boss@Example.com' } });
    apps.push(t);
    const file = `${t.dataDir}/admin-key`;
    expect(fs.readFileSync(file, 'utf8').trim()).toBe(t.adminKey);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(t.adminKey).toMatch(/^quire_[0-9A-Za-z]{8}_[0-9A-Za-z]{32,}$/);
    const org = await t.ctx.db.prisma.organization.findFirstOrThrow();
    expect(org.plan).toBe('free');
    const member = await t.ctx.db.prisma.membership.findFirstOrThrow({ include: { user: true } });
    expect(member).toMatchObject({ role: 'owner', user: { email: 'boss@example.com' } });
    const res = await t.app.inject({ url: '/v1/api-keys', headers: bearer(t.adminKey) });
    expect(res.json().data[0]).toMatchObject({ permissions: ['admin'], scope: 'full' });
  });

  it('registers QUIRE_ADMIN_KEY instead of generating one, and writes no file', async () => {
    const given = 'quire_Abcdefgh_0123456789abcdefghijABCDEFGHIJxyz';
    const t = await createTestApp({ env: { QUIRE_ADMIN_KEY: given } });
    apps.push(t);
    expect(t.adminKey).toBe(given);
    expect(t.app.bootstrap.fromEnv).toBe(true);
    expect(fs.existsSync(`${t.dataDir}/admin-key`)).toBe(false);
    const keys = (await t.app.inject({ url: '/v1/api-keys', headers: bearer(given) })).json().data;
    expect(keys[0].prefix).toBe('quire_Abcdefgh');
  });

  it('changes nothing on later starts', async () => {
    const t = await createTestApp();
    apps.push(t);
    const again = await buildApp(t.ctx.config, { runJobs: false, db: t.ctx.db });
    await again.ready();
    expect(again.bootstrap.created).toBe(false);
    expect(again.bootstrap.orgId).toBe(t.app.bootstrap.orgId);
    expect(await t.ctx.db.prisma.apiKey.count()).toBe(1);
    await again.close();
  });
});
