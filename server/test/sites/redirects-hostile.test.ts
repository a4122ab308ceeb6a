import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSiteHarness, siteFiles, type SiteHarness } from './site-fixture';

// A deployed site whose docs.json redirects were written to make a backtracking matcher spin
// (sources with many `*`). Deployed manifests are not re-checked by the build-time caps, so the
// matcher itself must stay linear. On the former regular-expression matcher each hostile source
// took about 2-3 s of CPU against the path below, blocking every other request meanwhile.
const HOSTILE_SOURCE = (i: number) => `/${'a*'.repeat(8)}b${i}`;
const HOSTILE_PATH = `/${'a'.repeat(46)}`;
const SITE_HOST = 'hostile-docs.localhost';

let h: SiteHarness;
let port: number;

beforeAll(async () => {
  h = await createSiteHarness();
  const project = h.addProject('hostile');
  const files = siteFiles('HOSTILE');
  const manifest = JSON.parse(files['manifest.json']) as { redirects: unknown[] };
  manifest.redirects = [
    ...[1, 2, 3].map((i) => ({ source: HOSTILE_SOURCE(i), destination: '/introduction', permanent: true })),
    { source: '/:a*/:b*/:c*/:d*/:e*/:f*/x', destination: '/introduction', permanent: true },
    ...manifest.redirects,
  ];
  h.deploy(project, { ...files, 'manifest.json': JSON.stringify(manifest) });
  await h.app.listen({ port: 0, host: '127.0.0.1' });
  port = (h.app.server.address() as AddressInfo).port;
});
afterAll(async () => h.close());

/** One GET over a real socket; `ms` counts from the call to the end of the response. */
function timedGet(path: string, host: string, onSent?: () => void): Promise<{ status: number; location?: string; ms: number }> {
  const start = performance.now();
  return new Promise((resolve, reject) => {
    const req = http.get({ host: '127.0.0.1', port, path, headers: { host } }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode!, location: res.headers.location, ms: performance.now() - start }));
    });
    req.on('error', reject);
    if (onSent) req.on('finish', onSent);
  });
}

describe('hostile redirect sources', () => {
  it('do not stall the API: a GET of the hostile path and an API request sent while it is in flight both answer within a second', async () => {
    let api: ReturnType<typeof timedGet> | undefined;
    // the API request leaves once the hostile request is on the wire, before the server reads it
    const hostile = await timedGet(HOSTILE_PATH, SITE_HOST, () => {
      api = timedGet('/v1/projects', '127.0.0.1');
    });
    const apiAnswer = await api!;
    expect(apiAnswer.status).toBe(200);
    expect(apiAnswer.ms).toBeLessThan(1000);
    expect(hostile.status).toBe(404);
    expect(hostile.ms).toBeLessThan(1000);
  });

  it('leave the site’s other redirects working', async () => {
    const res = await timedGet('/beta/setup', SITE_HOST);
    expect(res.status).toBe(307);
    expect(res.location).toBe('/guides/setup');
  });
});
