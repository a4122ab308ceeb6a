/**
 * Custom domains through the API (interface-spec.md "Domains"; decisions.md section 4): add,
 * list, get, verify failures, remove; the host-name rule; uniqueness across organizations;
 * permissions; audit; the TLS "ask" endpoint. The default address policy applies
 * (QUIRE_ALLOW_PRIVATE_NETWORK unset); names resolve through a fake resolver set on the app
 * context, so no test depends on the machine's DNS. Successful verification against a listening
 * server: server/test/sites/custom-domain.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Resolver } from '../../src/net/outbound';
import { bearer, createKey, createOrgWithKey, createTestApp, type TestApp } from '../helpers/app';

let t: TestApp;
let projectId: string;

/** Fake DNS: `docs.loopback.test` → 127.0.0.1; everything else does not exist. */
const resolve: Resolver = async (host) => {
  if (host === 'docs.loopback.test') return [{ address: '127.0.0.1', family: 4 }];
  throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
};

const base = (project = projectId) => `/v1/projects/${project}/domains`;
const add = (domain: unknown, key = t.adminKey, project = projectId) =>
  t.app.inject({ method: 'POST', url: base(project), headers: bearer(key), payload: { domain } as object });
const list = (key = t.adminKey, project = projectId) => t.app.inject({ url: base(project), headers: bearer(key) });
const get = (id: string, key = t.adminKey) => t.app.inject({ url: `${base()}/${id}`, headers: bearer(key) });
const verify = (id: string, key = t.adminKey) => t.app.inject({ method: 'POST', url: `${base()}/${id}/verify`, headers: bearer(key) });
const remove = (id: string, key = t.adminKey, project = projectId) => t.app.inject({ method: 'DELETE', url: `${base(project)}/${id}`, headers: bearer(key) });
const ask = (domain: string) => t.app.inject({ url: `/v1/tls/ask?domain=${encodeURIComponent(domain)}` });

async function newProject(slug: string, key = t.adminKey): Promise<string> {
  const res = await t.app.inject({ method: 'POST', url: '/v1/projects', headers: bearer(key), payload: { name: slug, slug } });
  expect(res.statusCode).toBe(201);
  return res.json().data.id as string;
}

beforeAll(async () => {
  t = await createTestApp({ env: { QUIRE_SITES_DOMAIN: 'sites.quire.test', QUIRE_PUBLIC_URL: 'https://api.quire.test' } });
  t.ctx.domainCheck = { resolve };
  projectId = await newProject('acme');
});
afterAll(async () => {
  await t?.close();
});

