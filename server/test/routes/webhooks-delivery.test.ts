/**
 * Delivering outgoing webhooks to a local receiver (decisions.md section 8): Standard Webhooks
 * signatures checked with the `standardwebhooks` library itself, retries on a short schedule,
 * every attempt visible through the history API, manual redelivery, and the history scoped to the
 * caller's organization. Events come from queued builds (the build runner is off: builds stay
 * queued) and review status changes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Webhook } from 'standardwebhooks';
import { bearer, createKey, createOrgWithKey, createTestApp, type TestApp } from '../helpers/app';
import type { FixtureRepo } from '../helpers/git-repo';
import { createProject, docsRepo, trigger } from './builds/build-fixture';
import { memberWithKey } from './reviews-fixture';
import { history, registerEndpoint, startReceiver, waitForEvent, type Receiver } from './webhooks-fixture';

let t: TestApp;
let repo: FixtureRepo;
const receivers: Receiver[] = [];
let slugs = 0;

/** A new project on the fixture repository (one queued build each: the runner is off). */
async function newProject(): Promise<string> {
  return (await createProject(t, repo, `hooks-${++slugs}`)).id;
}

async function receiver(statusFor?: (n: number) => number): Promise<Receiver> {
  const r = await startReceiver(statusFor);
  receivers.push(r);
  return r;
}

beforeAll(async () => {
  t = await createTestApp({ env: { QUIRE_ALLOW_PRIVATE_NETWORK: '1' } });
  t.app.webhookRunner.configure({ retryDelaysMs: [100, 100, 100] });
  await t.app.webhookRunner.start();
  repo = docsRepo();
});
afterAll(async () => {
  await t.close();
  await Promise.all(receivers.map((r) => r.close()));
  repo.cleanup();
});

