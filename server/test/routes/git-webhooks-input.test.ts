/**
 * What the GitHub receivers refuse, and what they do for projects that do not trust a delivery
 * (interface-spec.md "Events", "Errors"; decisions.md sections 2 and 4): no valid signature → 401,
 * no build, payload not stored; a body over 25 MiB → 413; JSON that is not a GitHub event → 400;
 * the monthly build limit → 200 without a build; the GitHub App receiver and its installations.
 * Builds stay queued here (no runner): what counts is whether one was created.
 */
import fs from 'node:fs';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { sign } from '@octokit/webhooks-methods';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { usagePeriodOf } from '@quire/shared/api/usage';
import { createTestApp, type TestApp } from '../helpers/app';
import { createWebhookProject, deliver, deliveries, example, pullRequestPayload, pushPayload, SECRET, type Payload } from './git-webhooks-fixture';

const APP_SECRET = 'the github app webhook secret';
const OTHER_SECRET = 'the other project secret';
const SHA = 'a'.repeat(40);

let t: TestApp;
let a: { id: string; slug: string };
let b: { id: string; slug: string };
let c: { id: string; slug: string };

beforeAll(async () => {
  t = await createTestApp({ env: { QUIRE_GITHUB_APP_WEBHOOK_SECRET: APP_SECRET } });
  // Three projects of the example repository (URL forms differ): A with the test secret, B with another, C with none.
  a = await createWebhookProject(t, { slug: 'alpha' });
  b = await createWebhookProject(t, { slug: 'beta', repoUrl: 'git@github.com:codertocat/hello-world.git', webhookSecret: OTHER_SECRET });
  c = await createWebhookProject(t, { slug: 'gamma', repoUrl: 'https://github.com/CODERTOCAT/Hello-World.git/', webhookSecret: null });
});
afterAll(async () => t?.close());

const buildCount = () => t.ctx.db.prisma.build.count();

/** A push naming `marker` in its commit messages (text that must never be stored). */
function markedPush(marker: string): Payload {
  const p = pushPayload('main', SHA);
  p.commits[0].message = marker;
  p.head_commit.message = marker;
  return p;
}

/** Fails when `marker` is in any row Quire writes for deliveries, or anywhere in the SQLite database files. */
async function expectNotStored(marker: string): Promise<void> {
  const rows = [
    ...(await t.ctx.db.prisma.gitDelivery.findMany()),
    ...(await t.ctx.db.prisma.build.findMany()),
    ...(await t.ctx.db.prisma.idempotencyRecord.findMany()),
  ];
  expect(JSON.stringify(rows)).not.toContain(marker);
  if (t.ctx.db.provider === 'sqlite') {
    for (const file of fs.readdirSync(t.dataDir).filter((f) => f.startsWith('quire.db'))) {
      expect(fs.readFileSync(path.join(t.dataDir, file)).includes(Buffer.from(marker)), file).toBe(false);
    }
  }
}