describe('custom domains API', () => {
  it('adds a pending domain with what to serve, lists it, gets it, removes it (404 once gone)', async () => {
    const res = await add('Docs.Example.COM.');
    expect(res.statusCode).toBe(201);
    const created = res.json().data;
    expect(created).toMatchObject({ projectId, domain: 'docs.example.com', status: 'pending', verifiedAt: null, lastCheckAt: null, lastCheckError: null });
    expect(created.id).toMatch(/^dom_/);
    expect(Date.parse(created.createdAt)).not.toBeNaN();
    expect(created.verification).toMatchObject({ method: 'http', url: 'http://docs.example.com/.well-known/quire-domain-verification' });
    expect(created.verification.body).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(created.verification.instructions).toContain('CNAME to acme-docs.sites.quire.test');
    expect(created.verification.instructions).toContain(`POST /v1/projects/${projectId}/domains/${created.id}/verify`);

    const listed = await list();
    expect(listed.statusCode).toBe(200);
    expect(listed.json()).not.toHaveProperty('pagination');
    expect(listed.json().data).toEqual([created]);
    expect((await get(created.id)).json().data).toEqual(created);

    expect((await remove(created.id)).statusCode).toBe(204);
    const again = await remove(created.id);
    expect(again.statusCode).toBe(404);
    expect(again.json().error.code).toBe('not_found');
    expect((await get(created.id)).statusCode).toBe(404);
    expect((await verify(created.id)).statusCode).toBe(404);
    expect((await list()).json().data).toEqual([]);
  });

  it.each([
    ['an IPv4 address', '192.0.2.10', 'not an IP address'],
    ['an IPv4 address in hex', '0x7f.1', 'not an IP address'],
    ['an IPv6 address', '[2001:db8::1]', 'not an IP address'],
    ['a port', 'docs.example.com:8080', 'port'],
    ['a scheme and path', 'https://docs.example.com/guide', 'without scheme, path'],
    ['an underscore', 'my_docs.example.com', 'underscores'],
    ['a single label', 'intranet', 'at least two labels'],
    ['a name over 253 characters', `${'a'.repeat(60)}.${'b'.repeat(60)}.${'c'.repeat(60)}.${'d'.repeat(60)}.example.com`, 'at most 253'],
    ['a label over 63 characters', `${'a'.repeat(64)}.example.com`, 'longer than 63'],
    ['a leading hyphen', '-docs.example.com', 'hyphen'],
    ['an empty label', 'docs..example.com', 'empty labels'],
    ['an all-digit last label', 'docs.example.123', 'all-digit'],
    ['an invalid punycode label', 'docs.xn--zz.example', 'punycode'],
    ['spaces inside', 'docs example.com', 'letters, digits, hyphens'],
    ['an empty string', '', 'empty'],
    ['the sites domain itself', 'sites.quire.test', 'sites domain'],
    ['a site host under the sites domain', 'acme-docs.sites.quire.test', 'sites domain'],
    ['the API host', 'api.quire.test', "API's own host"],
    ['a localhost name', 'docs.localhost', 'localhost'],
  ])('refuses %s with 400 and details.field "domain"', async (_case, domain, issue) => {
    const res = await add(domain);
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toMatchObject({ code: 'invalid_request', details: { field: 'domain' } });
    expect(res.json().error.details.issue).toContain(issue);
    expect((await list()).json().data).toEqual([]);
  });

  it('refuses a body without a domain, with other fields, or with a non-string', async () => {
    for (const payload of [{}, { domain: 'docs.example.com', extra: 1 }, { domain: 42 }]) {
      const res = await t.app.inject({ method: 'POST', url: base(), headers: bearer(t.adminKey), payload });
      expect(res.statusCode).toBe(400);
      expect(res.json().error.code).toBe('invalid_request');
    }
  });

  it('stores an internationalized name in its xn-- form', async () => {
    const res = await add('dokumentation.bücher.example');
    expect(res.statusCode).toBe(201);
    expect(res.json().data.domain).toBe('dokumentation.xn--bcher-kva.example');
    expect((await remove(res.json().data.id)).statusCode).toBe(204);
  });

  it('keeps a domain to one project of the whole service while pending or active, without naming the other project', async () => {
    const first = (await add('docs.shared.example')).json().data;
    const same = await add('DOCS.shared.example');
    expect(same.statusCode).toBe(409);
    expect(same.json().error.message).toContain(first.id);

    const other = await createOrgWithKey(t);
    const otherProject = await newProject('other-org-docs', other.key);
    const clash = await add('docs.shared.example', other.key, otherProject);
    expect(clash.statusCode).toBe(409);
    expect(clash.json().error.code).toBe('conflict');
    expect(clash.body).not.toContain(projectId);
    expect(clash.body).not.toContain(first.id);
    expect(clash.body).not.toContain('acme');

    // Once removed, the name is free for anyone.
    expect((await remove(first.id)).statusCode).toBe(204);
    const taken = await add('docs.shared.example', other.key, otherProject);
    expect(taken.statusCode).toBe(201);
    expect((await remove(taken.json().data.id, other.key, otherProject)).statusCode).toBe(204);
  });

  it('answers 404 for another organization\'s project and its domains, never 403', async () => {
    const created = (await add('docs.private.example')).json().data;
    const other = await createOrgWithKey(t);
    expect((await list(other.key)).statusCode).toBe(404);
    expect((await add('docs.intruder.example', other.key)).statusCode).toBe(404);
    expect((await t.app.inject({ url: `${base()}/${created.id}`, headers: bearer(other.key) })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'POST', url: `${base()}/${created.id}/verify`, headers: bearer(other.key) })).statusCode).toBe(404);
    expect((await remove(created.id, other.key)).statusCode).toBe(404);
    expect((await get(created.id)).json().data.status).toBe('pending');
    expect((await remove(created.id)).statusCode).toBe(204);
  });

  it('needs projects:read to read and projects:write to change; test keys cannot change domains', async () => {
    const reader = await createKey(t, ['projects:read']);
    const builder = await createKey(t, ['builds:read', 'builds:write']);
    const writer = await createKey(t, ['projects:write']);
    const tester = await createKey(t, ['admin'], { mode: 'test' });
    expect((await list(reader.key)).statusCode).toBe(200);
    expect((await list(builder.key)).statusCode).toBe(403);
    expect((await add('docs.perm.example', reader.key)).statusCode).toBe(403);
    const testAdd = await add('docs.perm.example', tester.key);
    expect(testAdd.statusCode).toBe(403);
    expect(testAdd.json().error.message).toContain('test key');
    const created = await add('docs.perm.example', writer.key);
    expect(created.statusCode).toBe(201);
    const id = created.json().data.id as string;
    expect((await get(id, reader.key)).statusCode).toBe(200);
    expect((await verify(id, reader.key)).statusCode).toBe(403);
    expect((await remove(id, reader.key)).statusCode).toBe(403);
    expect((await remove(id, tester.key)).statusCode).toBe(403);
    expect((await remove(id, writer.key)).statusCode).toBe(204);
  });

  it('audits domain.added and domain.removed under resource type domain', async () => {
    const created = (await add('docs.audit.example')).json().data;
    await remove(created.id);
    const log = await t.app.inject({ url: `/v1/projects/${projectId}/audit-log?resource=domain`, headers: bearer(t.adminKey) });
    const entries = log.json().data.filter((e: { resource: { id: string } }) => e.resource.id === created.id);
    expect(entries.map((e: { action: string }) => e.action)).toEqual(['domain.removed', 'domain.added']);
    expect(entries[0].resource).toMatchObject({ type: 'domain', name: 'docs.audit.example' });
  });

  it('keeps a domain pending with the reason when the check cannot reach this server', async () => {
    const nowhere = (await add('docs.nowhere.example')).json().data;
    const res = await verify(nowhere.id);
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({ id: nowhere.id, status: 'pending', verifiedAt: null });
    expect(res.json().data.lastCheckError).toContain('could not resolve docs.nowhere.example');
    expect(Date.parse(res.json().data.lastCheckAt)).not.toBeNaN();
    expect((await get(nowhere.id)).json().data.lastCheckError).toBe(res.json().data.lastCheckError);

    // A name resolving to a loopback address is refused by the outbound address policy.
    const loopback = (await add('docs.loopback.test')).json().data;
    const refused = (await verify(loopback.id)).json().data;
    expect(refused.status).toBe('pending');
    expect(refused.lastCheckError).toContain('resolves to 127.0.0.1, a loopback address');

    const project = (await t.app.inject({ url: `/v1/projects/${projectId}`, headers: bearer(t.adminKey) })).json().data;
    expect(project).not.toHaveProperty('customDomain');
    await remove(nowhere.id);
    await remove(loopback.id);
  });

  it('limits the domains of one project', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 10; i++) {
      const res = await add(`d${i}.limit.example`);
      expect(res.statusCode).toBe(201);
      ids.push(res.json().data.id);
    }
    const over = await add('d10.limit.example');
    expect(over.statusCode).toBe(409);
    expect(over.json().error.details).toMatchObject({ limit: 10 });
    for (const id of ids) expect((await remove(id)).statusCode).toBe(204);
  });
});

