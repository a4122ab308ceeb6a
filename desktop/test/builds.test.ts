import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TRPCError } from '@trpc/server';
import { bearer, createTestApp, type TestApp } from '../../server/test/helpers/app';
import { fakeBuilder } from '../../server/test/jobs/fake-builder';
import type {} from '../../server/src/jobs/index'; // the app's buildRunner decoration
import { seedMember, TEST_PASSWORD } from '../../server/test/services/identity-fixtures';
import { createCore, type DesktopCore } from '../src/core/compose';
import type { BuildWatchState } from '../src/core/builds';
import { createCoreCaller } from '../src/core/router';
import { fileTokenVault } from '../src/core/token-vault';

/** Publishing from the core against a real Quire server whose builder the test holds and releases. */
let t: TestApp;
let fake: ReturnType<typeof fakeBuilder>;
let serverUrl: string;
let projectId: string;
const dirs: string[] = [];
const cores: DesktopCore[] = [];

async function signedInCore(email: string) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-desktop-builds-'));
  dirs.push(dataDir);
  const core = createCore({ dataDir, vault: fileTokenVault(dataDir) });
  cores.push(core);
  const c = createCoreCaller(core);
  await c.session.signIn({ serverUrl, email, password: TEST_PASSWORD });
  return c;
}

async function errorOf(p: Promise<unknown>): Promise<TRPCError> {
  const err = await p.then(() => undefined, (e: unknown) => e);
  expect(err).toBeInstanceOf(TRPCError);
  return err as TRPCError;
}

