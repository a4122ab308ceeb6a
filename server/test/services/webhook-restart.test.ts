/**
 * Pending webhook deliveries survive a restart (decisions.md section 8; COMMON: accepted data is
 * never lost): an event recorded by a server that stopped before delivering it (its in-process
 * jobs died with it) is delivered by the next server on the same data directory and database.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Webhook } from 'standardwebhooks';
import { bearer } from '../helpers/app';
import type { FixtureRepo } from '../helpers/git-repo';
import { sharedStore, type SharedStore } from '../jobs/schedule-fixture';
import { docsRepo } from '../routes/builds/build-fixture';
import { history, registerEndpoint, startReceiver, waitFor, waitForEvent, type ListedEvent, type Receiver } from '../routes/webhooks-fixture';

let store: SharedStore;
let repo: FixtureRepo;
let target: Receiver;

beforeAll(async () => {
  store = await sharedStore({ QUIRE_ALLOW_PRIVATE_NETWORK: '1' });
  repo = docsRepo();
});
afterAll(async () => {
  await store.cleanup();
  await target?.close();
  repo.cleanup();
});

describe('webhook deliveries across a restart', () => {
  it('delivers after a restart what a stopped server recorded but did not deliver', async () => {
    target = await startReceiver(() => 200);
    // First server: records events, makes no deliveries (its webhook runner is not started).
    const first = await store.open();
    const key = store.adminKey();
    const created = await first.inject({ method: 'POST', url: '/v1/projects', headers: bearer(key), payload: { name: 'Restart', slug: 'restart', repoUrl: repo.path } });
    const projectId = created.json().data.id as string;
    const endpoint = await registerEndpoint(first, key, projectId, { url: target.url, events: ['build.queued'] });
    const build = await first.inject({ method: 'POST', url: `/v1/projects/${projectId}/builds`, headers: bearer(key) });
    expect(build.statusCode).toBe(202);
    const pending = await waitFor('the recorded event', async () => {
      const event = ((await history(first, key, `?webhook_id=${endpoint.id}`)).json().data as ListedEvent[])[0];
      return event;
    });
    expect(pending).toMatchObject({ type: 'build.queued', status: 'pending', attemptCount: 0 });
    await first.close();
    expect(target.requests).toHaveLength(0);

    // Second server on the same data: its runner picks the pending delivery up from the database.
    const second = await store.open();
    await second.webhookRunner.start();
    const delivered = await waitForEvent(second, key, endpoint.id, 'build.queued', ['succeeded']);
    expect(delivered.id).toBe(pending.id);
    expect(target.requests).toHaveLength(1);
    const payload = new Webhook(endpoint.secret).verify(target.requests[0]!.body, target.requests[0]!.headers);
    expect(payload).toMatchObject({ type: 'build.queued', data: { id: build.json().data.id, projectId } });
    await second.close();
  });

  it('makes the retry after a restart that a stopped server had scheduled', async () => {
    let healthy = false;
    const flaky = await startReceiver(() => (healthy ? 200 : 500));
    try {
      const first = await store.open();
      const key = store.adminKey();
      // The retry is due 3 s after the failed attempt: long after this server is closed.
      first.webhookRunner.configure({ retryDelaysMs: [3_000] });
      await first.webhookRunner.start();
      const created = await first.inject({ method: 'POST', url: '/v1/projects', headers: bearer(key), payload: { name: 'Retry', slug: 'retry', repoUrl: repo.path } });
      const projectId = created.json().data.id as string;
      const endpoint = await registerEndpoint(first, key, projectId, { url: flaky.url, events: ['build.queued'] });
      await first.inject({ method: 'POST', url: `/v1/projects/${projectId}/builds`, headers: bearer(key) });
      const failedOnce = await waitFor('the first failed attempt', async () => {
        const event = ((await history(first, key, `?webhook_id=${endpoint.id}`)).json().data as ListedEvent[])[0];
        return event && event.attemptCount === 1 ? event : undefined;
      });
      expect(failedOnce).toMatchObject({ status: 'pending', lastStatusCode: 500 });
      await first.close();
      expect(flaky.requests).toHaveLength(1);

      healthy = true;
      const second = await store.open();
      await second.webhookRunner.start();
      const delivered = await waitForEvent(second, key, endpoint.id, 'build.queued', ['succeeded']);
      expect(delivered).toMatchObject({ id: failedOnce.id, attemptCount: 2, lastStatusCode: 200 });
      expect(flaky.requests.map((r) => r.headers['webhook-id'])).toEqual([failedOnce.id, failedOnce.id]);
      await second.close();
    } finally {
      await flaky.close();
    }
  });
});
