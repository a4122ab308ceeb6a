import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, type TestApp } from '../../helpers/app';
import type { FixtureRepo } from '../../helpers/git-repo';
import { createProject, docsRepo, trigger, waitForStatus } from './build-fixture';

let t: TestApp;
let repo: FixtureRepo;
let project: { id: string; slug: string };

beforeAll(async () => {
  t = await createTestApp({ runJobs: true });
  repo = docsRepo('FIRST');
  // its preview is read to see the build live, not through the preview gate
  project = await createProject(t, repo, 'acme', { protectPreviews: false });
});
afterAll(async () => {
  await t.close();
  repo.cleanup();
});

const site = (url: string, host = 'acme-docs.localhost:4000') => t.app.inject({ url, headers: { host } });

describe('build lifecycle with the real runner', () => {
  it('queues a build (202), deploys it and serves the site by Host', async () => {
    const res = await trigger(t, project.id);
    expect(res.statusCode).toBe(202);
    const build = res.json().data;
    expect(build).toMatchObject({ status: 'queued', trigger: 'api', isPreview: false, branch: 'main', url: null });
    expect(build.id).toMatch(/^bld_/);

    const done = await waitForStatus(t, project.id, build.id, ['deployed', 'failed']);
    expect(done.error).toBeNull();
    expect(done).toMatchObject({ status: 'deployed', url: 'http://acme-docs.localhost:4000/', commitSha: repo.headSha() });
    expect(done.duration).toBeGreaterThan(0);
    expect(done.deployedAt).toEqual(expect.any(String));

    const home = await site('/');
    expect(home.statusCode).toBe(200);
    expect(home.body).toContain('FIRST home page');
    expect((await site('/guides/setup')).body).toContain('Install it.');
    expect((await site('/guides/setup.md')).body).toContain('Install it.');
    const redirect = await site('/old');
    expect(redirect.statusCode).toBe(308);
    expect(redirect.headers.location).toBe('/guides/setup');
  });

  it('records build.triggered in the audit log', async () => {
    const res = await t.app.inject({ url: `/v1/projects/${project.id}/audit-log?resource=build`, headers: bearer(t.adminKey) });
    expect(res.json().data[0]).toMatchObject({ action: 'build.triggered', resource: { type: 'build' } });
  });

  it('serves the log as plain text, one line per step and the outcome', async () => {
    const list = await t.app.inject({ url: `/v1/projects/${project.id}/builds?status=deployed`, headers: bearer(t.adminKey) });
    const id = list.json().data[0].id as string;
    const detail = (await t.app.inject({ url: `/v1/projects/${project.id}/builds/${id}`, headers: bearer(t.adminKey) })).json().data;
    expect(detail.logUrl).toMatch(new RegExp(`/v1/projects/${project.id}/builds/${id}/logs$`));
    const log = await t.app.inject({ url: `/v1/projects/${project.id}/builds/${id}/logs`, headers: bearer(t.adminKey) });
    expect(log.statusCode).toBe(200);
    expect(log.headers['content-type']).toMatch(/^text\/plain/);
    expect(log.body).toMatch(/fetching repository.*\d+ ms/);
    expect(log.body).toMatch(/rendering pages.*\d+ ms/);
    expect(log.body).toMatch(/deployed 2 pages/);
  });

  it('keeps the old site serving when a build fails', async () => {
    repo.commit({ 'guides/setup.mdx': '---\ntitle: [unclosed\n---\n\n<Broken\n' }, 'break it');
    const build = (await trigger(t, project.id)).json().data;
    const done = await waitForStatus(t, project.id, build.id, ['deployed', 'failed']);
    expect(done.status).toBe('failed');
    expect(done.error).toMatch(/guides\/setup\.mdx/);
    const log = await t.app.inject({ url: `/v1/projects/${project.id}/builds/${build.id}/logs`, headers: bearer(t.adminKey) });
    expect(log.body).toMatch(/failed: .*guides\/setup\.mdx/);
    expect((await site('/')).body).toContain('FIRST home page');
  });

  it('deploys a preview of another branch on its own host, leaving production alone', async () => {
    repo.commit({ 'guides/setup.mdx': '---\ntitle: Setup\n---\n\nInstall it. SECOND\n', 'index.mdx': '# Welcome\n\nSECOND home page.\n' }, 'fix');
    const build = (await trigger(t, project.id, { preview: true })).json().data;
    expect(build.isPreview).toBe(true);
    const done = await waitForStatus(t, project.id, build.id, ['deployed', 'failed']);
    expect(done).toMatchObject({ status: 'deployed', url: 'http://main--acme-docs.localhost:4000/' });
    expect((await site('/', 'main--acme-docs.localhost:4000')).body).toContain('SECOND home page');
    expect((await site('/')).body).toContain('FIRST home page');
  });
});

describe('list and get', () => {
  it('lists newest first with filters and perPage pagination', async () => {
    const all = await t.app.inject({ url: `/v1/projects/${project.id}/builds?per_page=2`, headers: bearer(t.adminKey) });
    expect(all.statusCode).toBe(200);
    const body = all.json();
    expect(body.pagination).toEqual({ page: 1, perPage: 2, total: 3, totalPages: 2 });
    expect(body.data.map((b: { isPreview: boolean }) => b.isPreview)).toEqual([true, false]);
    const page2 = (await t.app.inject({ url: `/v1/projects/${project.id}/builds?per_page=2&page=2`, headers: bearer(t.adminKey) })).json();
    expect(page2.data).toHaveLength(1);
    expect(page2.data[0].status).toBe('deployed');
    const failed = (await t.app.inject({ url: `/v1/projects/${project.id}/builds?status=failed`, headers: bearer(t.adminKey) })).json();
    expect(failed.data).toHaveLength(1);
    const none = (await t.app.inject({ url: `/v1/projects/${project.id}/builds?branch=other`, headers: bearer(t.adminKey) })).json();
    expect(none.pagination.total).toBe(0);
  });

  it('refuses bad filters and unknown ids', async () => {
    const bad = await t.app.inject({ url: `/v1/projects/${project.id}/builds?status=done`, headers: bearer(t.adminKey) });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.code).toBe('invalid_request');
    const missing = await t.app.inject({ url: `/v1/projects/${project.id}/builds/bld_nope`, headers: bearer(t.adminKey) });
    expect(missing.statusCode).toBe(404);
    expect((await t.app.inject({ url: `/v1/projects/prj_nope/builds`, headers: bearer(t.adminKey) })).statusCode).toBe(404);
  });
});