/** Polls `builds.watch` as the Builds panel does, gathering the log lines, until the build ends. */
async function watchUntilDone(c: Awaited<ReturnType<typeof signedInCore>>, buildId: string, seen: BuildWatchState[] = []) {
  let since = 0;
  const lines: string[] = [];
  const until = Date.now() + 15_000;
  for (;;) {
    const s = await c.builds.watch({ projectId, buildId, since });
    lines.push(...s.lines);
    since = s.lineCount;
    seen.push(s);
    if (s.done && s.url !== null) return { last: s, lines };
    if (s.done && s.status !== 'deployed') return { last: s, lines };
    if (Date.now() > until) throw new Error(`build ${buildId} did not end: ${JSON.stringify(s)}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

beforeAll(async () => {
  t = await createTestApp();
  fake = fakeBuilder();
  t.app.buildRunner.configure({ runBuild: fake.runBuild, pollMs: 50 });
  await t.app.buildRunner.start();
  const res = await t.app.inject({ method: 'POST', url: '/v1/projects', headers: bearer(t.adminKey), payload: { name: 'Acme', slug: 'acme', repoUrl: '/tmp/nowhere' } });
  projectId = res.json().data.id as string;
  const orgId = (await t.ctx.db.prisma.project.findUniqueOrThrow({ where: { id: projectId } })).orgId;
  await seedMember(t.ctx.db, orgId, 'writer@acme.test', 'editor');
  await seedMember(t.ctx.db, orgId, 'reader@acme.test', 'viewer');
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  serverUrl = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  for (const core of cores) {
    core.builds.close();
    await core.close();
  }
  await t?.close();
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
});

describe('desktop core: publishing', () => {
  it('publishes the project: the build is followed live (status changes and log lines once each) and ends deployed with the site URL', async () => {
    const c = await signedInCore('writer@acme.test');
    fake.state.hold = true;
    const build = await c.builds.trigger({ projectId });
    expect(build).toMatchObject({ status: 'queued', isPreview: false, branch: 'main' });
    await fake.reached(build.id);
    // while the builder holds it, the panel sees it building with the first log line
    const until = Date.now() + 10_000;
    let during = await c.builds.watch({ projectId, buildId: build.id });
    while (during.status !== 'building' || !during.lines.some((l) => l.includes('fetching repository (fake)'))) {
      if (Date.now() > until) throw new Error(`never saw the build building: ${JSON.stringify(during)}`);
      await new Promise((r) => setTimeout(r, 50));
      during = await c.builds.watch({ projectId, buildId: build.id });
    }
    expect(during.done).toBe(false);
    expect(during.lines.some((l) => l.includes('fetching repository (fake)'))).toBe(true);
    fake.state.hold = false;
    fake.release(build.id);

    const { last, lines } = await watchUntilDone(c, build.id);
    expect(last).toMatchObject({ status: 'deployed', done: true, error: null, isPreview: false, via: 'stream' });
    expect(last.url).toMatch(/^http:\/\/acme-docs\./);
    expect(lines.filter((l) => l.includes('fetching repository (fake)'))).toHaveLength(1);
    expect(lines.some((l) => l.includes('writing site (fake)'))).toBe(true);
    // step timings: each status the app saw, in order, with when
    expect(last.phases.map((p) => p.status)).toEqual(expect.arrayContaining(['queued', 'building', 'deployed']));
    expect(last.phases.at(-1)!.at).toBeGreaterThanOrEqual(last.phases[0]!.at);

    const list = await c.builds.list({ projectId });
    expect(list[0]).toMatchObject({ id: build.id, status: 'deployed' });
  });

  it('builds a preview deployment of the branch, which never replaces the production site', async () => {
    const c = await signedInCore('writer@acme.test');
    const build = await c.builds.trigger({ projectId, preview: true });
    expect(build.isPreview).toBe(true);
    const { last } = await watchUntilDone(c, build.id);
    expect(last).toMatchObject({ status: 'deployed', isPreview: true });
    expect(last.url).toMatch(/--acme-docs\./);
  });

  it('opens a private preview through a member pass, for every role; a URL of another site is refused', async () => {
    const writer = await signedInCore('writer@acme.test');
    const build = await writer.builds.trigger({ projectId, preview: true });
    const { last } = await watchUntilDone(writer, build.id);
    const host = new URL(last.url!).host;
    const site = (path: string, cookie?: string) => t.app.inject({ url: path, headers: { host, ...(cookie ? { cookie } : {}) } });
    expect((await site('/')).statusCode).toBe(401);

    const viewer = await signedInCore('reader@acme.test');
    const pass = await viewer.previews.open({ projectId, url: last.url! });
    expect(pass.url).toMatch(new RegExp(`^http://${host.replace(/\./g, '\\.')}/_quire/pass/`));
    const opened = await site(new URL(pass.url).pathname);
    expect(opened.statusCode).toBe(302);
    const cookie = String(opened.headers['set-cookie']).split(';')[0]!;
    expect((await site('/', cookie)).statusCode).not.toBe(401);

    expect((await errorOf(viewer.previews.open({ projectId, url: 'http://acme-docs.localhost:4000/' }))).code).toBe('BAD_REQUEST');
  });

  it('shows a failed build with its reason', async () => {
    const c = await signedInCore('writer@acme.test');
    fake.state.failNext = true;
    const build = await c.builds.trigger({ projectId });
    const { last } = await watchUntilDone(c, build.id);
    expect(last).toMatchObject({ status: 'failed', done: true, url: null });
    expect(last.error).toMatch(/Unexpected closing tag/);
  });

  it('answers the server\'s refusals: a viewer cannot publish, a second build waits for the running one, a foreign build is not found', async () => {
    const viewer = await signedInCore('reader@acme.test');
    expect((await errorOf(viewer.builds.trigger({ projectId }))).code).toBe('FORBIDDEN');
    const writer = await signedInCore('writer@acme.test');
    fake.state.hold = true;
    const build = await writer.builds.trigger({ projectId });
    const busy = await errorOf(writer.builds.trigger({ projectId, preview: true }));
    expect(busy.code).toBe('CONFLICT');
    await fake.reached(build.id);
    fake.state.hold = false;
    fake.release(build.id);
    await watchUntilDone(writer, build.id);
    expect((await errorOf(writer.builds.watch({ projectId, buildId: 'bld_unknown00000000000000' }))).code).toBe('NOT_FOUND');
  });

  it('needs a signed-in session', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-desktop-builds-'));
    dirs.push(dataDir);
    const core = createCore({ dataDir, vault: fileTokenVault(dataDir) });
    cores.push(core);
    expect((await errorOf(createCoreCaller(core).builds.list({ projectId }))).code).toBe('UNAUTHORIZED');
  });
});
