import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, type TestApp } from '../helpers/app';
import type { FixtureRepo } from '../helpers/git-repo';
import { createProject, trigger, waitForStatus } from '../routes/builds/build-fixture';
import { newId } from '@quire/shared/ids';
import { readBuildLog } from '../../src/builds/build-log';
import { AFTER_DEPLOY_GRACE_MS } from '../../src/deployments/after-deploy';
import { VERSIONING, versionedRepo } from './versioned-repo';

const HOST = 'acme-docs.localhost:4000';

describe('documentation versions', () => {
  let t: TestApp;
  let repo: FixtureRepo;
  let project: { id: string; slug: string };

  const site = (url: string) => t.app.inject({ url, headers: { host: HOST } });
  const diff = (query: string) => t.app.inject({ url: `/v1/projects/${project.id}/versions/diff${query}`, headers: bearer(t.adminKey) });

  /** Waits until every version build of the project has ended; returns them by label (newest first). */
  async function versionBuilds(after: Date, count: number) {
    const until = Date.now() + 90_000;
    for (;;) {
      const builds = await t.ctx.db.prisma.build.findMany({ where: { projectId: project.id, version: { not: null }, createdAt: { gte: after } }, orderBy: { createdAt: 'desc' } });
      if (builds.length >= count && builds.every((b) => b.status !== 'queued' && b.status !== 'building')) return new Map(builds.map((b) => [b.version!, b]));
      if (Date.now() > until) throw new Error(`version builds still running: ${builds.map((b) => `${b.version}:${b.status}`).join(', ')}`);
      await new Promise((r) => setTimeout(r, 200));
    }
  }

  beforeAll(async () => {
    t = await createTestApp();
    repo = versionedRepo();
    project = await createProject(t, repo, 'acme');
    t.app.buildRunner.configure({ pollMs: 100 });
    await t.app.buildRunner.start();
    const started = new Date();
    const prod = (await trigger(t, project.id)).json().data;
    expect(await waitForStatus(t, project.id, prod.id, ['deployed', 'failed'], 60_000)).toMatchObject({ status: 'deployed' });
    await versionBuilds(started, 4);
  }, 180_000);
  afterAll(async () => {
    await t?.close();
    repo?.cleanup();
  });

  it('builds every non-default version from its own ref after production deploys; a missing ref fails only its version', async () => {
    const builds = await versionBuilds(new Date(0), 4);
    expect([...builds.keys()].sort()).toEqual(['legacy', 'v0', 'v1', 'v2']);
    expect(builds.get('v1')).toMatchObject({ status: 'deployed', branch: 'refs/tags/v1', isPreview: false, trigger: 'api', url: `http://${HOST}/v1/` });
    expect(builds.get('v2')).toMatchObject({ status: 'deployed', branch: 'refs/heads/v2' });
    const v0 = builds.get('v0')!;
    expect(v0.status).toBe('failed');
    expect(v0.error).toContain('Version "v0" cannot be built: none of its refs exists in the repository (tried tag "v0", branch "v0" (its label))');
    expect(await readBuildLog(t.ctx.config.dataDir, v0.id)).toContain('✗ failed: Version "v0" cannot be built');
    const deployments = await t.ctx.db.prisma.deployment.findMany({ where: { projectId: project.id, kind: 'version' }, select: { previewName: true } });
    expect(deployments.map((d) => d.previewName).sort()).toEqual(['legacy', 'v1', 'v2']);
  });

  it('serves each version under /<label>/ with its own pages, links, Markdown, llms.txt and 404', async () => {
    const v1 = await site('/v1/guides/setup');
    expect(v1.statusCode).toBe(200);
    expect(v1.body).toContain('V1-SETUP');
    expect(v1.body).toContain('href="/v1/old"');
    expect(v1.body).toMatch(/<link rel="stylesheet" href="\/v1\/_quire\/assets\/site\.[0-9a-f]+\.css">/);
    const asset = /href="(\/v1\/_quire\/assets\/site\.[0-9a-f]+\.css)"/.exec(v1.body)![1]!;
    expect((await site(asset)).statusCode).toBe(200);
    const home = await site('/v1/');
    expect(home.body).toContain('<a href="/v1/guides/setup">setup</a>');
    expect((await site('/v1/guides/setup.md')).body).toContain('V1-SETUP');
    expect((await site('/v1/llms.txt')).body).toContain(`(http://${HOST}/v1/old.md)`);
    expect((await site('/v1/sitemap.xml')).body).toContain(`<loc>http://${HOST}/v1/old</loc>`);
    const missing = await site('/v1/guides/new');
    expect(missing.statusCode).toBe(404);
    expect(missing.body).toContain('href="/v1/"');
    expect((await site('/v2/guides/setup')).body).toContain('V2-SETUP');
    const latest = await site('/guides/setup');
    expect(latest.statusCode).toBe(200);
    expect(latest.body).toContain('V2-SETUP');
    expect(latest.body).not.toContain('/v1/_quire/assets');
    expect((await site('/guides/new')).statusCode).toBe(200);
  });

  it('shows the switcher with badges and the deprecated banner, and keeps gated pages of a version gated', async () => {
    const latest = (await site('/guides/setup')).body;
    expect(latest).toContain('<a href="/v1/guides/setup?_quire_from=switcher">');
    expect(latest).toContain('latest</span>');
    expect(latest).toContain('deprecated</span>');
    expect(latest).not.toContain('q-version-banner');
    const v1 = (await site('/v1/guides/setup')).body;
    expect(v1).toContain('Version 1 is no longer maintained &amp; will go away. <a href="/guides/setup?_quire_from=switcher">Go to the latest version (v3)</a>');
    const secret = await site('/v2/secret');
    expect(secret.statusCode).toBe(401);
    expect(secret.body).not.toContain('V2-SECRET');
    expect((await site('/v2/secret.md')).statusCode).toBe(401);
    expect((await site('/v2/llms.txt')).body).not.toContain('secret');
  });

  it('lands switcher requests on the page, or on the version\'s first page when it lacks it', async () => {
    const kept = await site('/v1/guides/setup?_quire_from=switcher');
    expect(kept.statusCode).toBe(302);
    expect(kept.headers.location).toBe('/v1/guides/setup');
    const fallback = await site('/v1/guides/new?_quire_from=switcher');
    expect(fallback.statusCode).toBe(302);
    expect(fallback.headers.location).toBe('/v1/');
    const toLatest = await site('/old?_quire_from=switcher');
    expect(toLatest.headers.location).toBe('/');
    expect((await site('/guides/setup?_quire_from=switcher')).headers.location).toBe('/guides/setup');
  });

  it('redirects a version with autoRedirectToLatest to the same path on the default version', async () => {
    const res = await site('/legacy/guides/setup?ref=x');
    expect(res.statusCode).toBe(302);
    expect(res.headers.location).toBe('/guides/setup?ref=x');
    expect((await site('/legacy')).headers.location).toBe('/');
  });

  it('compares the page inventories of two versions', async () => {
    const res = await diff('?from=v1&to=v3');
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toEqual({
      from: 'v1',
      to: 'v3',
      added: [{ path: 'guides/new', title: 'New in v3' }],
      removed: [{ path: 'old', title: 'Old page' }],
      changed: [{ path: 'guides/setup', title: 'Setup' }, { path: 'index', title: 'Welcome' }],
      unchangedCount: 0,
    });
    expect((await diff('?from=v2&to=v3')).json().data).toMatchObject({ changed: [{ path: 'index', title: 'Welcome' }], removed: [{ path: 'secret', title: 'Secret' }], unchangedCount: 1 });
    const missing = await diff('?from=v1');
    expect(missing.statusCode).toBe(400);
    expect(missing.json().error.code).toBe('invalid_request');
    const unknown = await diff('?from=v1&to=v9');
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().error).toMatchObject({ code: 'not_found', message: expect.stringContaining('"v9"') });
    expect((await diff('?from=v0&to=v3')).statusCode).toBe(404);
    const openapi = await t.app.inject({ url: '/v1/openapi.json' });
    expect(JSON.stringify(openapi.json().paths['/v1/projects/{projectId}/versions/diff'])).toContain('Compare two documentation versions');
  });

  it('stops serving a version removed from versioning', async () => {
    repo.commit({ 'docs.json': JSON.stringify({ name: 'Acme Docs', navigation: { groups: [{ group: 'Start', pages: ['index', 'guides/setup', 'guides/new'] }] }, versioning: { versions: VERSIONING.versions.filter((v) => v.label !== 'v2') } }) }, 'drop v2');
    const started = new Date();
    const prod = (await trigger(t, project.id)).json().data;
    expect(await waitForStatus(t, project.id, prod.id, ['deployed', 'failed'], 60_000)).toMatchObject({ status: 'deployed' });
    const builds = await versionBuilds(started, 3);
    expect([...builds.keys()].sort()).toEqual(['legacy', 'v0', 'v1']);
    expect((await site('/v2/guides/setup')).statusCode).toBe(404);
    expect(await t.ctx.db.prisma.deployment.count({ where: { projectId: project.id, kind: 'version', previewName: 'v2' } })).toBe(0);
    expect((await site('/v1/guides/setup')).body).not.toContain('>v2<');
  }, 120_000);

  it('queues the version builds of a production deploy whose process died before queuing them: the next sweep does', async () => {
    const prisma = t.ctx.db.prisma;
    const prod = (await prisma.build.findFirst({ where: { projectId: project.id, isPreview: false, version: null, status: 'deployed' }, orderBy: { deployedAt: 'desc' } }))!;
    expect(prod.afterDeployPending).toBe(false); // a deploy that ran to its end leaves nothing pending
    // As a process killed right after the deploy commit leaves it: the flag set, no version builds queued.
    const started = new Date();
    await prisma.build.update({ where: { id: prod.id }, data: { afterDeployPending: true, deployedAt: new Date() } });
    await new Promise((r) => setTimeout(r, 500)); // several sweeps (every 100 ms here)
    // Within the grace period the deploying process may still be at it: left alone.
    expect(await prisma.build.count({ where: { projectId: project.id, version: { not: null }, createdAt: { gte: started } } })).toBe(0);
    await prisma.build.update({ where: { id: prod.id }, data: { deployedAt: new Date(Date.now() - AFTER_DEPLOY_GRACE_MS - 1_000) } });
    const builds = await versionBuilds(started, 3);
    expect([...builds.keys()].sort()).toEqual(['legacy', 'v0', 'v1']);
    expect((await prisma.build.findUnique({ where: { id: prod.id } }))!.afterDeployPending).toBe(false);
    const log = await readBuildLog(t.ctx.config.dataDir, prod.id);
    expect(log).toContain('after deploy: the process deploying this build stopped before its last steps; finishing them');
    expect(log).toMatch(/versions: queued .*legacy/);
  }, 120_000);

  it('never answers a trigger 409 because of queued version builds', async () => {
    await t.app.buildRunner.stop();
    await t.ctx.db.prisma.build.create({ data: { id: newId('build'), projectId: project.id, status: 'queued', trigger: 'api', branch: 'v1', version: 'v1' } });
    expect((await trigger(t, project.id)).statusCode).toBe(202);
    expect((await trigger(t, project.id)).statusCode).toBe(409);
  });
});
