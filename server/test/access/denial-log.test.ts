/**
 * The denial log under load (access/denial-log.ts): a burst of denials is buffered without waiting
 * and every one of them reaches the database, also those recorded while a batch is being written
 * and those still buffered when the app closes; a failed write is retried, and a flood while the
 * database is away drops only the oldest.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { openDb } from '../../src/db/client';
import type { Db } from '../../src/db/client';
import { recordDenial } from '../../src/access/policy';
import { DenialLog, type Denial } from '../../src/access/denial-log';
import { bearer, createTestApp, type TestApp } from '../helpers/app';

let t: TestApp | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

const denial = (projectId: string, n: number): Denial => ({ projectId, host: 'burst-docs.localhost', path: `page/${n}`, ip: `198.51.${(n >> 8) & 255}.${n & 255}`, reason: 'ip_allowlist' });

/** Polls `condition` (every 10 ms, at most 10 s). */
async function until(condition: () => boolean | Promise<boolean>): Promise<void> {
  const end = Date.now() + 10_000;
  while (!(await condition())) {
    if (Date.now() > end) throw new Error('condition not met in 10 s');
    await new Promise((r) => setTimeout(r, 10));
  }
}

describe('denial log', () => {
  it('keeps every denial of a burst, including those still buffered when the app closes', async () => {
    t = await createTestApp();
    const projectId = (await t.app.inject({ method: 'POST', url: '/v1/projects', headers: bearer(t.adminKey), payload: { name: 'Burst' } })).json().data.id as string;
    const total = 5_000;
    for (let n = 0; n < total; n++) recordDenial(t.ctx, denial(projectId, n));
    // More arrive while the batches above are being written.
    await new Promise((r) => setImmediate(r));
    for (let n = total; n < total + 150; n++) recordDenial(t.ctx, denial(projectId, n));

    await t.app.close();
    let db: Db | undefined;
    try {
      db = await openDb(t.ctx.config.databaseUrl);
      const rows = await db.prisma.accessLog.findMany({ where: { projectId }, select: { path: true, createdAt: true }, orderBy: [{ createdAt: 'asc' }, { id: 'asc' }] });
      expect(rows).toHaveLength(total + 150);
      expect(new Set(rows.map((r) => r.path)).size).toBe(total + 150);
      // Time order is the order the requests were refused in.
      expect(rows.map((r) => r.path)).toEqual(Array.from({ length: total + 150 }, (_, n) => `page/${n}`));
    } finally {
      await db?.close();
    }
  }, 60_000);

  it('lists a burst through /access-logs once it is written', async () => {
    t = await createTestApp();
    const projectId = (await t.app.inject({ method: 'POST', url: '/v1/projects', headers: bearer(t.adminKey), payload: { name: 'Listed' } })).json().data.id as string;
    for (let n = 0; n < 450; n++) recordDenial(t.ctx, denial(projectId, n));
    const res = await t.app.inject({ url: `/v1/projects/${projectId}/access-logs?pageSize=1`, headers: bearer(t.adminKey) });
    expect(res.json().pagination.total).toBe(450);
    expect(res.json().data[0].path).toBe('page/449');
  });
});

describe('denial log writes', () => {
  /** A database stand-in whose inserts fail while `failing` is set. */
  function flakyDb() {
    const written: { path: string }[] = [];
    const state = { failing: true, attempts: 0 };
    const db = {
      prisma: {
        accessLog: {
          createMany: async ({ data }: { data: { path: string }[] }) => {
            state.attempts++;
            if (state.failing) throw new Error('database unavailable');
            written.push(...data);
            return { count: data.length };
          },
        },
      },
    } as unknown as Db;
    return { db, written, state };
  }
  const log = { warn: () => {}, error: () => {} } as never;

  it('retries a failed write and loses nothing', async () => {
    const { db, written, state } = flakyDb();
    const denials = new DenialLog({ db, log }, { batchSize: 10, flushMs: 5 });
    for (let n = 0; n < 25; n++) denials.record(denial('prj_x', n));
    await until(() => state.attempts >= 2);
    expect(written).toHaveLength(0);
    expect(denials.pending).toBe(25);
    state.failing = false;
    await until(() => written.length === 25);
    expect(written.map((r) => r.path)).toEqual(Array.from({ length: 25 }, (_, n) => `page/${n}`));
    await denials.close();
  });

  it('drops the oldest waiting denials when the database stays away under a flood', async () => {
    const { db, written, state } = flakyDb();
    const denials = new DenialLog({ db, log }, { batchSize: 1_000, flushMs: 60_000, maxBuffered: 5 });
    for (let n = 0; n < 12; n++) denials.record(denial('prj_x', n));
    expect(denials.pending).toBe(5);
    state.failing = false;
    await denials.close();
    expect(written.map((r) => r.path)).toEqual(['page/7', 'page/8', 'page/9', 'page/10', 'page/11']);
    denials.record(denial('prj_x', 99));
    expect(denials.pending).toBe(0);
  });
});
