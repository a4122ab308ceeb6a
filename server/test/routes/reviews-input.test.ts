import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createOrgWithKey, createTestApp, type TestApp } from '../helpers/app';
import type { FixtureRepo } from '../helpers/git-repo';
import { createProject } from './builds/build-fixture';
import { gitIn, memberWithKey, reviewRepo, reviewsApi } from './reviews-fixture';

let t: TestApp;
let repo: FixtureRepo;
let project: { id: string; slug: string };
let api: ReturnType<typeof reviewsApi>;
let editor: { userId: string; key: string };
let viewer: { userId: string; key: string };
let reviewer: { userId: string; key: string };

const change = (path = 'guides/setup.mdx', content = 'changed\n') => ({ path, content });

beforeAll(async () => {
  t = await createTestApp();
  repo = reviewRepo();
  project = await createProject(t, repo, 'acme');
  api = reviewsApi(t, project.id);
  editor = await memberWithKey(t, 'eddie@acme.test', 'editor', ['projects:read', 'projects:write']);
  viewer = await memberWithKey(t, 'vera@acme.test', 'viewer', ['projects:read']);
  reviewer = await memberWithKey(t, 'rita@acme.test', 'reviewer', ['projects:read']);
});
afterAll(async () => {
  await t.close();
  repo.cleanup();
});

describe('review bodies that are refused', () => {
  it.each([
    ['../outside.md', /leave the repository/],
    ['/etc/passwd', /leading/],
    ['.git/config', /\.git/],
  ])('refuses the path %j with 400 naming changes.0.path', async (path, issue) => {
    const res = await api.create({ title: 'Bad', changes: [change(path)] });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toMatchObject({ code: 'invalid_request', details: { field: 'changes.0.path' } });
    expect(res.json().error.details.issue).toMatch(issue);
  });

  it('refuses too many files with 413 naming the limit, and changes nothing', async () => {
    const changes = Array.from({ length: 501 }, (_, i) => change(`pages/p${i}.md`, `# ${i}\n`));
    const res = await api.create({ title: 'Huge', changes });
    expect(res.statusCode).toBe(413);
    expect(res.json().error).toMatchObject({ code: 'payload_too_large', details: { limit: 'maxFiles', max: 500, actual: 501 } });
    expect(await t.ctx.db.prisma.review.count()).toBe(0);
  });

  it('takes change sets larger than the 1 MiB API body limit, up to 2 MiB a file', async () => {
    const big = 'a'.repeat(1_500_000);
    const res = await api.create({ title: 'Big page', changes: [change('big.md', big)] });
    expect(res.statusCode).toBe(201);
    const tooBig = await api.create({ title: 'Too big', changes: [change('big.md', 'a'.repeat(2 * 1024 * 1024 + 1))] });
    expect(tooBig.statusCode).toBe(413);
    expect(tooBig.json().error.details).toMatchObject({ limit: 'maxFileBytes', field: 'changes.0.content' });
  });

  it('refuses a path twice, deleting a missing file, a file where a folder is, and both branch and changes', async () => {
    const twice = await api.create({ title: 'x', changes: [change('a.md'), { path: 'a.md', deleted: true }] });
    expect(twice.json().error.details).toMatchObject({ field: 'changes.1.path' });
    const missing = await api.create({ title: 'x', changes: [{ path: 'nope.md', deleted: true }] });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().error.details).toMatchObject({ field: 'changes.0.path' });
    const folder = await api.create({ title: 'x', changes: [change('guides')] });
    expect(folder.json().error.details).toMatchObject({ field: 'changes.0.path' });
    const both = await api.create({ title: 'x', branch: 'feature', changes: [change()] });
    expect(both.statusCode).toBe(400);
  });

  it('refuses reviewers who are not members of the organization (400 naming reviewers)', async () => {
    const other = await createOrgWithKey(t);
    const res = await api.create({ title: 'x', reviewers: [other.userId], changes: [change()] });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.details).toMatchObject({ field: 'reviewers' });
    expect(res.json().error.message).toContain(other.userId);
  });

  it('refuses an unknown base commit naming baseCommit', async () => {
    const res = await api.create({ title: 'x', baseCommit: 'a'.repeat(40), changes: [change()] });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.details).toMatchObject({ field: 'baseCommit' });
  });

  it('refuses a viewer opening a review (403), and commenting when not a requested reviewer', async () => {
    expect((await api.create({ title: 'x', changes: [change()] }, viewer.key)).statusCode).toBe(403);
    const id = (await api.create({ title: 'Viewer test', changes: [change()] }, editor.key)).json().data.id;
    const res = await api.comment(id, { path: 'guides/setup.mdx', lineStart: 1, lineEnd: 1, body: 'hi' }, viewer.key);
    expect(res.statusCode).toBe(403);
    expect((await api.patch(id, { status: 'approved' }, viewer.key)).statusCode).toBe(403);
    const past = await api.comment(id, { path: 'guides/setup.mdx', lineStart: 1, lineEnd: 99, body: 'hi' }, editor.key);
    expect(past.json().error.details).toMatchObject({ field: 'lineEnd' });
  });
});

