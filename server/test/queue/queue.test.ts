import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterEach, describe, expect, it } from 'vitest';
import { BullMqQueue } from '../../src/queue/bullmq-queue';
import { InProcessQueue } from '../../src/queue/in-process-queue';
import type { JobQueue } from '../../src/queue/job-queue';
import { requireRedis } from '../helpers/services';

const log = { warn() {}, error() {} };
const redis = await requireRedis();
const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of closers.splice(0).reverse()) await c();
});

const until = async (check: () => boolean, ms = 10_000) => {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 10));
  }
};

/** The behaviour both implementations promise (queue/job-queue.ts). */
function contract(make: () => Promise<JobQueue>) {
  it('tells where a job is: waiting, delayed, active, then gone once it finished', async () => {
    const q = await make();
    await q.enqueue('build', { buildId: 'w', projectId: 'p' }, { jobId: 'w' });
    await q.enqueue('build', { buildId: 'd', projectId: 'p' }, { jobId: 'd', delayMs: 60_000 });
    expect(await q.state('build', 'w')).toEqual({ state: 'waiting' });
    expect(await q.state('build', 'd')).toEqual({ state: 'delayed' });
    expect(await q.state('build', 'never')).toEqual({ state: 'gone' });
    let release!: () => void;
    let started = false;
    await q.process('build', async () => {
      started = true;
      await new Promise<void>((r) => (release = r));
    }, { concurrency: 1 });
    await until(() => started);
    expect(await q.state('build', 'w')).toEqual({ state: 'active' });
    release();
    const end = Date.now() + 10_000;
    while ((await q.state('build', 'w')).state !== 'gone' && Date.now() < end) await new Promise((r) => setTimeout(r, 20));
    expect(await q.state('build', 'w')).toEqual({ state: 'gone' });
  });

  it('runs jobs in order, dedupes a job id while it exists, and honours concurrency', async () => {
    const q = await make();
    const seen: string[] = [];
    let running = 0;
    let most = 0;
    const gates = new Map<string, () => void>();
    await q.process('build', async ({ buildId }) => {
      running++;
      most = Math.max(most, running);
      seen.push(buildId);
      await new Promise<void>((r) => gates.set(buildId, r));
      running--;
    }, { concurrency: 2 });
    for (const id of ['b1', 'b2', 'b3']) await q.enqueue('build', { buildId: id, projectId: 'p' }, { jobId: id });
    await q.enqueue('build', { buildId: 'b1', projectId: 'p' }, { jobId: 'b1' });
    await until(() => seen.length === 2);
    expect(seen).toEqual(['b1', 'b2']);
    expect((await q.counts()).build).toMatchObject({ active: 2, waiting: 1 });
    gates.get('b1')!();
    await until(() => seen.length === 3);
    gates.get('b2')!();
    gates.get('b3')!();
    await until(() => running === 0);
    expect(seen).toEqual(['b1', 'b2', 'b3']);
    expect(most).toBe(2);
  });

  it('offers a job again after retryInMs, and not before', async () => {
    const q = await make();
    const times: number[] = [];
    await q.process('build', async (_p, job) => {
      times.push(Date.now());
      expect(job.id).toBe('r1');
      return times.length === 1 ? { retryInMs: 300 } : undefined;
    }, { concurrency: 1 });
    await q.enqueue('build', { buildId: 'r1', projectId: 'p' }, { jobId: 'r1' });
    await until(() => times.length === 2);
    expect(times[1]! - times[0]!).toBeGreaterThanOrEqual(290);
  });

  it('answers ping', async () => {
    const q = await make();
    await expect(q.ping()).resolves.toBeUndefined();
  });
}

describe('in-process queue', () => {
  contract(async () => {
    const q = new InProcessQueue(log);
    closers.push(() => q.close());
    return q;
  });

  it('starts a job in the same tick it is enqueued when a handler has room (no polling delay)', async () => {
    const q = new InProcessQueue(log);
    closers.push(() => q.close());
    let started = false;
    await q.process('build', async () => {
      started = true;
    }, { concurrency: 1 });
    void q.enqueue('build', { buildId: 'x', projectId: 'p' });
    await Promise.resolve();
    expect(started).toBe(true);
  });
});

describe.skipIf(!redis)('BullMQ queue (Redis)', () => {
  const prefixes: string[] = [];
  afterEach(async () => {
    const r = new Redis(redis!.url);
    for (const prefix of prefixes.splice(0)) {
      const keys = await r.keys(`${prefix}:*`);
      if (keys.length) await r.del(...keys);
    }
    await r.quit();
  });
  const make = async () => {
    const prefix = `quire-test-${randomUUID()}`;
    prefixes.push(prefix);
    const q = new BullMqQueue({ url: redis!.url, prefix, log });
    closers.push(() => q.close());
    return q;
  };
  contract(make);

  it('shares jobs between queues of one prefix and keeps its keys under the prefix', async () => {
    const producer = await make();
    const prefix = prefixes.at(-1)!;
    const consumer = new BullMqQueue({ url: redis!.url, prefix, log });
    closers.push(() => consumer.close());
    const got: string[] = [];
    await consumer.process('build', async ({ buildId }) => {
      got.push(buildId);
    }, { concurrency: 1 });
    await producer.enqueue('build', { buildId: 'shared', projectId: 'p' }, { jobId: 'shared' });
    await until(() => got.length === 1);
    expect(got).toEqual(['shared']);
    const r = new Redis(redis!.url);
    const keys = await r.keys('*');
    await r.quit();
    const ours = keys.filter((k) => k.includes(':build:'));
    expect(ours.length).toBeGreaterThan(0);
    expect(ours.filter((k) => k.startsWith(`${prefix}:`)).length).toBeGreaterThan(0);
  });
});
