/**
 * Custom domains end to end (decisions.md sections 3, 4 and 6): a real build of a real git
 * repository, the app listening on 127.0.0.1, made-up domain names pointed at it by a fake
 * resolver on the app context (`domainCheck`), and QUIRE_ALLOW_PRIVATE_NETWORK=1 so the check may
 * connect to loopback. A pending domain answers only its verification token; verification
 * succeeds only when the request reaches this server's answer (a second server on 127.0.0.2
 * answering something else fails it); an active domain serves the production site by Host; a
 * removed one gets the "no longer connected" page while the default address keeps serving.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Resolver } from '../../src/net/outbound';
import { bearer, createOrgWithKey, createTestApp, type TestApp } from '../helpers/app';
import type { FixtureRepo } from '../helpers/git-repo';
import { createProject, docsRepo, trigger, waitForStatus } from '../routes/builds/build-fixture';

let t: TestApp;
let repo: FixtureRepo;
let project: { id: string; slug: string };
let port: number;
let elsewhere: http.Server;
/** what the server on 127.0.0.2 has been asked */
const elsewhereRequests: string[] = [];

/** Fake DNS: these names point at this server (127.0.0.1) or at another one (127.0.0.2). */
const DNS: Record<string, string> = {
  'docs.acme.test': '127.0.0.1',
  'help.acme.test': '127.0.0.1',
  'docs.elsewhere.test': '127.0.0.2',
};
const resolve: Resolver = async (host) => {
  const address = DNS[host];
  if (address) return [{ address, family: 4 }];
  throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
};

const api = (method: 'GET' | 'POST' | 'DELETE', url: string, payload?: object, key = t.adminKey) =>
  t.app.inject({ method, url, headers: bearer(key), ...(payload ? { payload } : {}) });
