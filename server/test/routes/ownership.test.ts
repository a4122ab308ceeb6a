/**
 * Page ownership (decisions.md section 9): path globs assigned to members, each published page's
 * owner (the last matching rule wins, as in CODEOWNERS), and owned pages not updated for N days,
 * dated by frontmatter `lastUpdated` or by the git history of the page's file. The repository's
 * commits carry old dates (GIT_AUTHOR_DATE / GIT_COMMITTER_DATE) and are built and deployed.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '@quire/shared/ids';
import { bearer, createKey, createOrgWithKey, createTestApp, type TestApp } from '../helpers/app';
import { createFixtureRepo, type FixtureRepo } from '../helpers/git-repo';
import { createProject, trigger, waitForStatus } from './builds/build-fixture';

const DAY = 86_400_000;
const now = Date.now();
const OLD = new Date('2020-03-01T12:00:00Z');
const RECENT = new Date(now - 10 * DAY);

let t: TestApp;
let repo: FixtureRepo;
let project: { id: string; slug: string };
let alice: { id: string; name: string; email: string };
let bob: { id: string; name: string; email: string };

/** Writes `changes` into the repository and commits them with author and committer date `at`. */
function commitAt(changes: Record<string, string>, at: Date, message: string): void {
  for (const [rel, text] of Object.entries(changes)) {
    fs.mkdirSync(path.dirname(path.join(repo.path, rel)), { recursive: true });
    fs.writeFileSync(path.join(repo.path, rel), text);
  }
  const env = { ...process.env, GIT_AUTHOR_NAME: 'Docs', GIT_AUTHOR_EMAIL: 'docs@example.com', GIT_COMMITTER_NAME: 'Docs', GIT_COMMITTER_EMAIL: 'docs@example.com', GIT_AUTHOR_DATE: at.toISOString(), GIT_COMMITTER_DATE: at.toISOString() };
  execFileSync('git', ['add', '--all'], { cwd: repo.path, env });
  execFileSync('git', ['commit', '--quiet', '-m', message], { cwd: repo.path, env });
}

const page = (title: string, extra = '') => `---\ntitle: ${title}\n${extra}---\n\n${title} text.\n`;

async function member(email: string, name: string) {
  const user = await t.ctx.db.prisma.user.create({ data: { id: newId('user'), email, name, passwordHash: '' } });
  await t.ctx.db.prisma.membership.create({ data: { orgId: t.app.bootstrap.orgId!, userId: user.id, role: 'editor' } });
  return { id: user.id, name, email };
}

const api = (method: 'GET' | 'POST' | 'DELETE', url: string, payload?: object, key = t.adminKey) =>
  t.app.inject({ method, url: `/v1/projects/${project.id}${url}`, headers: bearer(key), ...(payload ? { payload } : {}) });

beforeAll(async () => {
  t = await createTestApp({ runJobs: true });
  repo = createFixtureRepo(undefined, { message: 'empty start' });
  commitAt(
    {
      'docs/docs.json': JSON.stringify({ name: 'Acme', navigation: { groups: [{ group: 'All', pages: ['index', 'guides/setup', 'guides/advanced', 'guides/legacy', 'security/keys'] }] } }),
      'docs/index.mdx': page('Home'),
      'docs/guides/setup.mdx': page('Setup'),
      'docs/guides/advanced.mdx': page('Advanced', `lastUpdated: ${new Date(now - 5 * DAY).toISOString().slice(0, 10)}\n`),
      'docs/guides/legacy.mdx': page('Legacy'),
      'docs/security/keys.mdx': page('Keys'),
      'README.md': '# Acme\n',
    },
    OLD,
    'old docs',
  );
  // Recently committed, but its frontmatter says when its content was last reviewed.
  commitAt({ 'docs/guides/setup.mdx': page('Setup', 'sidebarTitle: Set up\n'), 'docs/security/keys.mdx': page('Keys', 'lastUpdated: 2021-06-01\n') }, RECENT, 'recent edits');
  project = await createProject(t, repo, 'owned');
  const id = (await trigger(t, project.id)).json().data.id as string;
  const done = await waitForStatus(t, project.id, id, ['deployed', 'failed']);
  expect(done.status, JSON.stringify(done)).toBe('deployed');
  alice = await member('alice@example.com', 'Alice');
  bob = await member('bob@example.com', 'Bob');
}, 60_000);

