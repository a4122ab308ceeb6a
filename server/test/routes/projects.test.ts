import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createKey, createOrgWithKey, createTestApp, type TestApp } from '../helpers/app';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t?.close());

const post = (payload: unknown, key = t.adminKey) => t.app.inject({ method: 'POST', url: '/v1/projects', headers: bearer(key), payload: payload as object });
const patch = (id: string, payload: unknown, key = t.adminKey) => t.app.inject({ method: 'PATCH', url: `/v1/projects/${id}`, headers: bearer(key), payload: payload as object });

describe('POST /v1/projects', () => {
  it('creates a project with defaults, the site url and an auto slug', async () => {
    const res = await post({ name: 'Ünïcode Docs!', description: 'Hello', repoUrl: 'https://github.com/acme/docs' });
    expect(res.statusCode).toBe(201);
    const p = res.json().data;
    expect(p).toMatchObject({
      name: 'Ünïcode Docs!', slug: 'unicode-docs', description: 'Hello', repoUrl: 'https://github.com/acme/docs', repoBranch: 'main',
      settings: { aiEnabled: true, searchEnabled: true, analyticsEnabled: true, protectPreviews: true }, webhookSecretSet: false,
      url: 'http://unicode-docs-docs.localhost:4000/',
    });
    expect(p.id).toMatch(/^prj_/);
    expect(p).not.toHaveProperty('customDomain');
  });

  it('deduplicates auto slugs with -2, -3', async () => {
    const a = (await post({ name: 'Same Name' })).json().data.slug;
    const b = (await post({ name: 'Same Name' })).json().data.slug;
    const c = (await post({ name: 'Same Name' })).json().data.slug;
    expect([a, b, c]).toEqual(['same-name', 'same-name-2', 'same-name-3']);
  });

  it('answers 409 conflict when a given slug exists anywhere in the service', async () => {
    expect((await post({ name: 'X', slug: 'taken' })).statusCode).toBe(201);
    const foreign = await createOrgWithKey(t);
    const res = await post({ name: 'Y', slug: 'taken' }, foreign.key);
    expect(res.statusCode).toBe(409);
    expect(res.json().error).toMatchObject({ code: 'conflict', details: { field: 'slug' } });
  });

  it.each([
    [{ slug: 'Bad_Slug' }, 'slug'],
    [{ slug: 'double--hyphen' }, 'slug'],
    [{ slug: '-lead' }, 'slug'],
    [{ name: '' }, 'name'],
    [{ settings: { aiEnabled: 'yes' } }, 'settings.aiEnabled'],
    [{ settings: { unknown: true } }, 'settings.unknown'],
    [{ settings: { protectPreviews: 'false' } }, 'settings.protectPreviews'],
    [{ color: 'red' }, 'color'],
    [{ repoBranch: '-x' }, 'repoBranch'],
    [{ repoBranch: 'a..b' }, 'repoBranch'],
  ])('answers 400 invalid_request with details.field for %j', async (extra, field) => {
    const before = await t.ctx.db.prisma.project.count();
    const res = await post({ name: 'Valid', ...extra });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toMatchObject({ code: 'invalid_request', details: { field } });
    expect(typeof res.json().error.details.issue).toBe('string');
    expect(await t.ctx.db.prisma.project.count()).toBe(before);
  });

  it('answers 400 for a missing name', async () => {
    const res = await post({});
    expect(res.json().error.details.field).toBe('name');
  });

  it('refuses private, loopback and file repositories unless QUIRE_ALLOW_FILE_REPOS=1', async () => {
    const strict = await createTestApp({ env: { QUIRE_ALLOW_FILE_REPOS: '0' } });
    try {
      for (const repoUrl of ['file:///srv/repo', '/srv/repo', 'https://127.0.0.1/x.git', 'https://localhost/x', 'git@10.0.0.5:a/b.git', 'https://[::1]/x', 'http://github.com/a/b', 'ext::sh -c evil', 'https://169.254.169.254/latest']) {
        const res = await strict.app.inject({ method: 'POST', url: '/v1/projects', headers: bearer(strict.adminKey), payload: { name: 'R', repoUrl } });
        expect(res.statusCode, repoUrl).toBe(400);
        expect(res.json().error.details.field).toBe('repoUrl');
      }
      for (const repoUrl of ['https://github.com/a/b.git', 'ssh://git@github.com/a/b.git', 'git@github.com:a/b.git']) {
        const res = await strict.app.inject({ method: 'POST', url: '/v1/projects', headers: bearer(strict.adminKey), payload: { name: 'R', repoUrl } });
        expect(res.statusCode, repoUrl).toBe(201);
      }
    } finally {
      await strict.close();
    }
    expect((await post({ name: 'Local', repoUrl: '/srv/repo' })).statusCode).toBe(201);
  });

  it('refuses loopback hosts written as IPv4-mapped IPv6 or hex literals with 400 on repoUrl', async () => {
    const strict = await createTestApp({ env: { QUIRE_ALLOW_FILE_REPOS: '0' } });
    try {
      for (const repoUrl of ['https://[::ffff:127.0.0.1]/a', 'https://0x7f.1/a']) {
        const res = await strict.app.inject({ method: 'POST', url: '/v1/projects', headers: bearer(strict.adminKey), payload: { name: 'R', repoUrl } });
        expect(res.statusCode, repoUrl).toBe(400);
        expect(res.json().error, repoUrl).toMatchObject({ code: 'invalid_request', details: { field: 'repoUrl' } });
      }
      expect(await strict.ctx.db.prisma.project.count()).toBe(0);
    } finally {
      await strict.close();
    }
  });

  it('takes repoBranch by the same rule as the builder: git refuses a ".lock" part, "+" is fine', async () => {
    const res = await post({ name: 'Lock', repoBranch: 'x.lock/y' });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toMatchObject({ code: 'invalid_request', details: { field: 'repoBranch', issue: expect.stringContaining('.lock') } });
    const ok = await post({ name: 'Plus', repoBranch: 'deps/a+b' });
    expect(ok.statusCode).toBe(201);
    expect(ok.json().data.repoBranch).toBe('deps/a+b');
  });

  it('answers 402 quota_exceeded past the plan project limit (free: 5)', async () => {
    const free = await createOrgWithKey(t, { plan: 'free' });
    for (let i = 0; i < 5; i++) expect((await post({ name: `Free ${i}` }, free.key)).statusCode).toBe(201);
    const res = await post({ name: 'Free 6' }, free.key);
    expect(res.statusCode).toBe(402);
    expect(res.json().error.code).toBe('quota_exceeded');
  });
});

