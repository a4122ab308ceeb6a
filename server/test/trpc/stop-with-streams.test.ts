/**
 * A server that stops does not wait for the build-progress streams it holds: a stream would stay
 * open as long as its build runs (and the build is handed back to the queue, not finished, when the
 * server stops), so the stop would hang until the 30 s limit and exit 1. The stream's connection is
 * cut instead, without tRPC's closing `return` event, so the desktop app's subscription reconnects
 * (to another server, or this one once it is back) and carries on.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, type TestApp } from '../helpers/app';
import { fakeBuilder } from '../jobs/fake-builder';
import { seedMember, TEST_PASSWORD } from '../services/identity-fixtures';
import { callerFor } from './trpc-fixtures';

let t: TestApp;
let fake: ReturnType<typeof fakeBuilder>;
let projectId: string;
let baseUrl: string;
let token: string;

beforeAll(async () => {
  t = await createTestApp();
  fake = fakeBuilder();
  t.app.buildRunner.configure({ runBuild: fake.runBuild, pollMs: 100 });
  await t.app.buildRunner.start();
  const res = await t.app.inject({ method: 'POST', url: '/v1/projects', headers: bearer(t.adminKey), payload: { name: 'Stops', slug: 'stops', repoUrl: '/tmp/nowhere' } });
  projectId = res.json().data.id as string;
  const orgId = (await t.ctx.db.prisma.project.findUniqueOrThrow({ where: { id: projectId } })).orgId;
  await seedMember(t.ctx.db, orgId, 'editor@stops.test', 'editor');
  token = (await (await callerFor(t.ctx)).auth.signIn({ email: 'editor@stops.test', password: TEST_PASSWORD })).token;
  baseUrl = await t.app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(async () => t?.close());

describe('stopping a server that holds build-progress streams', () => {
  it('cuts the streams at once and stops, and the client sees a dropped connection, not an ended subscription', async () => {
    fake.state.hold = true;
    const build = await (await callerFor(t.ctx, token)).builds.trigger({ projectId });
    await fake.reached(build.id);
    const input = encodeURIComponent(JSON.stringify({ projectId, buildId: build.id }));
    const res = await fetch(`${baseUrl}/trpc/builds.progress?input=${input}`, { headers: { authorization: `Bearer ${token}`, accept: 'text/event-stream' } });
    expect(res.status).toBe(200);
    const reader = res.body!.getReader();
    let head = '';
    while (!head.includes('"status":"building"')) {
      const chunk = await reader.read();
      if (chunk.done) throw new Error(`the stream ended before the first update: ${head}`);
      head += new TextDecoder().decode(chunk.value);
    }

    // The build is held for ever: only cutting the stream lets the stop finish.
    const stopped = t.app.close().then(() => 'stopped' as const);
    const outcome = await Promise.race([stopped, new Promise<'stuck'>((r) => setTimeout(() => r('stuck'), 15_000))]);
    expect(outcome).toBe('stopped');

    let rest = '';
    try {
      for (;;) {
        const chunk = await reader.read();
        if (chunk.done) break;
        rest += new TextDecoder().decode(chunk.value);
      }
    } catch {
      // the connection was cut mid-stream: what a reconnecting client expects
    }
    // No `event: return` (which would end the client's subscription for good) and no final update.
    expect(rest).not.toContain('event: return');
    expect(rest).not.toContain('"done":true');
  }, 30_000);
});