afterAll(async () => {
  await t?.close();
  repo?.cleanup();
});

describe('ownership rules', () => {
  it('lists no rules and unowned pages at first', async () => {
    const res = await api('GET', '/ownership');
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toEqual({
      rules: [],
      pages: ['guides/advanced', 'guides/legacy', 'guides/setup', 'index', 'security/keys'].map((p) => ({ path: p, owner: null, rule: null })),
    });
  });

  it('resolves each page to the last matching rule, by file path or page path, and audits changes', async () => {
    const broad = await api('POST', '/ownership', { pattern: 'docs/**', userId: alice.id });
    expect(broad.statusCode).toBe(201);
    expect(broad.json().data).toMatchObject({ id: expect.stringMatching(/^own_/), pattern: 'docs/**', user: alice, createdAt: expect.any(String) });
    const guides = (await api('POST', '/ownership', { pattern: 'guides/*', userId: bob.id })).json().data;
    const keys = (await api('POST', '/ownership', { pattern: '**/keys.mdx', userId: bob.id })).json().data;

    const body = (await api('GET', '/ownership')).json().data;
    expect(body.rules.map((r: { pattern: string }) => r.pattern)).toEqual(['docs/**', 'guides/*', '**/keys.mdx']);
    expect(body.pages).toEqual([
      { path: 'guides/advanced', owner: bob, rule: guides.id },
      { path: 'guides/legacy', owner: bob, rule: guides.id },
      { path: 'guides/setup', owner: bob, rule: guides.id },
      { path: 'index', owner: alice, rule: broad.json().data.id },
      { path: 'security/keys', owner: bob, rule: keys.id },
    ]);

    // Deleting the later rule hands its pages back to the earlier, broader one.
    expect((await api('DELETE', `/ownership/${guides.id}`)).statusCode).toBe(204);
    const after = (await api('GET', '/ownership')).json().data.pages as { path: string; owner: { id: string } }[];
    expect(after.find((p) => p.path === 'guides/setup')?.owner.id).toBe(alice.id);
    expect((await api('DELETE', `/ownership/${guides.id}`)).statusCode).toBe(404);

    const audit = (await t.app.inject({ url: `/v1/projects/${project.id}/audit-log`, headers: bearer(t.adminKey) })).json().data as { action: string }[];
    expect(audit.filter((e) => e.action === 'ownership.created')).toHaveLength(3);
    expect(audit.filter((e) => e.action === 'ownership.deleted')).toHaveLength(1);
  });

  it('refuses a bad glob or a user outside the organization with a 400 naming the field, changing nothing', async () => {
    const before = (await api('GET', '/ownership')).json().data.rules.length;
    const badGlob = await api('POST', '/ownership', { pattern: '../secrets/**', userId: alice.id });
    expect(badGlob.statusCode).toBe(400);
    expect(badGlob.json().error.details.field).toBe('pattern');
    const negated = await api('POST', '/ownership', { pattern: '!docs/**', userId: alice.id });
    expect(negated.json().error.details.field).toBe('pattern');
    const other = await createOrgWithKey(t);
    const stranger = await api('POST', '/ownership', { pattern: 'docs/**', userId: other.userId });
    expect(stranger.statusCode).toBe(400);
    expect(stranger.json().error).toMatchObject({ code: 'invalid_request', details: { field: 'userId' } });
    const unknown = await api('POST', '/ownership', { pattern: 'docs/**', userId: 'usr_doesnotexist1234' });
    expect(unknown.json().error.details.field).toBe('userId');
    const nul = await api('POST', '/ownership', { pattern: 'docs/\u0000', userId: alice.id });
    expect(nul.statusCode).toBe(400);
    expect((await api('GET', '/ownership')).json().data.rules).toHaveLength(before);
  });

  it('answers 404 for another organization\'s project and needs projects:write to change rules', async () => {
    const other = await createOrgWithKey(t);
    for (const [method, url] of [['GET', '/ownership'], ['GET', '/ownership/stale'], ['POST', '/ownership'], ['DELETE', '/ownership/own_xxxxxxxxxxxxxxxxxxxx']] as const) {
      const res = await api(method, url, method === 'POST' ? { pattern: 'docs/**', userId: other.userId } : undefined, other.key);
      expect(res.statusCode, `${method} ${url}`).toBe(404);
    }
    const reader = await createKey(t, ['projects:read']);
    expect((await api('GET', '/ownership', undefined, reader.key)).statusCode).toBe(200);
    expect((await api('POST', '/ownership', { pattern: 'docs/**', userId: alice.id }, reader.key)).statusCode).toBe(403);
  });
});