describe('signatures', () => {
  const cases: [string, (body: string) => Promise<Partial<{ signature: string | null; body: string }>>][] = [
    ['missing', async () => ({ signature: null })],
    ['malformed', async () => ({ signature: 'sha1=0123456789abcdef0123456789abcdef01234567' })],
    ['truncated', async (body) => ({ signature: (await sign(SECRET, body)).slice(0, -2) })],
    ['made with another secret', async (body) => ({ signature: await sign('not the secret of anyone', body) })],
    ['over another body', async (body) => ({ signature: await sign(SECRET, body), body: body.replace('refs/heads/main', 'refs/heads/mainline') })],
    ['empty', async () => ({ signature: '' })],
  ];

  it.each(cases)('a %s signature answers 401, builds nothing and stores no payload', async (_name, tamper) => {
    const marker = `MARKER-${randomUUID()}`;
    const body = JSON.stringify(markedPush(marker));
    const before = await buildCount();
    const res = await deliver(t, null, { event: 'push', body, ...(await tamper(body)) });
    expect(res.statusCode).toBe(401);
    expect(res.json().error.code).toBe('unauthorized');
    expect(res.json().error.message).toMatch(/^Invalid webhook signature/);
    expect(await buildCount()).toBe(before);
    expect(await t.ctx.db.prisma.gitDelivery.count({ where: { signature: 'valid' } })).toBe(0);
    await expectNotStored(marker);
  });

  it('shows a rejected delivery in the debug list of the repository\'s projects, never its payload', async () => {
    const deliveryId = randomUUID();
    const res = await deliver(t, markedPush('REJECTED'), { event: 'push', deliveryId, secret: 'a wrong secret' });
    expect(res.statusCode).toBe(401);
    for (const project of [a, b, c]) {
      const [record] = (await deliveries(t, project.id)).data;
      expect(record).toMatchObject({ deliveryId, event: 'push', signature: 'invalid', outcome: 'rejected', builds: [], repository: 'Codertocat/Hello-World' });
      expect(record.detail).toMatch(/Invalid webhook signature/);
    }
  });

  it('a valid delivery builds only for the projects with its secret; the others see it rejected', async () => {
    const deliveryId = randomUUID();
    const res = await deliver(t, pushPayload('main', SHA), { event: 'push', deliveryId });
    expect(res.statusCode).toBe(200);
    const [id] = res.json().data.builds;
    expect(await t.ctx.db.prisma.build.findUniqueOrThrow({ where: { id } })).toMatchObject({ projectId: a.id, status: 'queued', trigger: 'push', commitSha: SHA, deliveryId });
    expect((await deliveries(t, a.id)).data[0]).toMatchObject({ deliveryId, signature: 'valid', outcome: 'production_build', builds: [id] });
    expect((await deliveries(t, b.id)).data[0]).toMatchObject({ deliveryId, signature: 'invalid', outcome: 'rejected', detail: expect.stringMatching(/another webhook secret/) });
    expect((await deliveries(t, c.id)).data[0]).toMatchObject({ deliveryId, signature: 'invalid', outcome: 'rejected', detail: expect.stringMatching(/no webhook secret/) });
    expect(await t.ctx.db.prisma.build.count({ where: { projectId: { in: [b.id, c.id] } } })).toBe(0);
  });

  it('a valid copy of a delivery id replaces the record a tampered copy left', async () => {
    const deliveryId = randomUUID();
    const payload = pushPayload('feature/x', SHA);
    expect((await deliver(t, payload, { event: 'push', deliveryId, signature: 'sha256=' + '0'.repeat(64) })).statusCode).toBe(401);
    expect((await deliveries(t, a.id)).data[0]).toMatchObject({ deliveryId, signature: 'invalid' });
    const res = await deliver(t, payload, { event: 'push', deliveryId });
    expect(res.json().data).toMatchObject({ preview: true, builds: [expect.any(String)] });
    const mine = (await deliveries(t, a.id, '?per_page=100')).data.filter((d: Payload) => d.deliveryId === deliveryId);
    expect(mine).toEqual([expect.objectContaining({ signature: 'valid', outcome: 'preview_build' })]);
  });
});

