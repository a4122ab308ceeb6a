import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app';
import { loadConfig } from '../../src/env';
import { bearer, createTestApp, type TestApp } from '../helpers/app';
import { fakeBuilder } from './fake-builder';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

/** A test app whose runner uses the fake builder (started unless `start` is false). */
async function appWithFake(start = true) {
  const t = await createTestApp();
  cleanups.push(() => t.close());
  const fake = fakeBuilder();
  t.app.buildRunner.configure({ runBuild: fake.runBuild, pollMs: 100 });
  if (start) await t.app.buildRunner.start();
  return { t, fake };
}

async function project(t: TestApp, slug: string, settings?: Record<string, boolean>): Promise<string> {
  const payload = { name: slug, slug, repoUrl: '/tmp/nowhere', ...(settings ? { settings } : {}) };
  const res = await t.app.inject({ method: 'POST', url: '/v1/projects', headers: bearer(t.adminKey), payload });
  expect(res.statusCode).toBe(201);
  return res.json().data.id as string;
}

const trigger = (t: TestApp, projectId: string, key = t.adminKey, body?: object) =>
  t.app.inject({ method: 'POST', url: `/v1/projects/${projectId}/builds`, headers: bearer(key), ...(body ? { payload: body } : {}) });
const cancel = (t: TestApp, projectId: string, buildId: string) =>
  t.app.inject({ method: 'DELETE', url: `/v1/projects/${projectId}/builds/${buildId}`, headers: bearer(t.adminKey) });
const getBuild = async (t: TestApp, projectId: string, buildId: string) =>
  (await t.app.inject({ url: `/v1/projects/${projectId}/builds/${buildId}`, headers: bearer(t.adminKey) })).json().data;

