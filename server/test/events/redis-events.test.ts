/**
 * Events across processes through Redis pub/sub (events.ts, events/redis-transport.ts), against
 * the real Redis of the machine (skipped with a message when absent, failing on CI).
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Redis } from 'ioredis';
import { EventBus, type QuireEvents } from '../../src/events';
import { RedisEventTransport, subscriberName } from '../../src/events/redis-transport';
import { closeRedis, openRedis } from '../../src/redis';
import { requireRedis } from '../helpers/services';
import { bearer } from '../helpers/app';
import { createApiKey } from '../../src/services/api-keys';
import { createTwoApps, deletePrefix, type TwoApps } from './two-apps';

const redis = await requireRedis();
const silent = { warn: () => {} };

/** Resolves with the first `event` heard on `bus`, or rejects after `ms`. */
function next<K extends keyof QuireEvents>(bus: EventBus, event: K, ms = 2_000): Promise<QuireEvents[K]> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no ${String(event)} within ${ms} ms`)), ms);
    bus.once(event as keyof QuireEvents, ((...args: QuireEvents[K]) => {
      clearTimeout(timer);
      resolve(args);
    }) as never);
  });
}

/** CLIENT KILL of every connection named `name` (the subscribers of this file's buses). */
async function redisKill(name: string): Promise<void> {
  const admin = new Redis(redis!.url);
  try {
    const list = (await admin.client('LIST')) as string;
    const ids = list.split('\n').filter((l) => l.includes(` name=${name} `)).map((l) => /id=(\d+)/.exec(l)![1]!);
    expect(ids.length).toBeGreaterThan(0);
    for (const id of ids) await admin.client('KILL', 'ID', id);
  } finally {
    await admin.quit();
  }
}

describe('event bus without a reachable transport', () => {
  it('a bus whose Redis does not answer refuses to become ready, naming REDIS_URL', async () => {
    const dead = openRedis('redis://127.0.0.1:1', silent, 'quire-test-dead');
    try {
      const bus = new EventBus(new RedisEventTransport(dead, 'quire-test-dead', silent, 300));
      await expect(bus.ready()).rejects.toThrow(/REDIS_URL: could not subscribe .* is Redis reachable/);
    } finally {
      dead.disconnect();
    }
  });

  it('a bus without a transport stays in its process', () => {
    const local = new EventBus();
    const heard: unknown[] = [];
    local.on('project.changed', (p) => heard.push(p));
    local.emit('project.changed', { projectId: 'prj_local' });
    expect(local.distributed).toBe(false);
    expect(heard).toEqual([{ projectId: 'prj_local' }]);
  });
});

describe.skipIf(!redis)('event bus over Redis pub/sub', () => {
  const opened: { bus: EventBus; conn: Redis }[] = [];
  const prefix = `quire-test-${randomUUID().slice(0, 8)}`;

  async function bus(busPrefix = prefix): Promise<EventBus> {
    const conn = openRedis(redis!.url, silent, 'quire-test');
    const b = new EventBus(new RedisEventTransport(conn, busPrefix, silent));
    opened.push({ bus: b, conn });
    await b.ready();
    return b;
  }

  afterAll(async () => {
    for (const { bus: b, conn } of opened) {
      await b.close();
      await closeRedis(conn);
    }
  });

  it('delivers a shared event to the other process once, and to local listeners once, synchronously', async () => {
    const a = await bus();
    const b = await bus();
    const heardOnA: unknown[] = [];
    const heardOnB: unknown[] = [];
    a.on('apiKey.revoked', (p) => heardOnA.push(p));
    b.on('apiKey.revoked', (p) => heardOnB.push(p));
    const arrived = next(b, 'apiKey.revoked');
    a.emit('apiKey.revoked', { keyId: 'key_1', hash: 'h1' });
    expect(heardOnA).toEqual([{ keyId: 'key_1', hash: 'h1' }]); // before any round trip
    expect(await arrived).toEqual([{ keyId: 'key_1', hash: 'h1' }]);
    // A's own message came back from Redis too; give it time, then check nothing ran twice.
    await new Promise((r) => setTimeout(r, 100));
    expect(heardOnA).toHaveLength(1);
    expect(heardOnB).toHaveLength(1);
  });

  it('carries every cross-process event and keeps installations with other prefixes apart', async () => {
    const a = await bus();
    const b = await bus();
    const stranger = await bus(`${prefix}-other`);
    const overheard: unknown[] = [];
    stranger.on('deployment.changed', (p) => overheard.push(p));
    const cases: { [K in keyof QuireEvents]?: QuireEvents[K][0] } = {
      'project.changed': { projectId: 'prj_1', slug: 'docs', deleted: true },
      'organization.changed': { orgId: 'org_1' },
      'deployment.changed': { projectId: 'prj_1' },
      'build.status': { projectId: 'prj_1', buildId: 'bld_1', status: 'cancelled' },
    };
    for (const [event, payload] of Object.entries(cases)) {
      const arrived = next(b, event as keyof QuireEvents);
      a.emit(event as 'deployment.changed', payload as QuireEvents['deployment.changed'][0]);
      expect(await arrived).toEqual([payload]);
    }
    await new Promise((r) => setTimeout(r, 100));
    expect(overheard).toEqual([]);
  });

  it('emits reconnected after the subscriber lost its connection, and hears events again', async () => {
    const own = `${prefix}-cut`;
    const a = await bus(own);
    const b = await bus(own);
    const reconnected = Promise.all([next(a, 'reconnected', 5_000), next(b, 'reconnected', 5_000)]);
    // Kill this test's subscriber connections on the server side, as a Redis restart or network cut would.
    await redisKill(subscriberName(own));
    await reconnected;
    const arrived = next(b, 'deployment.changed');
    a.emit('deployment.changed', { projectId: 'prj_after' });
    expect(await arrived).toEqual([{ projectId: 'prj_after' }]);
  });

  it('a connection lost again while subscribing anew is logged, never an unhandled rejection (which would end the process)', async () => {
    const warned: string[] = [];
    const log = { warn: (_: object, msg: string) => warned.push(msg) };
    const conn = openRedis(redis!.url, log, 'quire-test');
    const transport = new RedisEventTransport(conn, `${prefix}-flaky`, log);
    const b = new EventBus(transport);
    opened.push({ bus: b, conn });
    await b.ready();
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    try {
      // The subscriber and its socket are private; reach them to cut the connection exactly while
      // it subscribes anew, before Redis can answer.
      const subscriber = (transport as unknown as { subscriber: Redis & { stream: { destroy(): void } } }).subscriber;
      const cutOnReady = new Promise<void>((resolve) => {
        subscriber.once('ready', () => {
          subscriber.disconnect();
          subscriber.stream.destroy(); // the SUBSCRIBE sent on `ready` now fails with "Connection is closed"
          resolve();
        });
      });
      subscriber.disconnect(true); // drop and reconnect
      await cutOnReady;
      await new Promise((r) => setTimeout(r, 100));
      expect(unhandled).toEqual([]);
      expect(warned).toContain('could not subscribe to Redis again; retrying on the next connection');
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
  });

  afterAll(async () => {
    const admin = new Redis(redis!.url);
    await deletePrefix(admin, prefix);
    await admin.quit();
  });
});

describe.skipIf(!redis)('two server processes sharing Redis', () => {
  let apps: TwoApps;
  beforeAll(async () => {
    apps = await createTwoApps(redis!.url);
  });
  afterAll(async () => apps?.close());

  it('a key revoked through app A is refused by app B within one second', async () => {
    const created = await apps.a.inject({ method: 'POST', url: '/v1/api-keys', headers: bearer(apps.adminKey), payload: { name: 'moving', permissions: ['projects:read'] } });
    expect(created.statusCode).toBe(201);
    const { id, key } = created.json().data as { id: string; key: string };
    // B has the key in its cache (trusted for 60 s without the event).
    expect((await apps.b.inject({ url: '/v1/projects', headers: bearer(key) })).statusCode).toBe(200);
    expect((await apps.b.inject({ url: '/v1/projects', headers: bearer(key) })).statusCode).toBe(200);

    const revoked = await apps.a.inject({ method: 'DELETE', url: `/v1/api-keys/${id}`, headers: bearer(apps.adminKey) });
    expect(revoked.statusCode).toBeLessThan(300);
    const start = Date.now();
    let status = 200;
    while (Date.now() - start < 1_000) {
      status = (await apps.b.inject({ url: '/v1/projects', headers: bearer(key) })).statusCode;
      if (status === 401) break;
      await new Promise((r) => setTimeout(r, 10));
    }
    expect(status).toBe(401);
    expect(Date.now() - start).toBeLessThan(1_000);
  });

  it('a key cache resyncs after a lost connection: a revocation whose event was missed is seen', async () => {
    const { key, record } = await createApiKey(apps.a.ctx.db, { orgId: apps.a.bootstrap.orgId!, createdById: null, name: 'missed', permissions: ['projects:read'] });
    expect((await apps.b.inject({ url: '/v1/projects', headers: bearer(key) })).statusCode).toBe(200);
    // Revoked while no event is sent (as if the message was lost while B was disconnected).
    await apps.a.ctx.db.prisma.apiKey.update({ where: { id: record.id }, data: { revokedAt: new Date() } });
    expect((await apps.b.inject({ url: '/v1/projects', headers: bearer(key) })).statusCode).toBe(200);
    const reconnected = Promise.all([next(apps.a.ctx.events, 'reconnected', 5_000), next(apps.b.ctx.events, 'reconnected', 5_000)]);
    await redisKill(subscriberName(apps.prefix));
    await reconnected;
    expect((await apps.b.inject({ url: '/v1/projects', headers: bearer(key) })).statusCode).toBe(401);
  });

  it('project and site caches resync after a lost connection: a rename whose event was missed is seen', async () => {
    // The creation's own project.changed reaches B through Redis a moment later; wait for it, or it
    // would empty B's cache after the silent rename below.
    const createdSeen = next(apps.b.ctx.events, 'project.changed', 5_000);
    const made = await apps.a.inject({ method: 'POST', url: '/v1/projects', headers: bearer(apps.adminKey), payload: { name: 'Before', slug: 'resync' } });
    expect(made.statusCode).toBe(201);
    await createdSeen;
    const id = made.json().data.id as string;
    const name = async () => (await apps.b.inject({ url: `/v1/projects/${id}`, headers: bearer(apps.adminKey) })).json().data.name as string;
    expect(await name()).toBe('Before');
    // Renamed while no event is sent (as if the message was lost while B was disconnected).
    await apps.a.ctx.db.prisma.project.update({ where: { id }, data: { name: 'After' } });
    expect(await name()).toBe('Before');
    const reconnected = Promise.all([next(apps.a.ctx.events, 'reconnected', 5_000), next(apps.b.ctx.events, 'reconnected', 5_000)]);
    await redisKill(subscriberName(apps.prefix));
    await reconnected;
    expect(await name()).toBe('After');
  });
});
