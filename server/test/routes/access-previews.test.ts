/**
 * Preview links through HTTP (interface-spec.md "Collaboration", Preview links; decisions.md
 * section 9): links to a real preview deployment, optionally with a password and an expiry, shown
 * once, listed without their token, updated and revoked; and the link states the site reads
 * (access/preview-links.ts `findPreviewLink`, `checkPreviewLinkPassword`).
 */
import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkPreviewLinkPassword, findPreviewLink } from '../../src/access/policy';
import { ONE_TIME_SECRET_NOTICE } from '../../src/services/idempotency';
import { bearer, createKey, createOrgWithKey, createTestApp, type TestApp } from '../helpers/app';
import { createProject, docsRepo, trigger, waitForStatus } from './builds/build-fixture';
import type { FixtureRepo } from '../helpers/git-repo';

let t: TestApp;
let repo: FixtureRepo;
let project: { id: string; slug: string };

const api = (method: 'GET' | 'POST' | 'PATCH', url: string, payload?: object, key = t.adminKey, headers: Record<string, string> = {}) =>
  t.app.inject({ method, url: `/v1/projects/${project.id}${url}`, headers: { ...bearer(key), ...headers }, ...(payload ? { payload } : {}) });

/** The client address of the password checks below. */
const IP = '192.0.2.10';
/** The token at the end of a link URL. */
const tokenOf = (url: string) => url.slice(url.lastIndexOf('/') + 1);

beforeAll(async () => {
  t = await createTestApp({ runJobs: true });
  repo = docsRepo();
  execFileSync('git', ['branch', 'feature-x'], { cwd: repo.path });
  project = await createProject(t, repo, 'previewed');
  const build = (await trigger(t, project.id, { branch: 'feature-x' })).json().data;
  expect(build.isPreview).toBe(true);
  expect((await waitForStatus(t, project.id, build.id, ['deployed', 'failed'])).status).toBe('deployed');
}, 60_000);

afterAll(async () => {
  await t?.close();
  repo?.cleanup();
});

