/**
 * GET /metrics: Prometheus text of this app only; API requests by route pattern and status class
 * (never raw URLs), operations endpoints not counted, queue depth read at scrape time, site
 * responses by status class, build outcomes; QUIRE_METRICS_TOKEN protects it when set.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppMetrics } from '../../src/ops/metrics';
import { bearer, createTestApp, type TestApp } from '../helpers/app';

let t: TestApp;
let other: TestApp;
let projectId: string;
beforeAll(async () => {
  [t, other] = await Promise.all([createTestApp(), createTestApp({ env: { QUIRE_METRICS_TOKEN: 'scrape-token-0123456789' } })]);
  projectId = (await t.app.inject({ method: 'POST', url: '/v1/projects', headers: bearer(t.adminKey), payload: { name: 'Measured' } })).json().data.id;
});
afterAll(async () => Promise.all([t?.close(), other?.close()]));

/** The value of one sample line, or undefined when absent. */
function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

async function scrape(app: TestApp, headers: Record<string, string> = {}): Promise<string> {
  const res = await app.app.inject({ url: '/metrics', headers });
  expect(res.statusCode).toBe(200);
  expect(res.headers['content-type']).toContain('text/plain');
  return res.body;
}

describe('GET /metrics', () => {
  it('counts API requests by route pattern and status class, with latency histograms', async () => {
    for (let i = 0; i < 3; i++) await t.app.inject({ url: `/v1/projects/${projectId}`, headers: bearer(t.adminKey) });
    await t.app.inject({ url: '/v1/projects/prj_missing', headers: bearer(t.adminKey) });
    await t.app.inject({ url: '/v1/no-such-route', headers: bearer(t.adminKey) });
    await t.app.inject({ url: '/healthz' });
    const text = await scrape(t);
    expect(sample(text, 'quire_http_requests_total{method="GET",route="/v1/projects/:projectId",status_class="2xx"}')).toBe(3);
    expect(sample(text, 'quire_http_requests_total{method="GET",route="/v1/projects/:projectId",status_class="4xx"}')).toBe(1);
    expect(sample(text, 'quire_http_requests_total{method="GET",route="unmatched",status_class="4xx"}')).toBe(1);
    expect(sample(text, 'quire_http_request_duration_seconds_count{method="GET",route="/v1/projects/:projectId",status_class="2xx"}')).toBe(3);
    expect(text).not.toContain(projectId);
    expect(text).not.toContain('prj_missing');
    expect(text).not.toMatch(/route="\/(healthz|metrics)"/);
    expect(text).toContain('process_cpu_user_seconds_total');
  });

  it('keeps each app to its own registry', async () => {
    const text = await scrape(other, { authorization: 'Bearer scrape-token-0123456789' });
    expect(text).not.toContain('route="/v1/projects/:projectId"');
  });

  it('reads the queue depth from the function the queue plugs in, at scrape time', async () => {
    // the job queue plugs in its own depth: an idle in-process queue has nothing waiting
    expect(sample(await scrape(t), 'quire_queue_jobs{state="waiting"}')).toBe(0);
    let waiting = 3;
    t.ctx.metrics.setQueueDepth(() => ({ waiting, active: 1 }));
    expect(sample(await scrape(t), 'quire_queue_jobs{state="waiting"}')).toBe(3);
    waiting = 0;
    const text = await scrape(t);
    expect(sample(text, 'quire_queue_jobs{state="waiting"}')).toBe(0);
    expect(sample(text, 'quire_queue_jobs{state="active"}')).toBe(1);
    t.ctx.metrics.setQueueDepth(() => Promise.reject(new Error('redis down')));
    expect(await scrape(t)).not.toContain('quire_queue_jobs{');
  });

  it('needs the bearer token when QUIRE_METRICS_TOKEN is set', async () => {
    for (const headers of [{}, { authorization: 'Bearer wrong' }, bearer(other.adminKey)]) {
      const res = await other.app.inject({ url: '/metrics', headers });
      expect(res.statusCode).toBe(401);
      expect(res.json().error.code).toBe('unauthorized');
    }
    expect(await scrape(other, { authorization: 'Bearer scrape-token-0123456789' })).toContain('quire_http_requests_total');
  });

  it('counts site responses by status class, not as API requests', async () => {
    const before = await scrape(t);
    const host = 'measured-docs.localhost';
    const res = await t.app.inject({ url: '/anything', headers: { host } });
    expect(res.statusCode).toBe(404); // no deployment yet: the site host answers, not the API
    const text = await scrape(t);
    expect((sample(text, 'quire_site_requests_total{status_class="4xx"}') ?? 0) - (sample(before, 'quire_site_requests_total{status_class="4xx"}') ?? 0)).toBe(1);
    expect(sample(text, 'quire_http_requests_total{method="GET",route="unmatched",status_class="4xx"}')).toBe(sample(before, 'quire_http_requests_total{method="GET",route="unmatched",status_class="4xx"}'));
  });
});

describe('AppMetrics', () => {
  it('records build outcomes and durations', async () => {
    const m = new AppMetrics({ defaultMetrics: false });
    m.observeBuild('deployed', 12.5);
    m.observeBuild('failed', 2);
    m.observeBuild('deployed', 30);
    const { body } = await m.render();
    expect(sample(body, 'quire_builds_total{outcome="deployed"}')).toBe(2);
    expect(sample(body, 'quire_builds_total{outcome="failed"}')).toBe(1);
    expect(sample(body, 'quire_build_duration_seconds_sum{outcome="deployed"}')).toBe(42.5);
    expect(sample(body, 'quire_build_duration_seconds_bucket{le="10",outcome="deployed"}')).toBe(0);
  });
});
