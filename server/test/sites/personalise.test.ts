import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFixtureRepo, type FixtureRepo } from '../helpers/git-repo';
import { bearer, createTestApp, type TestApp } from '../helpers/app';
import { buildAndDeploy, createGatedProject } from './gate-fixture';

/**
 * Personalised pages through HTTP, on a real build (shared/src/site/personalisation.ts,
 * server/src/sites/personalise.ts): `{user.<field>}` shows the claims of the reader's own token,
 * escaped, or the fallback; two readers at once never see each other's; personalised answers are
 * private; the API playground gets the reader's inputs.
 */

let t: TestApp;
let repo: FixtureRepo;
let projectId: string;
let profileId: string;
const HOST = 'persona-docs.localhost:4000';

const OPENAPI = {
  openapi: '3.0.3',
  info: { title: 'Users', version: '1' },
  servers: [{ url: 'https://api.example.com' }],
  components: { securitySchemes: { key: { type: 'apiKey', in: 'header', name: 'X-API-Key' } } },
  security: [{ key: [] }],
  paths: { '/users': { get: { summary: 'List users', responses: { 200: { description: 'ok' } } } } },
};

const get = (url: string, headers: Record<string, string> = {}) => t.app.inject({ method: 'GET', url, headers: { host: HOST, ...headers } });
const issue = (payload: unknown) =>
  t.app.inject({ method: 'POST', url: `/v1/projects/${projectId}/audiences/${profileId}/token`, headers: bearer(t.adminKey), payload: payload as Record<string, unknown> });
async function tokenWith(claims?: Record<string, unknown>): Promise<string> {
  const res = await issue(claims ? { claims } : {});
  expect(res.statusCode, res.body).toBe(201);
  return (res.json() as { token: string }).token;
}
/** The text of the page body's placeholders, in order. */
const shown = (html: string) => [...html.matchAll(/<span data-quire-user="(\w+)">([^<]*)<\/span>/g)].map((m) => `${m[1]}=${m[2]}`);

let ada: string;
let grace: string;
let plain: string;

beforeAll(async () => {
  t = await createTestApp({ runJobs: true });
  repo = createFixtureRepo(undefined, {
    extraFiles: {
      'docs.json': JSON.stringify({
        name: 'Persona Docs',
        personalization: { fields: ['company'] },
        api: { openapi: 'openapi.json', playground: { display: 'interactive' } },
        navigation: { groups: [{ group: 'Start', pages: ['index', 'welcome', 'users'] }] },
      }),
      'openapi.json': JSON.stringify(OPENAPI),
      'index.mdx': '---\ntitle: Home\n---\n\nNo personal text here.\n',
      'welcome.mdx': '---\ntitle: Welcome\n---\n\nHello {user.name ?? "there"}! Plan {user.plan ?? "free"}. Team {user.company ?? "none"}. Key {user.apiKey ?? "hidden"}.\n',
      'users.mdx': '---\ntitle: Users\nopenapi: GET /users\n---\n\nTry it, {user.name ?? "reader"}.\n',
    },
  });
  projectId = await createGatedProject(t, repo, 'persona');
  // the builder's render workers start with this build: slow on a busy machine
  await buildAndDeploy(t, projectId, {}, 240_000);
  const profile = await t.app.inject({ method: 'POST', url: `/v1/projects/${projectId}/audiences`, headers: bearer(t.adminKey), payload: { name: 'Readers', slug: 'readers', audiences: ['readers'] } });
  expect(profile.statusCode).toBe(201);
  profileId = (profile.json() as { id: string }).id;
  ada = await tokenWith({ name: 'Ada', plan: 'pro', company: 'Analytical', apiKey: 'sk_ada_secret', apiPlaygroundInputs: { header: { 'X-API-Key': 'sk_ada_key' } } });
  grace = await tokenWith({ name: 'Grace', plan: 'team' });
  plain = await tokenWith();
}, 300_000);
afterAll(async () => {
  await t?.close();
  repo?.cleanup();
});