describe('creating preview links', () => {
  it('creates a link to a preview deployment, shows its token once and the site finds it by the token', async () => {
    const res = await api('POST', '/previews', { previewName: 'feature-x', label: 'For the design review' });
    expect(res.statusCode).toBe(201);
    const link = res.json().data;
    expect(link).toEqual({
      id: expect.stringMatching(/^pvl_/),
      url: expect.stringMatching(/^http:\/\/feature-x--previewed-docs\.localhost:\d+\/_quire\/link\/[A-Za-z0-9_-]{43}$/),
      previewName: 'feature-x',
      previewUrl: expect.stringMatching(/^http:\/\/feature-x--previewed-docs\.localhost:\d+\/$/),
      label: 'For the design review',
      hasPassword: false,
      expiresAt: null,
      revoked: false,
      state: 'active',
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    const token = tokenOf(link.url);
    expect(await findPreviewLink(t.ctx, token)).toEqual({ id: link.id, projectId: project.id, previewName: 'feature-x', hasPassword: false, state: 'active' });
    expect(await findPreviewLink(t.ctx, `${token.slice(0, -1)}${token.endsWith('A') ? 'B' : 'A'}`)).toBeNull();
    expect(await findPreviewLink(t.ctx, 'short')).toBeNull();

    // Only the token's hash is stored, and no list shows the token.
    const row = await t.ctx.db.prisma.previewLink.findUniqueOrThrow({ where: { id: link.id } });
    expect(JSON.stringify(row)).not.toContain(token);
    const listed = await api('GET', '/previews');
    expect(listed.body).not.toContain(token);
    expect(listed.json().data[0]).not.toHaveProperty('url');
  });

  it('answers 404 naming previewName for a preview the project does not have', async () => {
    const res = await api('POST', '/previews', { previewName: 'nope' });
    expect(res.statusCode).toBe(404);
    expect(res.json().error).toMatchObject({ code: 'not_found', details: { field: 'previewName' } });
    // Production is not a preview.
    expect((await api('POST', '/previews', { previewName: '' })).statusCode).toBe(400);
  });

  it('stores a password hashed and an expiry from expiresIn, and checks passwords', async () => {
    const before = Date.now();
    const link = (await api('POST', '/previews', { previewName: 'feature-x', password: 'correct horse', expiresIn: '1d' })).json().data;
    expect(link.hasPassword).toBe(true);
    const expires = Date.parse(link.expiresAt);
    expect(expires).toBeGreaterThanOrEqual(before + 86_400_000);
    expect(expires).toBeLessThanOrEqual(Date.now() + 86_400_000);
    const row = await t.ctx.db.prisma.previewLink.findUniqueOrThrow({ where: { id: link.id } });
    expect(row.passwordHash).toMatch(/^scrypt\$/);
    expect(row.passwordHash).not.toContain('correct horse');
    expect(await findPreviewLink(t.ctx, tokenOf(link.url))).toMatchObject({ hasPassword: true, state: 'active' });
    expect((await checkPreviewLinkPassword(t.ctx, link.id, IP, 'correct horse')).result).toBe('right');
    expect((await checkPreviewLinkPassword(t.ctx, link.id, IP, 'correct horsE')).result).toBe('wrong');
    expect((await checkPreviewLinkPassword(t.ctx, 'pvl_unknown', IP, 'correct horse')).result).toBe('wrong');
  });

  it('replays an Idempotency-Key without the token', async () => {
    const headers = { 'idempotency-key': 'preview-link-once' };
    const first = await api('POST', '/previews', { previewName: 'feature-x' }, t.adminKey, headers);
    const replay = await api('POST', '/previews', { previewName: 'feature-x' }, t.adminKey, headers);
    expect(replay.statusCode).toBe(201);
    expect(replay.headers['idempotency-replayed']).toBe('true');
    expect(replay.json().data.id).toBe(first.json().data.id);
    expect(replay.json().data.url).toBe(ONE_TIME_SECRET_NOTICE);
    expect(replay.body).not.toContain(tokenOf(first.json().data.url));
  });

  it.each([
    ['a short password', { previewName: 'feature-x', password: 'short' }, 'password'],
    ['a long password', { previewName: 'feature-x', password: 'x'.repeat(201) }, 'password'],
    ['an unknown lifetime', { previewName: 'feature-x', expiresIn: '2d' }, 'expiresIn'],
    ['both expiries', { previewName: 'feature-x', expiresIn: '1h', expiresAt: '2999-01-01T00:00:00Z' }, 'expiresIn'],
    ['a past expiry', { previewName: 'feature-x', expiresAt: '2020-01-01T00:00:00Z' }, 'expiresAt'],
    ['an expiry without offset', { previewName: 'feature-x', expiresAt: '2999-01-01T00:00:00' }, 'expiresAt'],
    ['an unknown member', { previewName: 'feature-x', public: true }, ''],
  ])('refuses %s with 400, creating nothing', async (_name, body, field) => {
    const count = await t.ctx.db.prisma.previewLink.count();
    const res = await api('POST', '/previews', body);
    expect(res.statusCode).toBe(400);
    if (field) expect(res.json().error.details.field).toBe(field);
    expect(await t.ctx.db.prisma.previewLink.count()).toBe(count);
  });
});

describe('changing preview links', () => {
  it('changes label, expiry and password, then revokes for good; the site sees each state', async () => {
    const link = (await api('POST', '/previews', { previewName: 'feature-x', label: 'Client', password: 'first password' })).json().data;
    const token = tokenOf(link.url);

    const relabelled = await api('PATCH', `/previews/${link.id}`, { label: 'Client (legal)', expiresIn: '7d' });
    expect(relabelled.statusCode).toBe(200);
    expect(relabelled.json().data).toMatchObject({ id: link.id, label: 'Client (legal)', hasPassword: true, state: 'active', revoked: false });
    expect(Date.parse(relabelled.json().data.expiresAt)).toBeGreaterThan(Date.now() + 6 * 86_400_000);

    const cleared = (await api('PATCH', `/previews/${link.id}`, { label: null, expiresAt: null, password: null })).json().data;
    expect(cleared).toMatchObject({ label: null, expiresAt: null, hasPassword: false });
    expect((await checkPreviewLinkPassword(t.ctx, link.id, IP, 'first password')).result).toBe('wrong');
    expect(await findPreviewLink(t.ctx, token)).toMatchObject({ hasPassword: false, state: 'active' });

    const revoked = await api('PATCH', `/previews/${link.id}`, { revoked: true });
    expect(revoked.statusCode).toBe(200);
    expect(revoked.json().data).toMatchObject({ revoked: true, state: 'revoked' });
    expect(await findPreviewLink(t.ctx, token)).toMatchObject({ id: link.id, state: 'revoked' });
    const again = await api('PATCH', `/previews/${link.id}`, { label: 'Back' });
    expect(again.statusCode).toBe(409);
    expect(again.json().error.code).toBe('conflict');
    expect((await api('PATCH', `/previews/${link.id}`, { revoked: false })).statusCode).toBe(400);

    const audit = (await t.app.inject({ url: `/v1/projects/${project.id}/audit-log?limit=100`, headers: bearer(t.adminKey) })).json();
    const mine = (audit.data as { action: string; resource: { id: string }; metadata: Record<string, unknown> }[]).filter((e) => e.resource.id === link.id);
    expect(mine.map((e) => e.action)).toEqual(['preview_link.revoked', 'preview_link.updated', 'preview_link.updated', 'preview_link.created']);
    expect(mine[2]!.metadata.changes).toEqual(['label', 'expiresAt']);
    expect(JSON.stringify(audit)).not.toContain('first password');
    expect(JSON.stringify(audit)).not.toContain(token);
  });

  it('stops opening a link once it expires, also with the right password', async () => {
    const link = (await api('POST', '/previews', { previewName: 'feature-x', password: 'expiring pass', expiresIn: '1h' })).json().data;
    await t.ctx.db.prisma.previewLink.update({ where: { id: link.id }, data: { expiresAt: new Date(Date.now() - 1000) } });
    expect(await findPreviewLink(t.ctx, tokenOf(link.url))).toMatchObject({ state: 'expired' });
    expect((await checkPreviewLinkPassword(t.ctx, link.id, IP, 'expiring pass')).result).toBe('wrong');
    const expired = (await api('GET', '/previews?state=expired')).json();
    expect(expired.data.map((l: { id: string }) => l.id)).toEqual([link.id]);
    expect(expired.data[0]).toMatchObject({ state: 'expired', revoked: false });
    // An expired link can be given a new expiry.
    const renewed = (await api('PATCH', `/previews/${link.id}`, { expiresIn: '30d' })).json().data;
    expect(renewed.state).toBe('active');
    expect(await findPreviewLink(t.ctx, tokenOf(link.url))).toMatchObject({ state: 'active' });
  });

  it('lists newest first with state and channel filters, paginated', async () => {
    const all = (await api('GET', '/previews?pageSize=100')).json();
    const times = (all.data as { createdAt: string }[]).map((l) => Date.parse(l.createdAt));
    expect([...times].sort((a, b) => b - a)).toEqual(times);
    expect(all.pagination.total).toBe(all.data.length);
    const revoked = (await api('GET', '/previews?state=revoked')).json().data as { state: string }[];
    expect(revoked.length).toBeGreaterThan(0);
    expect(revoked.every((l) => l.state === 'revoked')).toBe(true);
    const active = (await api('GET', '/previews?state=active')).json().data as { state: string }[];
    expect(active.every((l) => l.state === 'active')).toBe(true);
    expect(active.length + revoked.length + (await api('GET', '/previews?state=expired')).json().data.length).toBe(all.data.length);
    expect((await api('GET', '/previews?previewName=other')).json().data).toEqual([]);
    const paged = (await api('GET', '/previews?pageSize=1&page=2')).json();
    expect(paged.data).toHaveLength(1);
    expect(paged.data[0].id).toBe(all.data[1].id);
    expect((await api('GET', '/previews?state=lost')).json().error.details.field).toBe('state');
  });

  it('answers 404 for an unknown link, a link of another project, and another organization', async () => {
    expect((await api('PATCH', '/previews/pvl_nothing', { label: 'x' })).statusCode).toBe(404);
    const link = (await api('GET', '/previews')).json().data[0];
    const other = (await t.app.inject({ method: 'POST', url: '/v1/projects', headers: bearer(t.adminKey), payload: { name: 'Other' } })).json().data.id;
    expect((await t.app.inject({ method: 'PATCH', url: `/v1/projects/${other}/previews/${link.id}`, headers: bearer(t.adminKey), payload: { label: 'x' } })).statusCode).toBe(404);
    const stranger = await createOrgWithKey(t);
    expect((await api('GET', '/previews', undefined, stranger.key)).statusCode).toBe(404);
    expect((await api('POST', '/previews', { previewName: 'feature-x' }, stranger.key)).statusCode).toBe(404);
  });

  it('lets projects:read list and needs projects:write to create or change', async () => {
    const reader = await createKey(t, ['projects:read']);
    expect((await api('GET', '/previews', undefined, reader.key)).statusCode).toBe(200);
    expect((await api('POST', '/previews', { previewName: 'feature-x' }, reader.key)).statusCode).toBe(403);
    const link = (await api('GET', '/previews')).json().data[0];
    expect((await api('PATCH', `/previews/${link.id}`, { label: 'x' }, reader.key)).statusCode).toBe(403);
    const builder = await createKey(t, ['builds:read']);
    expect((await api('GET', '/previews', undefined, builder.key)).statusCode).toBe(403);
    const writer = await createKey(t, ['projects:read', 'projects:write']);
    expect((await api('POST', '/previews', { previewName: 'feature-x' }, writer.key)).statusCode).toBe(201);
  });
});
