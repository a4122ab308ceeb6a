/**
 * A real build (the in-process runner, a fixture repository) announces itself to a registered
 * endpoint: `build.queued`, then `build.deployed` with the build as the API shows it
 * (decisions.md section 8).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Webhook } from 'standardwebhooks';
import { bearer, createTestApp, type TestApp } from '../helpers/app';
import type { FixtureRepo } from '../helpers/git-repo';
import { createProject, docsRepo, trigger, waitForStatus } from './builds/build-fixture';
import { history, registerEndpoint, startReceiver, waitFor, type ListedEvent, type Receiver } from './webhooks-fixture';

let t: TestApp;
let repo: FixtureRepo;
let target: Receiver;

beforeAll(async () => {
  t = await createTestApp({ runJobs: true, env: { QUIRE_ALLOW_PRIVATE_NETWORK: '1' } });
  repo = docsRepo('HOOKED');
  target = await startReceiver();
});
afterAll(async () => {
  await t.close();
  await target.close();
  repo.cleanup();
});

describe('events of a real build', () => {
  it('delivers build.queued then build.deployed, signed, with the build as GET .../builds/{id} shows it', async () => {
    const project = await createProject(t, repo, 'hooked');
    const endpoint = await registerEndpoint(t.app, t.adminKey, project.id, { url: target.url });
    const res = await trigger(t, project.id);
    expect(res.statusCode).toBe(202);
    const buildId = res.json().data.id as string;
    await waitForStatus(t, project.id, buildId, ['deployed']);

    const events = await waitFor('both build events delivered', async () => {
      const list = (await history(t.app, t.adminKey, `?webhook_id=${endpoint.id}`)).json().data as ListedEvent[];
      return list.length === 2 && list.every((e) => e.status === 'succeeded') ? list : undefined;
    });
    // Newest first.
    expect(events.map((e) => e.type)).toEqual(['build.deployed', 'build.queued']);

    const wh = new Webhook(endpoint.secret);
    const received = target.requests.map((r) => wh.verify(r.body, r.headers) as { type: string; timestamp: string; data: Record<string, unknown> });
    const queued = received.find((p) => p.type === 'build.queued');
    const deployed = received.find((p) => p.type === 'build.deployed');
    expect(received).toHaveLength(2);
    expect(queued).toMatchObject({ data: { id: buildId, projectId: project.id, status: 'queued' } });
    expect(Date.parse(queued!.timestamp)).toBeLessThanOrEqual(Date.parse(deployed!.timestamp));
    const shown = (await t.app.inject({ url: `/v1/projects/${project.id}/builds/${buildId}`, headers: bearer(t.adminKey) })).json().data;
    expect(deployed!.data).toEqual({ ...shown, projectId: project.id });
    expect(deployed!.data).toMatchObject({ status: 'deployed', url: 'http://hooked-docs.localhost:4000/', error: null });
  });
});
