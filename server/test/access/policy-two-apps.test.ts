/**
 * The access policy cache across server processes: two apps on one database with Redis events, as
 * behind a load balancer. A rule changed through one is applied by the other as soon as it hears
 * `access.changed`; until then the other serves from memory without reading the database.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { evaluateAccessPolicy } from '../../src/access/policy';
import type { EventBus } from '../../src/events';
import { bearer } from '../helpers/app';
import { requireRedis } from '../helpers/services';
import { createTwoApps, type TwoApps } from '../events/two-apps';

const redis = await requireRedis();

/** Counts `access.changed` events about `projectId` that `bus` hears from now on. */
function accessEvents(bus: EventBus, projectId: string) {
  let count = 0;
  bus.on('access.changed', (e) => {
    if (e.projectId === projectId) count++;
  });
  return {
    /** Resolves once `n` were heard (polling; fails after 5 s). */
    async heard(n: number): Promise<void> {
      const deadline = Date.now() + 5_000;
      while (count < n) {
        if (Date.now() > deadline) throw new Error(`heard ${count} of ${n} access.changed`);
        await new Promise((r) => setTimeout(r, 10));
      }
    },
  };
}

describe.skipIf(!redis)('access rules across two processes', () => {
  let apps: TwoApps;
  beforeAll(async () => {
    apps = await createTwoApps(redis!.url);
  });
  afterAll(async () => {
    await apps?.close();
  });

  it('applies a rule change made through one process in the other once it hears of it', async () => {
    const { a, b, adminKey } = apps;
    const projectId = (await a.inject({ method: 'POST', url: '/v1/projects', headers: bearer(adminKey), payload: { name: 'Shared rules' } })).json().data.id as string;
    const onB = accessEvents(b.ctx.events, projectId);
    const rule = (
      await a.inject({ method: 'POST', url: `/v1/projects/${projectId}/access-rules`, headers: bearer(adminKey), payload: { name: 'Office', pathPattern: 'internal/**', cidrs: ['10.0.0.0/8'] } })
    ).json().data;
    await onB.heard(1);
    const request = { projectId, path: 'internal/plan', ip: '198.51.100.1', tags: [] };
    expect(await evaluateAccessPolicy(b.ctx, request)).toMatchObject({ allowed: false, reason: 'access_rule', ruleId: rule.id });

    // B answers from memory: a change written behind its back (no event) is not seen...
    await b.ctx.db.prisma.accessRule.update({ where: { id: rule.id }, data: { cidrs: JSON.stringify(['198.51.100.0/24']) } });
    const cached = evaluateAccessPolicy(b.ctx, request);
    expect(cached).not.toBeInstanceOf(Promise);
    expect(cached).toMatchObject({ allowed: false });

    // ...while a change through A reaches B at once.
    expect((await a.inject({ method: 'PATCH', url: `/v1/projects/${projectId}/access-rules/${rule.id}`, headers: bearer(adminKey), payload: { enabled: false } })).statusCode).toBe(200);
    await onB.heard(2);
    expect(await evaluateAccessPolicy(b.ctx, request)).toEqual({ allowed: true });
  });
});