describe('GET /v1/projects', () => {
  it('paginates newest first with {page, pageSize, total, totalPages}', async () => {
    const org = await createOrgWithKey(t);
    for (const name of ['One', 'Two', 'Three']) await post({ name: `${name} ${org.orgId}` }, org.key);
    const res = await t.app.inject({ url: '/v1/projects?pageSize=2', headers: bearer(org.key) });
    expect(res.json().pagination).toEqual({ page: 1, pageSize: 2, total: 3, totalPages: 2 });
    expect(res.json().data.map((p: { name: string }) => p.name.split(' ')[0])).toEqual(['Three', 'Two']);
    const page2 = await t.app.inject({ url: '/v1/projects?page=2&per_page=2', headers: bearer(org.key) });
    expect(page2.json().data.map((p: { name: string }) => p.name.split(' ')[0])).toEqual(['One']);
  });

  it('clamps page sizes above 100 and refuses 0, negatives and non-numbers', async () => {
    const big = await t.app.inject({ url: '/v1/projects?pageSize=500', headers: bearer(t.adminKey) });
    expect(big.json().pagination.pageSize).toBe(100);
    for (const [q, field] of [['page=0', 'page'], ['page=-1', 'page'], ['pageSize=abc', 'pageSize'], ['per_page=0', 'per_page'], ['page=1.5', 'page']]) {
      const res = await t.app.inject({ url: `/v1/projects?${q}`, headers: bearer(t.adminKey) });
      expect(res.statusCode, q).toBe(400);
      expect(res.json().error.details.field).toBe(field);
    }
  });
});

