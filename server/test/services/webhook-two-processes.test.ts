/**
 * Two server processes of one installation (one database, Redis for events and the BullMQ job
 * queue): both hear a build's status change, the event is recorded once, and each attempt is made
 * once, whichever process takes its job (decisions.md section 8; queue/job-queue.ts).
 */
import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { Redis } from 'ioredis';
import { Webhook } from 'standardwebhooks';
import { bearer } from '../helpers/app';
import { requireRedis } from '../helpers/services';
import type { FixtureRepo } from '../helpers/git-repo';
import { deletePrefix } from '../events/two-apps';
import { sharedStore, type SharedStore } from '../jobs/schedule-fixture';
import { docsRepo } from '../routes/builds/build-fixture';
import { history, registerEndpoint, startReceiver, waitForEvent, type Receiver } from '../routes/webhooks-fixture';

const redis = await requireRedis();

let store: SharedStore | undefined;
let repo: FixtureRepo | undefined;
let target: Receiver | undefined;
const prefix = `quire-test-${randomUUID().slice(0, 8)}`;

afterAll(async () => {
  await store?.cleanup();
  await target?.close();
  repo?.cleanup();
  if (redis) {
    const conn = new Redis(redis.url);
    await deletePrefix(conn, prefix);
    conn.disconnect();
  }
});

describe.skipIf(!redis)('webhooks with two processes, Redis events and a BullMQ queue', () => {
  it('records an event both processes heard once and makes each attempt once', async () => {
    store = await sharedStore({ REDIS_URL: redis!.url, QUIRE_QUEUE_PREFIX: prefix, QUIRE_ALLOW_PRIVATE_NETWORK: '1' });
    repo = docsRepo();
    target = await startReceiver((n) => (n === 0 ? 500 : 200));
    const a = await store.open();
    const b = await store.open();
    const key = store.adminKey();
    for (const app of [a, b]) {
      app.webhookRunner.configure({ retryDelaysMs: [200] });
      await app.webhookRunner.start();
    }
    const project = await a.inject({ method: 'POST', url: '/v1/projects', headers: bearer(key), payload: { name: 'Two', slug: 'two-processes', repoUrl: repo.path } });
    const projectId = project.json().data.id as string;
    const endpoint = await registerEndpoint(a, key, projectId, { url: target.url, events: ['build.queued'] });
    expect((await a.inject({ method: 'POST', url: `/v1/projects/${projectId}/builds`, headers: bearer(key) })).statusCode).toBe(202);

    const event = await waitForEvent(b, key, endpoint.id, 'build.queued', ['succeeded']);
    expect(event.attemptCount).toBe(2);
    expect((await history(b, key, `?webhook_id=${endpoint.id}`)).json().pagination.total).toBe(1);
    expect(target.requests.map((r) => r.headers['webhook-id'])).toEqual([event.id, event.id]);
    const wh = new Webhook(endpoint.secret);
    for (const r of target.requests) expect(wh.verify(r.body, r.headers)).toMatchObject({ type: 'build.queued', data: { projectId } });
  });
});