describe('personalised pages', () => {
  it('an anonymous reader gets the fallbacks, publicly cacheable but varying by cookie and token', async () => {
    const res = await get('/welcome');
    expect(res.statusCode).toBe(200);
    expect(shown(res.body)).toEqual(['name=there', 'plan=free', 'company=none']);
    // a field the site does not declare is no placeholder: only its fallback, as text
    expect(res.body).toContain('Key hidden.');
    expect(res.headers['cache-control']).toBe('public, max-age=0, must-revalidate');
    expect(String(res.headers.vary)).toContain('Cookie, X-Audience-Token');
  });

  it('a reader gets their own claims, privately, with an ETag of their own', async () => {
    const anonymous = await get('/welcome');
    const res = await get('/welcome', { 'x-audience-token': ada });
    expect(res.statusCode).toBe(200);
    expect(shown(res.body)).toEqual(['name=Ada', 'plan=pro', 'company=Analytical']);
    expect(res.body).not.toContain('sk_ada_secret');
    expect(res.headers['cache-control']).toBe('private, no-store');
    expect(String(res.headers.vary)).toContain('Cookie, X-Audience-Token');
    expect(res.headers.etag).not.toBe(anonymous.headers.etag);
    // the anonymous copy's ETag does not get this reader a 304 of it
    const conditional = await get('/welcome', { 'x-audience-token': ada, 'if-none-match': String(anonymous.headers.etag) });
    expect(conditional.statusCode).toBe(200);
    expect(shown(conditional.body)[0]).toBe('name=Ada');
  });

  it('two readers at once, by header and by cookie, each see only their own name', async () => {
    const asks = Array.from({ length: 24 }, (_, i) => {
      const token = i % 3 === 0 ? ada : i % 3 === 1 ? grace : undefined;
      const headers: Record<string, string> = token === undefined ? {} : i % 2 === 0 ? { 'x-audience-token': token } : { cookie: `quire_audience=${token}` };
      return get('/welcome', { ...headers, 'accept-encoding': i % 4 === 0 ? 'br' : 'identity' }).then((res) => ({ i, res }));
    });
    for (const { i, res } of await Promise.all(asks)) {
      expect(res.statusCode).toBe(200);
      const expected = i % 3 === 0 ? 'Ada' : i % 3 === 1 ? 'Grace' : 'there';
      if (i % 4 === 0) continue; // brotli bodies: the identity ones below show the same forms
      expect(shown(res.body)[0], `request ${i}`).toBe(`name=${expected}`);
      for (const other of ['Ada', 'Grace'].filter((n) => n !== expected)) expect(res.body).not.toContain(other);
    }
  });

  it('a token without a claim shows the fallback for it; a token without claims the fallbacks', async () => {
    expect(shown((await get('/welcome', { 'x-audience-token': grace })).body)).toEqual(['name=Grace', 'plan=team', 'company=none']);
    const res = await get('/welcome', { 'x-audience-token': plain });
    expect(shown(res.body)).toEqual(['name=there', 'plan=free', 'company=none']);
    expect(String(res.headers.vary)).toContain('Cookie');
  });

  it('claims are put in as escaped text', async () => {
    const token = await tokenWith({ name: '<img src=x onerror=alert(1)>&"' });
    const res = await get('/welcome', { 'x-audience-token': token });
    expect(shown(res.body)[0]).toBe('name=&lt;img src=x onerror=alert(1)&gt;&amp;&quot;');
    expect(res.body).not.toContain('<img src=x');
  });

  it('a page without placeholders is served as built, whoever asks', async () => {
    const anonymous = await get('/');
    const res = await get('/', { 'x-audience-token': ada });
    expect(res.body).toBe(anonymous.body);
    expect(res.headers.etag).toBe(anonymous.headers.etag);
  });

  it("the API playground page carries the reader's own inputs, and no one else's", async () => {
    const mine = await get('/users', { 'x-audience-token': ada });
    expect(mine.body).toContain('<meta name="quire-playground-inputs" content="{&quot;header&quot;:{&quot;X-API-Key&quot;:&quot;sk_ada_key&quot;}}">');
    expect(shown(mine.body)).toEqual(['name=Ada']);
    for (const res of [await get('/users'), await get('/users', { 'x-audience-token': grace })]) {
      expect(res.body).not.toContain('quire-playground-inputs');
      expect(res.body).not.toContain('sk_ada_key');
    }
  });
});

describe('issuing tokens with claims', () => {
  it('the OpenAPI document describes the claims of the token request', async () => {
    const doc = (await t.app.inject({ url: '/v1/openapi.json' })).json() as { paths: Record<string, Record<string, unknown>> };
    const op = doc.paths['/v1/projects/{projectId}/audiences/{profileId}/token']!.post as { requestBody: { content: Record<string, { schema: unknown }> } };
    const schema = JSON.stringify(op.requestBody.content['application/json']!.schema);
    expect(schema).toContain('"claims"');
    expect(schema).toContain('apiPlaygroundInputs');
  });

  it('refuses malformed claims with 400 and issues nothing', async () => {
    const before = await t.ctx.db.prisma.audienceToken.count({ where: { profileId } });
    for (const claims of [{ name: 5 }, { 'bad-key': 'x' }, { name: 'a\uD800' }, { name: 'x'.repeat(201) }, { apiPlaygroundInputs: { cookie: { a: 'b' } } }]) {
      const res = await issue({ claims });
      expect(res.statusCode, JSON.stringify(claims)).toBe(400);
      expect((res.json() as { error: { code: string } }).error.code).toBe('invalid_request');
    }
    expect(await t.ctx.db.prisma.audienceToken.count({ where: { profileId } })).toBe(before);
  });

  it("audits the claims' names, never their values", async () => {
    await tokenWith({ name: 'Audited', apiPlaygroundInputs: { header: { 'X-API-Key': 'sk_never_logged' } } });
    const rows = await t.ctx.db.prisma.auditEntry.findMany({ where: { projectId, action: 'audience.token_created' } });
    const text = JSON.stringify(rows);
    expect(text).toContain('apiPlaygroundInputs');
    expect(text).not.toContain('sk_never_logged');
    expect(text).not.toContain('Audited');
  });
});