describe('GET, PATCH, DELETE /v1/projects/{id}', () => {
  it('gets a project; unknown ids and other organizations give 404', async () => {
    const p = (await post({ name: 'Gettable' })).json().data;
    const res = await t.app.inject({ url: `/v1/projects/${p.id}`, headers: bearer(t.adminKey) });
    expect(res.json().data).toEqual(p);
    expect((await t.app.inject({ url: '/v1/projects/prj_nope', headers: bearer(t.adminKey) })).statusCode).toBe(404);
    const foreign = await createOrgWithKey(t);
    for (const req of [
      { method: 'GET' as const, url: `/v1/projects/${p.id}` },
      { method: 'PATCH' as const, url: `/v1/projects/${p.id}`, payload: { name: 'Stolen' } },
      { method: 'DELETE' as const, url: `/v1/projects/${p.id}` },
    ]) {
      const res2 = await t.app.inject({ ...req, headers: bearer(foreign.key) });
      expect(res2.statusCode).toBe(404);
    }
    expect((await t.app.inject({ url: `/v1/projects/${p.id}`, headers: bearer(t.adminKey) })).json().data.name).toBe('Gettable');
  });

  it('changes only given fields, merges settings, keeps webhookSecret write-only and audits changed field names', async () => {
    const p = (await post({ name: 'Patchable', description: 'old', settings: { aiEnabled: false } })).json().data;
    const res = await patch(p.id, { name: 'Patched', settings: { searchEnabled: false }, webhookSecret: 'supersecret123', repoBranch: 'release/1.0' });
    expect(res.statusCode).toBe(200);
    const d = res.json().data;
    expect(d).toMatchObject({ name: 'Patched', description: 'old', repoBranch: 'release/1.0', webhookSecretSet: true, settings: { aiEnabled: false, searchEnabled: false, analyticsEnabled: true } });
    expect(JSON.stringify(d)).not.toContain('supersecret123');
    const get = (await t.app.inject({ url: `/v1/projects/${p.id}`, headers: bearer(t.adminKey) })).json().data;
    expect(get).toEqual(d);
    const entry = await t.ctx.db.prisma.auditEntry.findFirstOrThrow({ where: { projectId: p.id, action: 'settings.updated' } });
    const meta = JSON.parse(entry.metadata);
    expect(meta.changes.sort()).toEqual(['name', 'repoBranch', 'settings.searchEnabled', 'webhookSecret']);
    expect(entry.metadata).not.toContain('supersecret123');
    const cleared = (await patch(p.id, { description: null, webhookSecret: null })).json().data;
    expect(cleared).toMatchObject({ description: null, webhookSecretSet: false });
  });

  it('turns preview protection off and on: PATCH takes settings.protectPreviews, GET shows it, a project stored without it protects', async () => {
    const p = (await post({ name: 'Previewed' })).json().data;
    expect(p.settings.protectPreviews).toBe(true);
    const off = await patch(p.id, { settings: { protectPreviews: false } });
    expect(off.statusCode).toBe(200);
    expect(off.json().data.settings).toEqual({
      aiEnabled: true,
      searchEnabled: true,
      analyticsEnabled: true,
      protectPreviews: false,
      requireResolvedThreads: false,
      sourceRepos: [],
    });
    const get = async () => (await t.app.inject({ url: `/v1/projects/${p.id}`, headers: bearer(t.adminKey) })).json().data.settings;
    expect((await get()).protectPreviews).toBe(false);
    const entry = await t.ctx.db.prisma.auditEntry.findFirstOrThrow({ where: { projectId: p.id, action: 'settings.updated' } });
    expect(JSON.parse(entry.metadata).changes).toEqual(['settings.protectPreviews']);
    expect((await patch(p.id, { settings: { protectPreviews: true } })).json().data.settings.protectPreviews).toBe(true);
    // settings stored before the switch existed read as protected
    await t.ctx.db.prisma.project.update({
      where: { id: p.id },
      data: { settings: JSON.stringify({ aiEnabled: true, searchEnabled: true, analyticsEnabled: true }) },
    });
    t.ctx.events.emit('project.changed', { projectId: p.id });
    expect((await get()).protectPreviews).toBe(true);
  });

  it('refuses bad PATCH input with 400 and changes nothing; slug conflicts give 409', async () => {
    const p = (await post({ name: 'Strict Patch' })).json().data;
    const other = (await post({ name: 'Other Patch' })).json().data;
    const bad = [
      [{ slug: 'Not OK' }, 'slug'],
      [{ settings: { aiEnabled: 1 } }, 'settings.aiEnabled'],
      [{ settings: { protectPreviews: 'no' } }, 'settings.protectPreviews'],
      [{ settings: { protectPreviews: null } }, 'settings.protectPreviews'],
      [{ url: 'x' }, 'url'],
      [{ repoUrl: 'ftp://x/y' }, 'repoUrl'],
    ] as const;
    for (const [body, field] of bad) {
      const res = await patch(p.id, body);
      expect(res.statusCode).toBe(400);
      expect(res.json().error.details.field).toBe(field);
    }
    const conflict = await patch(p.id, { slug: other.slug });
    expect(conflict.statusCode).toBe(409);
    const after = (await t.app.inject({ url: `/v1/projects/${p.id}`, headers: bearer(t.adminKey) })).json().data;
    expect(after).toEqual(p);
  });

  it('needs projects:write to PATCH (403) and admin to DELETE', async () => {
    const p = (await post({ name: 'Guarded' })).json().data;
    const reader = await createKey(t, ['projects:read']);
    expect((await patch(p.id, { name: 'x' }, reader.key)).statusCode).toBe(403);
    const writer = await createKey(t, ['projects:write']);
    expect((await patch(p.id, { name: 'Writer' }, writer.key)).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'DELETE', url: `/v1/projects/${p.id}`, headers: bearer(writer.key) })).statusCode).toBe(403);
  });

  it('deletes with 204; the project is then gone (404) and project.deleted is audited', async () => {
    const p = (await post({ name: 'Doomed' })).json().data;
    const res = await t.app.inject({ method: 'DELETE', url: `/v1/projects/${p.id}`, headers: bearer(t.adminKey) });
    expect(res.statusCode).toBe(204);
    expect(res.body).toBe('');
    expect((await t.app.inject({ url: `/v1/projects/${p.id}`, headers: bearer(t.adminKey) })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'DELETE', url: `/v1/projects/${p.id}`, headers: bearer(t.adminKey) })).statusCode).toBe(404);
    const entry = await t.ctx.db.prisma.auditEntry.findFirst({ where: { projectId: p.id, action: 'project.deleted' } });
    expect(entry?.resourceType).toBe('settings');
    // The slug is free again.
    expect((await post({ name: 'Doomed' })).json().data.slug).toBe('doomed');
  });
});