describe('stale pages', () => {
  it('lists owned pages older than 90 days, oldest first, dated by frontmatter or git', async () => {
    const res = await api('GET', '/ownership/stale');
    expect(res.statusCode).toBe(200);
    const { data, pagination } = res.json();
    // index and legacy: only the 2020 commit (git); keys: frontmatter 2021-06-01 although committed recently;
    // setup: committed 10 days ago; advanced: frontmatter 5 days ago although its file is from 2020.
    expect(data).toEqual([
      { path: 'guides/legacy', owner: alice, lastUpdated: OLD.toISOString(), source: 'git', daysSince: Math.floor((now - OLD.getTime()) / DAY) },
      { path: 'index', owner: alice, lastUpdated: OLD.toISOString(), source: 'git', daysSince: expect.any(Number) },
      { path: 'security/keys', owner: bob, lastUpdated: '2021-06-01T00:00:00.000Z', source: 'frontmatter', daysSince: expect.any(Number) },
    ]);
    expect(pagination).toEqual({ page: 1, pageSize: 20, total: 3, totalPages: 1 });
  });

  it('takes another age limit and paginates', async () => {
    const week = (await api('GET', '/ownership/stale?days=7')).json();
    expect(week.data.map((p: { path: string }) => p.path)).toEqual(['guides/legacy', 'index', 'security/keys', 'guides/setup']);
    expect(week.data[3]).toMatchObject({ source: 'git', daysSince: 10 });
    const second = (await api('GET', '/ownership/stale?days=7&pageSize=2&page=2')).json();
    expect(second.data.map((p: { path: string }) => p.path)).toEqual(['security/keys', 'guides/setup']);
    expect(second.pagination).toEqual({ page: 2, pageSize: 2, total: 4, totalPages: 2 });
  });

  it('refuses a bad day count with a 400 naming the field', async () => {
    for (const days of ['0', '-3', 'soon']) {
      const res = await api('GET', `/ownership/stale?days=${days}`);
      expect(res.statusCode, days).toBe(400);
      expect(res.json().error.details.field).toBe('days');
    }
  });

  it('lists nothing for a project that never deployed', async () => {
    const fresh = await createProject(t, repo, 'never-built');
    const res = await t.app.inject({ url: `/v1/projects/${fresh.id}/ownership/stale`, headers: bearer(t.adminKey) });
    expect(res.json()).toEqual({ data: [], pagination: { page: 1, pageSize: 20, total: 0, totalPages: 0 } });
    expect((await t.app.inject({ url: `/v1/projects/${fresh.id}/ownership`, headers: bearer(t.adminKey) })).json().data.pages).toEqual([]);
  });
});