describe('branch reviews', () => {
  it('takes the difference between the project branch head and the branch as the change set', async () => {
    gitIn(repo, ['checkout', '--quiet', '-b', 'feature']);
    repo.commit({ 'guides/setup.mdx': null, 'guides/install.mdx': '# Install\n', 'index.mdx': '# Home, edited\n' }, 'feature work');
    gitIn(repo, ['checkout', '--quiet', 'main']);
    const res = await api.create({ title: 'Feature', branch: 'feature' }, editor.key);
    expect(res.statusCode).toBe(201);
    expect(res.json().data).toMatchObject({
      branch: 'main',
      headBranch: 'feature',
      baseCommit: repo.headSha(),
      changes: [
        { path: 'guides/install.mdx', change: 'added' },
        { path: 'guides/setup.mdx', change: 'deleted' },
        { path: 'index.mdx', change: 'modified' },
      ],
    });
    expect(res.json().data.changes[1].previewUrl).toBeUndefined();
    const patch = await api.patch(res.json().data.id, { changes: [change()] }, editor.key);
    expect(patch.statusCode).toBe(400);
    expect(patch.json().error.details).toMatchObject({ field: 'changes' });
    const unknown = await api.create({ title: 'Nope', branch: 'no-such-branch' }, editor.key);
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().error.details).toMatchObject({ field: 'branch' });
  });
});

describe('listing reviews', () => {
  it('filters by status, author and reviewer, newest first, with pagination', async () => {
    await t.ctx.db.prisma.review.deleteMany();
    const a = (await api.create({ title: 'A', reviewers: [reviewer.userId], changes: [change()] }, editor.key)).json().data;
    const b = (await api.create({ title: 'B', reviewers: [editor.userId, reviewer.userId], changes: [change()] })).json().data;
    const c = (await api.create({ title: 'C', changes: [change()] }, editor.key)).json().data;
    expect((await api.patch(c.id, { status: 'closed' }, editor.key)).json().data.status).toBe('closed');

    const all = (await api.list()).json();
    expect(all.data.map((r: { title: string }) => r.title)).toEqual(['C', 'B', 'A']);
    expect(all.pagination).toEqual({ page: 1, pageSize: 20, total: 3, totalPages: 1 });
    expect((await api.list('?status=closed')).json().data.map((r: { id: string }) => r.id)).toEqual([c.id]);
    expect((await api.list(`?author=${editor.userId}`)).json().data.map((r: { id: string }) => r.id)).toEqual([c.id, a.id]);
    expect((await api.list(`?reviewer=${reviewer.userId}`)).json().data.map((r: { id: string }) => r.id)).toEqual([b.id, a.id]);
    expect((await api.list(`?reviewer=${editor.userId}&status=open`)).json().data.map((r: { id: string }) => r.id)).toEqual([b.id]);
    const page2 = (await api.list('?pageSize=2&page=2')).json();
    expect(page2.data.map((r: { id: string }) => r.id)).toEqual([a.id]);
    expect(page2.pagination).toEqual({ page: 2, pageSize: 2, total: 3, totalPages: 2 });
    expect((await api.list('?status=nope')).statusCode).toBe(400);
    expect((await api.list('?page=0')).statusCode).toBe(400);
  });

  it('answers 404 for unknown reviews and reviews of another organization', async () => {
    const id = (await api.list()).json().data[0].id;
    expect((await api.get('rev_unknown000000000000')).statusCode).toBe(404);
    const other = await createOrgWithKey(t);
    expect((await api.get(id, other.key)).statusCode).toBe(404);
    expect((await api.comments(id, other.key)).statusCode).toBe(404);
    expect((await api.patch(id, { title: 'mine now' }, other.key)).statusCode).toBe(404);
    const theirs = await t.app.inject({ method: 'POST', url: '/v1/projects', headers: bearer(other.key), payload: { name: 'theirs', slug: 'theirs', repoUrl: repo.path } });
    const theirProject = theirs.json().data.id;
    expect((await t.app.inject({ url: `/v1/projects/${theirProject}/reviews/${id}`, headers: bearer(other.key) })).statusCode).toBe(404);
  });
});
