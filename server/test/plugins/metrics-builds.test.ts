/**
 * Build outcomes and durations reach /metrics from the process that ran the builds.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, type TestApp } from '../helpers/app';
import { fakeBuilder } from '../jobs/fake-builder';

let t: TestApp;
const fake = fakeBuilder();
beforeAll(async () => {
  t = await createTestApp();
  t.app.buildRunner.configure({ runBuild: fake.runBuild, pollMs: 50 });
  await t.app.buildRunner.start();
});
afterAll(async () => t?.close());

async function buildTo(projectId: string, status: string): Promise<void> {
  const res = await t.app.inject({ method: 'POST', url: `/v1/projects/${projectId}/builds`, headers: bearer(t.adminKey) });
  expect(res.statusCode).toBe(202);
  const buildId = res.json().data.id as string;
  const until = Date.now() + 10_000;
  for (;;) {
    const b = (await t.app.inject({ url: `/v1/projects/${projectId}/builds/${buildId}`, headers: bearer(t.adminKey) })).json().data;
    if (b.status === status) return;
    if (Date.now() > until) throw new Error(`${buildId} is ${b.status}, expected ${status}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

const sample = (text: string, series: string) => {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
};

describe('build metrics', () => {
  it('counts deployed and failed builds with their durations', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/v1/projects', headers: bearer(t.adminKey), payload: { name: 'Metered builds', repoUrl: '/tmp/nowhere' } });
    const projectId = res.json().data.id as string;
    await buildTo(projectId, 'deployed');
    fake.state.failNext = true;
    await buildTo(projectId, 'failed');
    await buildTo(projectId, 'deployed');
    const text = (await t.app.inject({ url: '/metrics' })).body;
    expect(sample(text, 'quire_builds_total{outcome="deployed"}')).toBe(2);
    expect(sample(text, 'quire_builds_total{outcome="failed"}')).toBe(1);
    expect(sample(text, 'quire_build_duration_seconds_count{outcome="deployed"}')).toBe(2);
    expect(sample(text, 'quire_build_duration_seconds_sum{outcome="deployed"}')).toBeGreaterThan(0);
  });
});