async function waitFor(t: TestApp, projectId: string, buildId: string, status: string) {
  const until = Date.now() + 10_000;
  for (;;) {
    const b = await getBuild(t, projectId, buildId);
    if (b.status === status) return b;
    if (Date.now() > until) throw new Error(`${buildId} is ${b.status}, expected ${status}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

describe('build runner', () => {
  it('runs one build at a time, deploys and keeps the last three production deployments', async () => {
    const { t, fake } = await appWithFake();
    const p = await project(t, 'acme');
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      const res = await trigger(t, p);
      expect(res.statusCode).toBe(202);
      ids.push(res.json().data.id);
      const b = await waitFor(t, p, ids[i]!, 'deployed');
      expect(b).toMatchObject({ url: 'http://acme-docs.localhost:4000/', commitSha: 'a'.repeat(40), commitMessage: 'fake commit' });
    }
    const site = await t.app.inject({ url: '/', headers: { host: 'acme-docs.localhost' } });
    expect(site.body).toContain(`built by ${ids[4]}`);
    // Old deployments are pruned after the deploy, in the background (their files are removed asynchronously).
    await expect.poll(() => fs.readdirSync(path.join(t.dataDir, 'sites', p)).sort(), { timeout: 10_000 }).toEqual(ids.slice(2).sort());
    expect(await t.ctx.db.prisma.deployment.count({ where: { projectId: p } })).toBe(3);
    expect(fake.started).toEqual(ids);
  });

  it('answers 409 while a build is queued or building, and builds projects one after another', async () => {
    const { t, fake } = await appWithFake();
    fake.state.hold = true;
    const a = await project(t, 'alpha');
    const b = await project(t, 'beta');
    const first = (await trigger(t, a)).json().data.id as string;
    await fake.reached(first);
    expect((await getBuild(t, a, first)).status).toBe('building');
    const again = await trigger(t, a);
    expect(again.statusCode).toBe(409);
    expect(again.json().error).toMatchObject({ code: 'conflict', details: { buildId: first } });

    const second = (await trigger(t, b)).json().data.id as string;
    await new Promise((r) => setTimeout(r, 300));
    expect((await getBuild(t, b, second)).status).toBe('queued');
    expect((await trigger(t, b)).statusCode).toBe(409);

    fake.release(first);
    await waitFor(t, a, first, 'deployed');
    await fake.reached(second);
    fake.release(second);
    await waitFor(t, b, second, 'deployed');
  });

  it('cancels queued and building builds (204, cancelled) and refuses finished ones (409)', async () => {
    const { t, fake } = await appWithFake();
    fake.state.hold = true;
    const a = await project(t, 'alpha');
    const b = await project(t, 'beta');
    const building = (await trigger(t, a)).json().data.id as string;
    await fake.reached(building);
    const queued = (await trigger(t, b)).json().data.id as string;

    const c1 = await cancel(t, b, queued);
    expect(c1.statusCode).toBe(204);
    expect((await getBuild(t, b, queued)).status).toBe('cancelled');

    const c2 = await cancel(t, a, building);
    expect(c2.statusCode).toBe(204);
    expect((await getBuild(t, a, building)).status).toBe('cancelled');
    const log = await t.app.inject({ url: `/v1/projects/${a}/builds/${building}/logs`, headers: bearer(t.adminKey) });
    expect(log.body.trim().split('\n').at(-1)).toBe('cancelled');
    expect(fs.existsSync(path.join(t.dataDir, 'sites', a, building))).toBe(false);
    expect((await t.app.inject({ url: '/', headers: { host: 'alpha-docs.localhost' } })).statusCode).toBe(404);

    for (const [p, id] of [[a, building], [b, queued]] as const) {
      const res = await cancel(t, p, id);
      expect(res.statusCode).toBe(409);
      expect(res.json().error.code).toBe('conflict');
    }
    fake.state.hold = false;
    const ok = (await trigger(t, a)).json().data.id as string;
    await waitFor(t, a, ok, 'deployed');
    expect((await cancel(t, a, ok)).statusCode).toBe(409);
    expect((await cancel(t, a, 'bld_missing')).statusCode).toBe(404);
  });

  it('marks a failing build failed with its message and keeps the previous site', async () => {
    const { t, fake } = await appWithFake();
    const p = await project(t, 'acme');
    const good = (await trigger(t, p)).json().data.id as string;
    await waitFor(t, p, good, 'deployed');
    fake.state.failNext = true;
    const bad = (await trigger(t, p)).json().data.id as string;
    const failed = await waitFor(t, p, bad, 'failed');
    expect(failed.error).toBe('guides/setup.mdx:3: Unexpected closing tag');
    expect(failed.deployedAt).toBeNull();
    expect((await t.app.inject({ url: '/', headers: { host: 'acme-docs.localhost' } })).body).toContain(`built by ${good}`);
    expect((await cancel(t, p, bad)).statusCode).toBe(409);
  });

  it('makes builds of a test key and of other branches previews on their branch host', async () => {
    const { t } = await appWithFake();
    // its preview is read below to see where it was published, not through the preview gate
    const p = await project(t, 'acme', { protectPreviews: false });
    const keyRes = await t.app.inject({ method: 'POST', url: '/v1/api-keys', headers: bearer(t.adminKey), payload: { name: 'ci', scope: 'build', mode: 'test' } });
    expect(keyRes.statusCode).toBe(201);
    const testKey = keyRes.json().data.key as string;
    const viaTest = (await trigger(t, p, testKey)).json().data;
    expect(viaTest.isPreview).toBe(true);
    expect((await waitFor(t, p, viaTest.id, 'deployed')).url).toBe('http://main--acme-docs.localhost:4000/');
    const branch = (await trigger(t, p, t.adminKey, { branch: 'feature/New_UI' })).json().data;
    expect(branch.isPreview).toBe(true);
    expect((await waitFor(t, p, branch.id, 'deployed')).url).toBe('http://feature-new-ui--acme-docs.localhost:4000/');
    expect((await t.app.inject({ url: '/', headers: { host: 'feature-new-ui--acme-docs.localhost:4000' } })).body).toContain(`built by ${branch.id}`);
    expect((await t.app.inject({ url: '/', headers: { host: 'acme-docs.localhost:4000' } })).statusCode).toBe(404);
  });

  it('refuses bad trigger bodies with 400 and changes nothing', async () => {
    const { t } = await appWithFake(false);
    const p = await project(t, 'acme');
    for (const [body, field] of [
      [{ branch: '--upload-pack=evil' }, 'branch'],
      [{ branch: 'a..b' }, 'branch'],
      [{ commitSha: 'xyz' }, 'commitSha'],
      [{ preview: 'yes' }, 'preview'],
      [{ extra: 1 }, undefined],
    ] as const) {
      const res = await trigger(t, p, t.adminKey, body);
      expect(res.statusCode).toBe(400);
      expect(res.json().error.code).toBe('invalid_request');
      if (field) expect(res.json().error.details.field).toBe(field);
    }
    expect(await t.ctx.db.prisma.build.count()).toBe(0);
  });

  it('answers 429 on the 31st trigger of an hour', async () => {
    const { t } = await appWithFake(false);
    const p = await project(t, 'acme');
    for (let i = 0; i < 30; i++) {
      const res = await trigger(t, p);
      expect(res.statusCode).toBe(202);
      expect((await cancel(t, p, res.json().data.id)).statusCode).toBe(204);
    }
    const res = await trigger(t, p);
    expect(res.statusCode).toBe(429);
    expect(res.json().error.code).toBe('rate_limited');
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    expect(await t.ctx.db.prisma.build.count()).toBe(30);
  });
});

describe('project deletion', () => {
  it('takes the site offline and removes its deployments', async () => {
    const { t } = await appWithFake();
    const p = await project(t, 'acme');
    const id = (await trigger(t, p)).json().data.id as string;
    await waitFor(t, p, id, 'deployed');
    expect((await t.app.inject({ url: '/', headers: { host: 'acme-docs.localhost' } })).statusCode).toBe(200);
    const del = await t.app.inject({ method: 'DELETE', url: `/v1/projects/${p}`, headers: bearer(t.adminKey) });
    expect(del.statusCode).toBe(204);
    const gone = await t.app.inject({ url: '/', headers: { host: 'acme-docs.localhost' } });
    expect(gone.statusCode).toBe(404);
    expect(gone.body).not.toContain('built by');
    const until = Date.now() + 5000;
    while (fs.existsSync(path.join(t.dataDir, 'sites', p)) && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
    expect(fs.existsSync(path.join(t.dataDir, 'sites', p))).toBe(false);
  });
});

describe('restarts', () => {
  it('requeues a build running when the app closes and completes it on the next start', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-restart-'));
    cleanups.push(() => fs.rmSync(dataDir, { recursive: true, force: true }));
    const config = loadConfig({ QUIRE_DATA_DIR: dataDir, QUIRE_LOG_LEVEL: 'silent', QUIRE_ALLOW_FILE_REPOS: '1' });

    const first = await buildApp(config, { runJobs: false });
    await first.ready();
    const key = first.bootstrap.adminKey!;
    const fake1 = fakeBuilder();
    fake1.state.hold = true;
    first.buildRunner.configure({ runBuild: fake1.runBuild });
    await first.buildRunner.start();
    const p = (await first.inject({ method: 'POST', url: '/v1/projects', headers: bearer(key), payload: { name: 'acme', repoUrl: '/tmp/x' } })).json().data.id;
    const id = (await first.inject({ method: 'POST', url: `/v1/projects/${p}/builds`, headers: bearer(key) })).json().data.id;
    await fake1.reached(id);
    await first.close();

    const second = await buildApp(config, { runJobs: false });
    await second.ready();
    cleanups.push(() => second.close());
    const before = (await second.inject({ url: `/v1/projects/${p}/builds/${id}`, headers: bearer(key) })).json().data;
    expect(before.status).toBe('queued');
    const fake2 = fakeBuilder();
    second.buildRunner.configure({ runBuild: fake2.runBuild, pollMs: 50 });
    await second.buildRunner.start();
    const until = Date.now() + 10_000;
    let status = '';
    while (status !== 'deployed' && Date.now() < until) {
      await new Promise((r) => setTimeout(r, 25));
      status = (await second.inject({ url: `/v1/projects/${p}/builds/${id}`, headers: bearer(key) })).json().data.status;
    }
    expect(status).toBe('deployed');
    const log = (await second.inject({ url: `/v1/projects/${p}/builds/${id}/logs`, headers: bearer(key) })).body;
    expect(log).toMatch(/requeued: the server is stopping/);
    expect(log).toMatch(/✓ deployed/);
  });

  it('requeues a build a crashed process left building', async () => {
    const { t, fake } = await appWithFake(false);
    const p = await project(t, 'acme');
    const id = (await trigger(t, p)).json().data.id as string;
    await t.ctx.db.prisma.build.update({ where: { id }, data: { status: 'building', startedAt: new Date() } });
    await t.app.buildRunner.start();
    await waitFor(t, p, id, 'deployed');
    expect(fake.started).toEqual([id]);
  });
});
