import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, type TestApp } from '../helpers/app';
import { fakeBuilder } from '../jobs/fake-builder';
import { seedMember, TEST_PASSWORD } from '../services/identity-fixtures';
import { callerFor, trpcErrorOf } from './trpc-fixtures';
import type { BuildProgress } from '../../src/services/build-progress';

let t: TestApp;
let fake: ReturnType<typeof fakeBuilder>;
let projectId: string;
let baseUrl: string;
const tokens: Record<string, string> = {};

beforeAll(async () => {
  t = await createTestApp();
  fake = fakeBuilder();
  t.app.buildRunner.configure({ runBuild: fake.runBuild, pollMs: 100 });
  await t.app.buildRunner.start();
  const res = await t.app.inject({ method: 'POST', url: '/v1/projects', headers: bearer(t.adminKey), payload: { name: 'Acme', slug: 'acme', repoUrl: '/tmp/nowhere' } });
  projectId = res.json().data.id as string;
  const orgId = (await t.ctx.db.prisma.project.findUniqueOrThrow({ where: { id: projectId } })).orgId;
  for (const role of ['editor', 'viewer'] as const) {
    await seedMember(t.ctx.db, orgId, `${role}@acme.test`, role);
    tokens[role] = (await (await callerFor(t.ctx)).auth.signIn({ email: `${role}@acme.test`, password: TEST_PASSWORD })).token;
  }
  baseUrl = await t.app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(async () => t?.close());

/** Every event of a server-sent-event stream until it ends, parsed from its non-empty `data:` lines. */
async function readEvents(res: Response): Promise<unknown[]> {
  const text = await res.text();
  return text
    .split('\n\n')
    .flatMap((block) => block.split('\n').filter((line) => line.startsWith('data: ')).map((line) => line.slice(6)))
    .filter((data) => data !== '') // the closing `event: return` carries no data
    .map((data) => JSON.parse(data) as unknown);
}

describe('projects and builds over tRPC (desktop app)', () => {
  it('lists the projects of the signed-in user\'s organization and reads one', async () => {
    const viewer = await callerFor(t.ctx, tokens.viewer);
    const page = await viewer.projects.list();
    expect(page.items.map((p) => p.slug)).toEqual(['acme']);
    expect(page.total).toBe(1);
    expect((await viewer.projects.get({ projectId })).url).toBe('http://acme-docs.localhost:4000/');
    expect((await trpcErrorOf(viewer.projects.get({ projectId: 'prj_unknown0000000000000' }))).code).toBe('NOT_FOUND');
  });

  it('lets an editor trigger a build and refuses a viewer', async () => {
    const viewerErr = await trpcErrorOf((await callerFor(t.ctx, tokens.viewer)).builds.trigger({ projectId }));
    expect(viewerErr.code).toBe('FORBIDDEN');
    fake.state.hold = true;
    const editor = await callerFor(t.ctx, tokens.editor);
    const build = await editor.builds.trigger({ projectId });
    expect(build).toMatchObject({ status: 'queued', trigger: 'api', branch: 'main' });
    const busy = await trpcErrorOf(editor.builds.trigger({ projectId }));
    expect(busy.code).toBe('CONFLICT');
    await fake.reached(build.id);
    expect((await editor.builds.get({ projectId, buildId: build.id })).status).toBe('building');
    fake.state.hold = false;
    fake.release(build.id);
    const until = Date.now() + 10_000;
    while ((await editor.builds.get({ projectId, buildId: build.id })).status !== 'deployed') {
      if (Date.now() > until) throw new Error('the build never deployed');
      await new Promise((r) => setTimeout(r, 50));
    }
  });

  it('streams a build\'s progress as server-sent events until it ends: status changes and log lines as they happen', async () => {
    fake.state.hold = true;
    const build = await (await callerFor(t.ctx, tokens.editor)).builds.trigger({ projectId });
    const input = encodeURIComponent(JSON.stringify({ projectId, buildId: build.id }));
    const stream = fetch(`${baseUrl}/trpc/builds.progress?input=${input}`, { headers: { authorization: `Bearer ${tokens.viewer}`, accept: 'text/event-stream' } });
    await fake.reached(build.id);
    await new Promise((r) => setTimeout(r, 300));
    fake.release(build.id);
    fake.state.hold = false;
    const res = await stream;
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/text\/event-stream/);
    const updates = (await readEvents(res)).filter((e): e is BuildProgress => typeof e === 'object' && e !== null && 'status' in e);
    const statuses = updates.map((u) => u.status);
    expect(statuses).toContain('building');
    expect(statuses.at(-1)).toBe('deployed');
    expect(updates.at(-1)!.done).toBe(true);
    const lines = updates.flatMap((u) => u.lines);
    expect(lines.some((l) => l.includes('fetching repository (fake)'))).toBe(true);
    expect(lines.some((l) => l.includes('writing site (fake)'))).toBe(true);
    // no line is sent twice
    expect(new Set(lines).size).toBe(lines.length);
  });

  it('refuses the progress stream without a session', async () => {
    const input = encodeURIComponent(JSON.stringify({ projectId, buildId: 'bld_x' }));
    const res = await fetch(`${baseUrl}/trpc/builds.progress?input=${input}`, { headers: { accept: 'text/event-stream' } });
    const body = await res.text();
    expect(body).toMatch(/UNAUTHORIZED/);
  });

  it('lists builds newest first and reads a log', async () => {
    const viewer = await callerFor(t.ctx, tokens.viewer);
    const list = await viewer.builds.list({ projectId, status: 'deployed' });
    expect(list.total).toBe(2);
    expect(await viewer.builds.log({ projectId, buildId: list.items[0]!.id })).toMatch(/writing site \(fake\)/);
  });

  it('lets an editor cancel a running build, as the REST route does: stopped before the answer, CONFLICT once ended', async () => {
    fake.state.hold = true;
    const editor = await callerFor(t.ctx, tokens.editor);
    const build = await editor.builds.trigger({ projectId });
    await fake.reached(build.id);
    expect((await trpcErrorOf((await callerFor(t.ctx, tokens.viewer)).builds.cancel({ projectId, buildId: build.id }))).code).toBe('FORBIDDEN');
    await editor.builds.cancel({ projectId, buildId: build.id });
    fake.state.hold = false;
    expect((await editor.builds.get({ projectId, buildId: build.id })).status).toBe('cancelled');
    expect(await editor.builds.log({ projectId, buildId: build.id })).toMatch(/cancelled/);
    const again = await trpcErrorOf(editor.builds.cancel({ projectId, buildId: build.id }));
    expect(again.code).toBe('CONFLICT');
    expect(again.message).toBe(`Build ${build.id} already ended; only queued or building builds can be cancelled.`);
    expect((await trpcErrorOf(editor.builds.cancel({ projectId, buildId: 'bld_unknown0000000000000' }))).code).toBe('NOT_FOUND');
  });
});