const domains = () => `/v1/projects/${project.id}/domains`;
const addDomain = async (domain: string, projectId = project.id, key = t.adminKey) => {
  const res = await api('POST', `/v1/projects/${projectId}/domains`, { domain }, key);
  expect(res.statusCode).toBe(201);
  return res.json().data as { id: string; domain: string; status: string; verification: { body: string } };
};
const verify = async (id: string) => {
  const res = await api('POST', `${domains()}/${id}/verify`);
  expect(res.statusCode).toBe(200);
  return res.json().data as { status: string; verifiedAt: string | null; lastCheckError: string | null };
};
/** A request through the listening server, as a browser reaching the domain would send it. */
function viaNetwork(host: string, path: string, method = 'GET'): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }> {
  return new Promise((done, fail) => {
    const req = http.request({ host: '127.0.0.1', port, path, method, headers: { host }, agent: false }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c));
      res.on('end', () => done({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', fail);
    req.end();
  });
}

beforeAll(async () => {
  t = await createTestApp({ runJobs: true, env: { QUIRE_ALLOW_PRIVATE_NETWORK: '1' } });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  port = (t.app.server.address() as AddressInfo).port;
  t.ctx.domainCheck = { resolve, port };
  // "Another server" the domain's DNS may point at: same port, another loopback address.
  elsewhere = http.createServer((req, res) => {
    elsewhereRequests.push(`${req.method} ${req.headers.host} ${req.url}`);
    res.writeHead(200, { 'content-type': 'text/plain' }).end('some-other-token');
  });
  await new Promise<void>((ok, fail) => elsewhere.once('error', fail).listen(port, '127.0.0.2', ok));

  repo = docsRepo('CUSTOM');
  project = await createProject(t, repo, 'acme');
  const build = (await trigger(t, project.id)).json().data;
  expect(await waitForStatus(t, project.id, build.id, ['deployed', 'failed'], 60_000)).toMatchObject({ status: 'deployed', error: null });
});
afterAll(async () => {
  await new Promise((ok) => (elsewhere ? elsewhere.close(ok) : ok(undefined)));
  await t?.close();
  repo?.cleanup();
});

describe('custom domains on the site layer', () => {
  it('answers a pending domain\'s verification token and nothing of the site', async () => {
    const pending = await addDomain('help.acme.test');
    const challenge = await t.app.inject({ url: '/.well-known/quire-domain-verification', headers: { host: 'help.acme.test' } });
    expect(challenge.statusCode).toBe(200);
    expect(challenge.headers['content-type']).toContain('text/plain');
    expect(challenge.body).toBe(pending.verification.body);
    expect((await viaNetwork('HELP.acme.test:80', '/.well-known/quire-domain-verification?x=1')).body).toBe(pending.verification.body);

    const home = await t.app.inject({ url: '/', headers: { host: 'help.acme.test' } });
    expect(home.statusCode).toBe(404);
    expect(home.body).not.toContain('CUSTOM');
    expect((await t.app.inject({ method: 'POST', url: '/.well-known/quire-domain-verification', headers: { host: 'help.acme.test' } })).statusCode).toBe(405);
    // Not an API host either: the API's routes are not reachable through it.
    expect((await t.app.inject({ url: '/v1/projects', headers: { host: 'help.acme.test', ...bearer(t.adminKey) } })).statusCode).toBe(404);
    // An unknown host still reaches the API.
    expect((await t.app.inject({ url: '/v1/projects', headers: { host: 'unknown.acme.test', ...bearer(t.adminKey) } })).statusCode).toBe(200);
    expect((await api('DELETE', `${domains()}/${pending.id}`)).statusCode).toBe(204);
  });

  it('stays pending when the domain reaches another server, naming the cause', async () => {
    const other = await addDomain('docs.elsewhere.test');
    const result = await verify(other.id);
    expect(elsewhereRequests).toContain(`GET docs.elsewhere.test:${port} /.well-known/quire-domain-verification`);
    expect(result.status).toBe('pending');
    expect(result.verifiedAt).toBeNull();
    expect(result.lastCheckError).toContain('not with this domain\'s verification token');
    expect((await t.app.inject({ url: '/', headers: { host: 'docs.elsewhere.test' } })).statusCode).toBe(404);
    expect((await api('DELETE', `${domains()}/${other.id}`)).statusCode).toBe(204);
  });

  it('verifies a domain that reaches this server, then serves the production site on it', async () => {
    const domain = await addDomain('docs.acme.test');
    const result = await verify(domain.id);
    expect(result.lastCheckError).toBeNull();
    expect(result.status).toBe('active');
    expect(Date.parse(result.verifiedAt!)).not.toBeNaN();
    // Verifying again changes nothing.
    expect((await verify(domain.id)).verifiedAt).toBe(result.verifiedAt);

    const shown = (await api('GET', `/v1/projects/${project.id}`)).json().data;
    expect(shown.customDomain).toBe('docs.acme.test');
    expect((await api('GET', domains())).json().data).toEqual([expect.objectContaining({ id: domain.id, status: 'active' })]);

    const home = await t.app.inject({ url: '/', headers: { host: 'docs.acme.test' } });
    expect(home.statusCode).toBe(200);
    expect(home.body).toContain('CUSTOM home page');
    const page = await viaNetwork('docs.acme.test', '/guides/setup');
    expect(page.status).toBe(200);
    expect(page.body).toContain('Install it. CUSTOM');
    expect(page.headers['x-content-type-options']).toBe('nosniff');

    const tls = await t.app.inject({ url: '/v1/tls/ask?domain=docs.acme.test' });
    expect(tls.statusCode).toBe(200);

    const log = (await api('GET', `/v1/projects/${project.id}/audit-log?resource=domain`)).json().data;
    expect(log.filter((e: { resource: { id: string } }) => e.resource.id === domain.id).map((e: { action: string }) => e.action)).toEqual(['domain.verified', 'domain.added']);
  });

  it('refuses the active domain to another organization', async () => {
    const other = await createOrgWithKey(t);
    const created = await t.app.inject({ method: 'POST', url: '/v1/projects', headers: bearer(other.key), payload: { name: 'Theirs', slug: 'theirs' } });
    const res = await api('POST', `/v1/projects/${created.json().data.id}/domains`, { domain: 'docs.acme.test' }, other.key);
    expect(res.statusCode).toBe(409);
    expect(res.body).not.toContain(project.id);
  });

  it('after removal, shows the domain\'s visitors an error page and keeps the default address serving', async () => {
    const active = (await api('GET', domains())).json().data.find((d: { domain: string }) => d.domain === 'docs.acme.test');
    expect(active).toBeDefined();
    expect((await api('DELETE', `${domains()}/${active.id}`)).statusCode).toBe(204);
    expect((await api('DELETE', `${domains()}/${active.id}`)).statusCode).toBe(404);

    for (const path of ['/', '/guides/setup', '/.well-known/quire-domain-verification']) {
      const res = await t.app.inject({ url: path, headers: { host: 'docs.acme.test' } });
      expect(res.statusCode).toBe(404);
      expect(res.headers['content-type']).toContain('text/html');
      expect(res.body).toContain('This domain is no longer connected to a documentation site');
      expect(res.body).not.toContain('CUSTOM');
      expect(res.body).not.toContain('acme');
    }
    const network = await viaNetwork('docs.acme.test', '/');
    expect(network.status).toBe(404);
    expect(network.body).toContain('no longer connected');

    const fallback = await t.app.inject({ url: '/', headers: { host: 'acme-docs.localhost' } });
    expect(fallback.statusCode).toBe(200);
    expect(fallback.body).toContain('CUSTOM home page');
    expect((await api('GET', `/v1/projects/${project.id}`)).json().data).not.toHaveProperty('customDomain');
    expect((await t.app.inject({ url: '/v1/tls/ask?domain=docs.acme.test' })).statusCode).toBe(404);

    const log = (await api('GET', `/v1/projects/${project.id}/audit-log?resource=domain`)).json().data;
    expect(log[0]).toMatchObject({ action: 'domain.removed', resource: { type: 'domain', id: active.id } });
  });

  it('lets the removed name be added again, answering its new token instead of the error page', async () => {
    const again = await addDomain('docs.acme.test');
    const challenge = await t.app.inject({ url: '/.well-known/quire-domain-verification', headers: { host: 'docs.acme.test' } });
    expect(challenge.statusCode).toBe(200);
    expect(challenge.body).toBe(again.verification.body);
    expect((await verify(again.id)).status).toBe('active');
    expect((await t.app.inject({ url: '/', headers: { host: 'docs.acme.test' } })).body).toContain('CUSTOM home page');
  });

  it('allows certificates for the project\'s site hosts and for previews only once deployed', async () => {
    const ask = (domain: string) => t.app.inject({ url: `/v1/tls/ask?domain=${domain}` });
    expect((await ask('acme-docs.localhost')).statusCode).toBe(200);
    expect((await ask('main--acme-docs.localhost')).statusCode).toBe(404);
    const preview = (await trigger(t, project.id, { preview: true })).json().data;
    const done = await waitForStatus(t, project.id, preview.id, ['deployed', 'failed'], 60_000);
    expect(done).toMatchObject({ status: 'deployed', isPreview: true });
    const previewHost = new URL(String(done.url)).hostname;
    expect(previewHost).toBe('main--acme-docs.localhost');
    expect((await ask(previewHost)).statusCode).toBe(200);
    expect((await ask('other--acme-docs.localhost')).statusCode).toBe(404);
  });
});