describe('bodies and headers', () => {
  it('refuses a body over 25 MiB with 413 in the error envelope', async () => {
    const before = await buildCount();
    const big = Buffer.alloc(26 * 1024 * 1024, 0x20);
    const res = await deliver(t, null, { event: 'push', body: big, signature: 'sha256=' + 'f'.repeat(64) });
    expect(res.statusCode).toBe(413);
    expect(res.json().error).toMatchObject({ code: 'payload_too_large', message: expect.stringMatching(/25 MiB/) });
    expect(await buildCount()).toBe(before);
  });

  it('takes a delivery just under 25 MiB', async () => {
    const payload = pushPayload('main', SHA);
    payload.padding = 'x'.repeat(24 * 1024 * 1024);
    const res = await deliver(t, payload, { event: 'push' });
    expect(res.statusCode).toBe(200);
    expect(res.json().data.builds).toHaveLength(1);
  });

  it.each([
    ['valid JSON that is not a push', 'push', JSON.stringify({ hello: 'world', marker: 'NOT-A-PUSH' }), 'body.ref'],
    ['a pull_request without its pull request', 'pull_request', JSON.stringify({ action: 'opened', number: 1, repository: example('push').repository, marker: 'NOT-A-PUSH' }), 'body.pull_request'],
    ['a JSON array', 'issues', JSON.stringify(['NOT-A-PUSH']), 'body'],
    ['malformed JSON', 'push', '{"ref": "NOT-A-PUSH"', 'body'],
  ])('answers 400 for %s, signed, and stores nothing', async (_name, event, body, field) => {
    const before = await buildCount();
    const deliveryId = randomUUID();
    const res = await deliver(t, null, { event, body, deliveryId });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toMatchObject({ code: 'invalid_request', details: { field } });
    expect(await buildCount()).toBe(before);
    expect(await t.ctx.db.prisma.gitDelivery.count({ where: { deliveryId } })).toBe(0);
    await expectNotStored('NOT-A-PUSH');
  });

  it('answers 400 for text a database cannot store in a member it would record', async () => {
    const payload = pullRequestPayload('opened', 3, 'changes', SHA);
    payload.pull_request.title = 'bad \ud800 title';
    const deliveryId = randomUUID();
    const res = await deliver(t, payload, { event: 'pull_request', deliveryId });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.details.field).toBe('body.pull_request.title');
    expect(await t.ctx.db.prisma.gitDelivery.count({ where: { deliveryId } })).toBe(0);
  });

  it('requires X-GitHub-Event and X-GitHub-Delivery once the signature verified', async () => {
    const payload = pushPayload('main', SHA);
    for (const header of ['x-github-event', 'x-github-delivery']) {
      const res = await deliver(t, payload, { event: 'push', headers: { [header]: null } });
      expect(res.statusCode).toBe(400);
      expect(res.json().error.details.field.toLowerCase()).toBe(header);
    }
    const bad = await deliver(t, payload, { event: 'Push Event' });
    expect(bad.statusCode).toBe(400);
    // The signature comes first: a missing event with a bad signature is a 401.
    expect((await deliver(t, payload, { event: 'push', signature: null, headers: { 'x-github-event': null } })).statusCode).toBe(401);
  });

  it('accepts GitHub\'s form content type (payload=<json>) and refuses other media types', async () => {
    const form = new URLSearchParams({ payload: JSON.stringify(pushPayload('main', SHA)) }).toString();
    const res = await deliver(t, null, { event: 'push', body: form, headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    expect(res.statusCode).toBe(200);
    expect(res.json().data.builds).toHaveLength(1);
    const text = await deliver(t, pushPayload('main', SHA), { event: 'push', headers: { 'content-type': 'text/plain' } });
    expect(text.statusCode).toBe(415);
    expect(text.json().error.code).toBe('unsupported_media_type');
  });

  it('answers with no builds when no project is connected to the repository', async () => {
    const payload = pushPayload('main', SHA);
    for (const key of ['clone_url', 'html_url', 'ssh_url', 'git_url']) payload.repository[key] = String(payload.repository[key]).replace('Hello-World', 'Unrelated');
    payload.repository.full_name = 'Codertocat/Unrelated';
    const res = await deliver(t, payload, { event: 'push' });
    expect(res.json()).toEqual({ data: { builds: [], preview: false } });
    // The project whose secret signed it is told why nothing happened.
    expect((await deliveries(t, a.id)).data[0]).toMatchObject({ outcome: 'ignored', repository: 'Codertocat/Unrelated', detail: expect.stringMatching(/repoUrl/) });
  });
});

describe('monthly build limit', () => {
  it('queues no build past the limit, answers 200 and records why', async () => {
    const org = await t.ctx.db.prisma.project.findUniqueOrThrow({ where: { id: a.id }, select: { orgId: true } });
    const { period } = usagePeriodOf(new Date());
    const key = { orgId_metric_period: { orgId: org.orgId, metric: 'builds', period } };
    const saved = await t.ctx.db.prisma.usageCounter.findUnique({ where: key });
    await t.ctx.db.prisma.usageCounter.upsert({ where: key, create: { orgId: org.orgId, metric: 'builds', period, count: 1_000_000 }, update: { count: 1_000_000 } });
    try {
      const before = await buildCount();
      const res = await deliver(t, pushPayload('main', SHA), { event: 'push' });
      expect(res.statusCode).toBe(200);
      expect(res.json().data).toEqual({ builds: [], preview: false });
      expect(await buildCount()).toBe(before);
      expect((await deliveries(t, a.id)).data[0]).toMatchObject({ outcome: 'refused', builds: [], detail: expect.stringMatching(/per month/) });
    } finally {
      await t.ctx.db.prisma.usageCounter.update({ where: key, data: { count: saved?.count ?? 0 } });
    }
  });
});

describe('POST /v1/webhooks/github-app', () => {
  it('builds for every project connected to the repository, trigger github_app', async () => {
    const deliveryId = randomUUID();
    const res = await deliver(t, pushPayload('main', SHA), { event: 'push', receiver: 'github-app', secret: APP_SECRET, deliveryId });
    expect(res.statusCode).toBe(200);
    const ids: string[] = res.json().data.builds;
    expect(ids).toHaveLength(3);
    const rows = await t.ctx.db.prisma.build.findMany({ where: { id: { in: ids } } });
    expect(rows.map((r) => r.projectId).sort()).toEqual([a.id, b.id, c.id].sort());
    expect(rows.every((r) => r.trigger === 'github_app' && !r.isPreview)).toBe(true);
    expect((await deliveries(t, c.id)).data[0]).toMatchObject({ receiver: 'github-app', deliveryId, signature: 'valid', outcome: 'production_build' });
    // A project's own secret is no signature for the app receiver.
    expect((await deliver(t, pushPayload('main', SHA), { event: 'push', receiver: 'github-app' })).statusCode).toBe(401);
  });

  it('keeps installations from installation and installation_repositories events', async () => {
    const created = example('installation', (p) => p.action === 'created');
    expect((await deliver(t, created, { event: 'installation', receiver: 'github-app', secret: APP_SECRET })).json().data).toEqual({ builds: [], preview: false });
    const id = String(created.installation.id);
    expect(await t.ctx.db.prisma.githubInstallation.findUniqueOrThrow({ where: { id } })).toMatchObject({ account: 'Codertocat', status: 'created', repositories: '["Codertocat/Hello-World"]' });

    const added = example('installation_repositories', (p) => p.action === 'added');
    added.installation.id = created.installation.id;
    await deliver(t, added, { event: 'installation_repositories', receiver: 'github-app', secret: APP_SECRET });
    expect((await t.ctx.db.prisma.githubInstallation.findUniqueOrThrow({ where: { id } })).repositories).toBe('["Codertocat/Hello-World","Codertocat/Space"]');

    const suspended = example('installation', (p) => p.action === 'suspend');
    suspended.installation.id = created.installation.id;
    await deliver(t, suspended, { event: 'installation', receiver: 'github-app', secret: APP_SECRET });
    expect(await t.ctx.db.prisma.githubInstallation.findUniqueOrThrow({ where: { id } })).toMatchObject({ status: 'suspend', repositories: '["Codertocat/Hello-World","Codertocat/Space"]' });
    expect(await t.ctx.db.prisma.gitDelivery.count({ where: { receiver: 'github-app', event: { startsWith: 'installation' }, outcome: 'recorded', projectId: '' } })).toBe(3);
  });

  it('answers 401 when QUIRE_GITHUB_APP_WEBHOOK_SECRET is unset', async () => {
    const bare = await createTestApp();
    try {
      const res = await deliver(bare, pushPayload('main', SHA), { event: 'push', receiver: 'github-app', secret: APP_SECRET });
      expect(res.statusCode).toBe(401);
      expect(res.json().error.message).toMatch(/not configured.*QUIRE_GITHUB_APP_WEBHOOK_SECRET/);
    } finally {
      await bare.close();
    }
  });
});

describe('OpenAPI', () => {
  it('documents the receivers as public and the delivery list', async () => {
    const doc = (await t.app.inject({ url: '/v1/openapi.json' })).json();
    for (const p of ['/v1/webhooks/github', '/v1/webhooks/github-app']) {
      expect(doc.paths[p].post.security).toEqual([]);
      expect(doc.paths[p].post.responses).toHaveProperty('401');
      expect(doc.paths[p].post.responses).toHaveProperty('413');
    }
    expect(doc.paths['/v1/projects/{projectId}/webhook-test/deliveries'].get.responses).toHaveProperty('200');
  });
});
