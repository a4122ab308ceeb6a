/**
 * A replay repeats no side effect (decisions.md section 3: the same `Idempotency-Key` with the same
 * request gets the original answer): for every POST route the app registered that takes the header
 * (`app.idempotentRoutes`, so a new route without a case fails here) and every site POST endpoint
 * that takes it (`SITE_IDEMPOTENT_POSTS`), a request that succeeds is sent twice with one key; the
 * second answer is the replay and changes nothing observable: no database row (records, counters,
 * audit entries, webhook messages), no queued job, no event, no analytics count, no per-route limit
 * count, no webhook delivery.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ModelName } from '../../src/db/generated/internal/prismaNamespace';
import { SITE_IDEMPOTENT_POSTS } from '../../src/sites/site-idempotency';
import { bearer, type TestApp } from '../helpers/app';
import { chatDocsRepo } from '../chat/chat-fixture';
import { createServer, type Server } from '../jobs/approval-fixture';
import { buildAndDeploy, createGatedProject } from '../sites/gate-fixture';
import type { FixtureRepo } from '../helpers/git-repo';
import { registerEndpoint, startReceiver } from '../routes/webhooks-fixture';
import { REPLAY_CASES, type ReplayWorld } from './replay-cases';

const APP_SECRET = 'replay test github app secret';

let server: Server;
let repo: FixtureRepo;
let world: ReplayWorld;
/** Calls of the context's side-effect seams since the app opened, by seam. */
const calls: Record<string, number> = {};

/** Counts calls of `obj[name]` under `label` (the method still runs). */
function count<T extends object>(obj: T, name: keyof T & string, label: string, when: (...args: unknown[]) => boolean = () => true): void {
  const original = (obj[name] as (...args: unknown[]) => unknown).bind(obj);
  (obj as Record<string, unknown>)[name] = (...args: unknown[]) => {
    if (when(...args)) calls[label] = (calls[label] ?? 0) + 1;
    return original(...args);
  };
}

beforeAll(async () => {
  server = await createServer({ QUIRE_ALLOW_PRIVATE_NETWORK: '1', QUIRE_GITHUB_APP_WEBHOOK_SECRET: APP_SECRET });
  repo = chatDocsRepo();
  // Deploy with the build runner, then reopen without it: nothing works in the background while replays are compared.
  const builder = await server.open(true);
  const adminKey = builder.bootstrap.adminKey!;
  const setup = { app: builder, adminKey, ctx: builder.ctx } as TestApp;
  const projectId = await createGatedProject(setup, repo, 'replay');
  await buildAndDeploy(setup, projectId);
  await buildAndDeploy(setup, projectId, { preview: true });
  await builder.close();

  const app = await server.open(false);
  const receiver = await startReceiver();
  const t = { app, adminKey, ctx: app.ctx, dataDir: server.dataDir, close: async () => app.close() } as TestApp;
  world = { t, projectId, host: `replay-docs.localhost:${app.ctx.config.port}`, receiver, appSecret: APP_SECRET };
  await registerEndpoint(app, adminKey, projectId, { url: receiver.url });
  const { ctx } = app;
  count(ctx.jobs, 'enqueue', 'jobs queued');
  count(ctx.events, 'emit', 'events emitted');
  count(ctx.analytics, 'pageView', 'page views counted');
  count(ctx.analytics, 'search', 'searches counted');
  // the API's request limit counts every request, replays included; any other bucket is a route's own limit
  count(ctx.rateLimits, 'hit', 'route limits counted', (bucket) => !/^(ip|org):/.test(String(bucket)));
}, 240_000);

afterAll(async () => {
  await world?.t.app.close();
  await world?.receiver.close();
  await server?.remove();
  repo?.cleanup();
});

/** Lets buffered counts reach the database (analytics, content gaps). */
async function settle(): Promise<void> {
  await world.t.ctx.analytics.flush();
  await world.t.ctx.search.gaps.settle();
}

/** Every row of every table (the time an API key was last used aside: a replay is a use), the seam calls and the webhook deliveries. */
async function observe(): Promise<Record<string, unknown>> {
  await settle();
  const { prisma } = world.t.ctx.db;
  const tables: Record<string, string[]> = {};
  for (const model of Object.values(ModelName)) {
    const delegate = (prisma as unknown as Record<string, { findMany(): Promise<object[]> }>)[model[0]!.toLowerCase() + model.slice(1)]!;
    const rows = await delegate.findMany();
    tables[model] = rows.map((row) => JSON.stringify(model === 'ApiKey' ? { ...row, lastUsedAt: undefined } : row, (_k, v: unknown) => (typeof v === 'bigint' ? String(v) : v))).sort();
  }
  return { tables, calls: { ...calls }, deliveries: world.receiver.requests.length };
}

describe('a replay with the same Idempotency-Key', () => {
  it('has a case for every POST route and site endpoint that takes the header', () => {
    const routes = [...world.t.app.idempotentRoutes, ...SITE_IDEMPOTENT_POSTS.map((path) => `SITE ${path}`)];
    expect(Object.keys(REPLAY_CASES).sort()).toEqual(routes.sort());
  });

  it('answers the stored response and changes nothing observable, on every such route', async () => {
    const routes = [...world.t.app.idempotentRoutes, ...SITE_IDEMPOTENT_POSTS.map((path) => `SITE ${path}`)];
    for (const [i, route] of routes.entries()) {
      const make = REPLAY_CASES[route];
      if (!make) continue; // named by the test above
      const { request, secret } = await make(world);
      const send = () =>
        world.t.app.inject({ method: 'POST', ...request, headers: { ...(request.headers ?? bearer(world.t.adminKey)), 'idempotency-key': `replay-${i}` } });
      const first = await send();
      expect.soft(first.statusCode, `${route}: ${first.body}`).toBeLessThan(300);
      const before = await observe();
      const replay = await send();
      expect.soft(replay.headers['idempotency-replayed'], route).toBe('true');
      expect.soft(replay.statusCode, route).toBe(first.statusCode);
      if (!secret) expect.soft(replay.body, route).toBe(first.body);
      expect.soft(await observe(), route).toEqual(before);
    }
  }, 120_000);
});