describe('GET /v1/tls/ask', () => {
  it('allows the site hosts of existing projects and refuses unknown, pending and malformed names, without a key', async () => {
    const ok = await ask('acme-docs.sites.quire.test');
    expect(ok.statusCode).toBe(200);
    expect(ok.json().data).toEqual({ domain: 'acme-docs.sites.quire.test' });
    expect((await ask('ACME-docs.sites.quire.test')).statusCode).toBe(200);
    for (const refused of ['nobody-docs.sites.quire.test', 'feature-x--acme-docs.sites.quire.test', 'docs.unknown.example', '127.0.0.1', 'not a host', 'sites.quire.test', 'api.quire.test']) {
      const res = await ask(refused);
      expect(res.statusCode, refused).toBe(404);
      expect(res.json().error.code).toBe('not_found');
    }
    const pending = (await add('docs.pending-tls.example')).json().data;
    expect((await ask('docs.pending-tls.example')).statusCode).toBe(404);
    await remove(pending.id);
    expect((await t.app.inject({ url: '/v1/tls/ask' })).statusCode).toBe(400);
  });

  it('is rate limited per client IP like other public routes', async () => {
    const res = await ask('acme-docs.sites.quire.test');
    expect(Number(res.headers['x-ratelimit-limit'])).toBeGreaterThan(0);
    expect(res.headers).toHaveProperty('x-ratelimit-remaining');
  });
});