describe('webhook delivery', () => {
  it('retries a failing endpoint until it answers 2xx, signing every attempt, and shows each attempt', async () => {
    const projectId = await newProject();
    const target = await receiver((n) => (n < 2 ? 500 : 204));
    const endpoint = await registerEndpoint(t.app, t.adminKey, projectId, { url: target.url, events: ['build.queued'] });
    const build = (await trigger(t, projectId)).json().data;

    const event = await waitForEvent(t.app, t.adminKey, endpoint.id, 'build.queued', ['succeeded']);
    expect(event).toMatchObject({ projectId, webhookId: endpoint.id, url: target.url, attemptCount: 3, lastStatusCode: 204, nextAttemptAt: null });
    expect(event.id).toMatch(/^msg_/);

    // The receiver's view: three signed deliveries of one event, verified by the library itself.
    expect(target.requests).toHaveLength(3);
    const wh = new Webhook(endpoint.secret);
    for (const request of target.requests) {
      expect(request.headers['content-type']).toBe('application/json');
      expect(request.headers['user-agent']).toMatch(/^Quire-Webhooks\//);
      expect(request.headers['webhook-id']).toBe(event.id);
      const payload = wh.verify(request.body, request.headers) as { type: string; timestamp: string; data: Record<string, unknown> };
      expect(payload).toMatchObject({ type: 'build.queued', data: { id: build.id, projectId, status: 'queued', trigger: 'api', branch: 'main' } });
      expect(Date.parse(payload.timestamp)).not.toBeNaN();
    }
    expect(new Set(target.requests.map((r) => r.body)).size).toBe(1);
    // A signature made with another secret does not verify.
    expect(() => new Webhook(`whsec_${Buffer.alloc(24, 7).toString('base64')}`).verify(target.requests[0]!.body, target.requests[0]!.headers)).toThrow();

    const detail = await t.app.inject({ url: `/v1/webhooks/event/${event.id}`, headers: { 'api-key': t.adminKey } });
    expect(detail.statusCode).toBe(200);
    const data = detail.json().data;
    expect(data).toMatchObject({ id: event.id, type: 'build.queued', status: 'succeeded', attemptCount: 3 });
    expect(data.payload).toEqual(JSON.parse(target.requests[0]!.body));
    expect(
      data.attempts.map((a: { attempt: number; statusCode: number; outcome: string; trigger: string }) => [a.attempt, a.statusCode, a.outcome, a.trigger]),
    ).toEqual([
      [1, 500, 'failed', 'automatic'],
      [2, 500, 'failed', 'automatic'],
      [3, 204, 'succeeded', 'automatic'],
    ]);
    expect(data.attempts[0]).toMatchObject({ eventId: event.id, url: target.url, responseBody: 'answer 0', error: expect.stringContaining('500') });
    expect(data.attempts[2]).toMatchObject({ responseBody: '', error: null }); // 204: no body
    expect(data.attempts[2].requestHeaders).toMatchObject({
      'webhook-id': event.id,
      'webhook-timestamp': target.requests[2]!.headers['webhook-timestamp'],
      'webhook-signature': target.requests[2]!.headers['webhook-signature'],
    });
    expect(data.headers).toEqual(data.attempts[2].requestHeaders);

    const calls = await t.app.inject({ url: `/v1/webhooks/calls/${event.id}`, headers: { 'api-key': t.adminKey } });
    expect(calls.statusCode).toBe(200);
    expect(calls.json().data).toEqual(data.attempts);
  });

  it('marks an event failed once the retry schedule is used up', async () => {
    const projectId = await newProject();
    const target = await receiver(() => 503);
    const endpoint = await registerEndpoint(t.app, t.adminKey, projectId, { url: target.url });
    await trigger(t, projectId);
    const event = await waitForEvent(t.app, t.adminKey, endpoint.id, 'build.queued', ['failed']);
    // One attempt plus one per retry delay (three in this app).
    expect(event).toMatchObject({ attemptCount: 4, lastStatusCode: 503, nextAttemptAt: null, deliveredAt: null });
    expect(target.requests).toHaveLength(4);
    const failedList = (await history(t.app, t.adminKey, `?status=failed&project_id=${projectId}`)).json();
    expect(failedList.data.map((e: { id: string }) => e.id)).toEqual([event.id]);
  });

  it('sends only the event types an endpoint subscribed to', async () => {
    const projectId = await newProject();
    const everything = await receiver();
    const deployedOnly = await receiver();
    const all = await registerEndpoint(t.app, t.adminKey, projectId, { url: everything.url });
    const some = await registerEndpoint(t.app, t.adminKey, projectId, { url: deployedOnly.url, events: ['build.deployed'] });
    await trigger(t, projectId);
    await waitForEvent(t.app, t.adminKey, all.id, 'build.queued', ['succeeded']);
    expect((await history(t.app, t.adminKey, `?webhook_id=${some.id}`)).json().pagination.total).toBe(0);
    expect(deployedOnly.requests).toHaveLength(0);
  });

  it('redelivers an event at once for a key with webhook:create, and refuses a key without it', async () => {
    const projectId = await newProject();
    const target = await receiver();
    const endpoint = await registerEndpoint(t.app, t.adminKey, projectId, { url: target.url, events: ['build.queued'] });
    await trigger(t, projectId);
    const event = await waitForEvent(t.app, t.adminKey, endpoint.id, 'build.queued', ['succeeded']);

    const reader = await createKey(t, ['projects:read']);
    const denied = await t.app.inject({ method: 'POST', url: `/v1/webhooks/event/send/${event.id}`, headers: { 'api-key': reader.key } });
    expect(denied.statusCode).toBe(403);
    expect(denied.json().error.code).toBe('forbidden');
    expect(target.requests).toHaveLength(1);

    const sender = await createKey(t, ['webhook:create']);
    const sent = await t.app.inject({ method: 'POST', url: `/v1/webhooks/event/send/${event.id}`, headers: { 'api-key': sender.key } });
    expect(sent.statusCode).toBe(200);
    expect(sent.json().data).toMatchObject({ eventId: event.id, attempt: 2, trigger: 'manual', statusCode: 200, outcome: 'succeeded' });
    expect(target.requests).toHaveLength(2);
    const again = target.requests[1]!;
    expect(again.headers['webhook-id']).toBe(event.id);
    expect(new Webhook(endpoint.secret).verify(again.body, again.headers)).toMatchObject({ type: 'build.queued' });

    // The history needs admin (decisions.md section 2).
    expect((await t.app.inject({ url: `/v1/webhooks/calls/${event.id}`, headers: { 'api-key': reader.key } })).statusCode).toBe(403);
    const calls = await t.app.inject({ url: `/v1/webhooks/calls/${event.id}`, headers: { 'api-key': t.adminKey } });
    expect(calls.json().data.map((a: { trigger: string }) => a.trigger)).toEqual(['automatic', 'manual']);
  });

  it('redelivers a failed event manually, which then counts as succeeded', async () => {
    const projectId = await newProject();
    let healthy = false;
    const target = await receiver(() => (healthy ? 200 : 500));
    const endpoint = await registerEndpoint(t.app, t.adminKey, projectId, { url: target.url, events: ['build.queued'] });
    await trigger(t, projectId);
    const event = await waitForEvent(t.app, t.adminKey, endpoint.id, 'build.queued', ['failed']);
    healthy = true;
    const sent = await t.app.inject({ method: 'POST', url: `/v1/webhooks/event/send/${event.id}`, headers: { 'api-key': t.adminKey } });
    expect(sent.json().data).toMatchObject({ trigger: 'manual', outcome: 'succeeded', attempt: 5 });
    const detail = (await t.app.inject({ url: `/v1/webhooks/event/${event.id}`, headers: { 'api-key': t.adminKey } })).json().data;
    expect(detail).toMatchObject({ status: 'succeeded', attemptCount: 5, lastStatusCode: 200 });
    expect(detail.deliveredAt).toEqual(expect.any(String));
  });

  it('sends review.updated when a review changes status', async () => {
    const projectId = await newProject();
    const target = await receiver();
    const endpoint = await registerEndpoint(t.app, t.adminKey, projectId, { url: target.url, events: ['review.updated'] });
    const review = await t.app.inject({
      method: 'POST',
      url: `/v1/projects/${projectId}/reviews`,
      headers: bearer(t.adminKey),
      payload: { title: 'Fix setup', changes: [{ path: 'guides/setup.mdx', content: '---\ntitle: Setup\n---\n\nFixed.\n' }] },
    });
    expect(review.statusCode, review.body).toBe(201);
    const reviewId = review.json().data.id as string;
    const closed = await t.app.inject({ method: 'PATCH', url: `/v1/projects/${projectId}/reviews/${reviewId}`, headers: bearer(t.adminKey), payload: { status: 'closed' } });
    expect(closed.statusCode).toBe(200);
    await waitForEvent(t.app, t.adminKey, endpoint.id, 'review.updated', ['succeeded']);
    const payload = new Webhook(endpoint.secret).verify(target.requests[0]!.body, target.requests[0]!.headers);
    expect(payload).toMatchObject({ type: 'review.updated', data: { id: reviewId, projectId, status: 'closed', title: 'Fix setup', revision: 1 } });
    // A title edit is not a status or revision change: no second event.
    await t.app.inject({ method: 'PATCH', url: `/v1/projects/${projectId}/reviews/${reviewId}`, headers: bearer(t.adminKey), payload: { title: 'Fix the setup guide' } });
    expect((await history(t.app, t.adminKey, `?webhook_id=${endpoint.id}`)).json().pagination.total).toBe(1);
  });
  it('sends approval.updated when an approval is decided', async () => {
    const projectId = await newProject();
    const target = await receiver();
    const endpoint = await registerEndpoint(t.app, t.adminKey, projectId, { url: target.url, events: ['approval.updated'] });
    const buildId = (await trigger(t, projectId)).json().data.id as string;
    const requested = await t.app.inject({ method: 'POST', url: `/v1/projects/${projectId}/approvals`, headers: bearer(t.adminKey), payload: { buildId } });
    expect(requested.statusCode, requested.body).toBe(201);
    const approvalId = requested.json().data.id as string;
    const approver = await memberWithKey(t, `approver-${projectId.toLowerCase()}@acme.test`, 'reviewer', ['projects:read', 'projects:write']);
    const approved = await t.app.inject({ method: 'POST', url: `/v1/projects/${projectId}/approvals/${approvalId}/approve`, headers: bearer(approver.key), payload: {} });
    expect(approved.statusCode, approved.body).toBe(200);
    await waitForEvent(t.app, t.adminKey, endpoint.id, 'approval.updated', ['succeeded']);
    const payload = new Webhook(endpoint.secret).verify(target.requests[0]!.body, target.requests[0]!.headers);
    expect(payload).toMatchObject({ type: 'approval.updated', data: { id: approvalId, buildId, projectId, status: 'approved', approvals: [{ user: { id: approver.userId } }] } });
  });
});

describe('webhook history API', () => {
  let projectId: string;
  let eventId: string;

  beforeAll(async () => {
    projectId = await newProject();
    const target = await receiver();
    const endpoint = await registerEndpoint(t.app, t.adminKey, projectId, { url: target.url });
    await trigger(t, projectId);
    eventId = (await waitForEvent(t.app, t.adminKey, endpoint.id, 'build.queued', ['succeeded'])).id;
  });

  it('lists newest first with filters and {page, perPage, total, totalPages}', async () => {
    const res = await history(t.app, t.adminKey, '?per_page=2&page=1');
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.pagination).toMatchObject({ page: 1, perPage: 2 });
    expect(body.pagination.total).toBeGreaterThanOrEqual(5);
    expect(body.pagination.totalPages).toBe(Math.ceil(body.pagination.total / 2));
    const all = (await history(t.app, t.adminKey, '?per_page=100')).json().data as Array<{ createdAt: string }>;
    const times = all.map((e) => Date.parse(e.createdAt));
    expect(times).toEqual([...times].sort((a, b) => b - a));

    const mine = (await history(t.app, t.adminKey, `?project_id=${projectId}&event_type=build.queued&status=succeeded`)).json();
    expect(mine.data.map((e: { id: string }) => e.id)).toEqual([eventId]);
    expect((await history(t.app, t.adminKey, `?project_id=${projectId}&event_type=build.failed`)).json().data).toEqual([]);
    const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
    expect((await history(t.app, t.adminKey, `?project_id=${projectId}&from=${tomorrow}`)).json().data).toEqual([]);
    expect((await history(t.app, t.adminKey, `?project_id=${projectId}&to=${tomorrow}`)).json().data).toHaveLength(1);
    // A date alone as `to` covers that whole day (UTC).
    const createdAt = Date.parse(mine.data[0].createdAt);
    const day = new Date(createdAt).toISOString().slice(0, 10);
    expect((await history(t.app, t.adminKey, `?project_id=${projectId}&from=${day}&to=${day}`)).json().data).toHaveLength(1);
    const yesterday = new Date(createdAt - 86_400_000).toISOString().slice(0, 10);
    expect((await history(t.app, t.adminKey, `?project_id=${projectId}&to=${yesterday}`)).json().data).toEqual([]);
  });

  it.each([
    ['?status=done', 'status'],
    ['?event_type=build.started', 'event_type'],
    ['?from=yesterday', 'from'],
    ['?from=2025-02-01&to=2025-01-01', 'to'],
    ['?page=0', 'page'],
  ])('refuses %s with 400 naming the field', async (query, field) => {
    const res = await history(t.app, t.adminKey, query);
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toMatchObject({ code: 'invalid_request', details: { field } });
  });

  it('answers 404 for an unknown event', async () => {
    for (const url of ['/v1/webhooks/event/msg_unknown', '/v1/webhooks/calls/msg_unknown']) {
      expect((await t.app.inject({ url, headers: { 'api-key': t.adminKey } })).statusCode).toBe(404);
    }
    expect((await t.app.inject({ method: 'POST', url: '/v1/webhooks/event/send/msg_unknown', headers: { 'api-key': t.adminKey } })).statusCode).toBe(404);
  });

  it("hides one organization's events from another, and a project's from a key scoped to another project", async () => {
    const other = await createOrgWithKey(t);
    const list = await history(t.app, other.key);
    expect(list.statusCode).toBe(200);
    expect(list.json()).toMatchObject({ data: [], pagination: { total: 0 } });
    expect((await history(t.app, other.key, `?project_id=${projectId}`)).statusCode).toBe(404);
    for (const url of [`/v1/webhooks/event/${eventId}`, `/v1/webhooks/calls/${eventId}`]) {
      const res = await t.app.inject({ url, headers: { 'api-key': other.key } });
      expect(res.statusCode).toBe(404);
      expect(res.json().error.code).toBe('not_found');
    }
    expect((await t.app.inject({ method: 'POST', url: `/v1/webhooks/event/send/${eventId}`, headers: { 'api-key': other.key } })).statusCode).toBe(404);

    const elsewhere = await newProject();
    const scoped = await createKey(t, ['admin'], { projectId: elsewhere });
    expect((await t.app.inject({ url: `/v1/webhooks/event/${eventId}`, headers: { 'api-key': scoped.key } })).statusCode).toBe(404);
    expect((await history(t.app, scoped.key)).json().data.map((e: { projectId: string }) => e.projectId)).not.toContain(projectId);
    expect((await t.app.inject({ url: `/v1/webhooks/event/${eventId}`, headers: { 'api-key': t.adminKey } })).statusCode).toBe(200);
  });

  it('needs an API key', async () => {
    expect((await t.app.inject({ url: '/v1/webhooks/history' })).statusCode).toBe(401);
  });
});
