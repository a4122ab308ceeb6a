/**
 * Access before input on every API-key route whose path names a resource (plugins/resource-gate.ts;
 * decisions.md section 10: another organization's resources answer 404, never 403). The routes come
 * from the app's OpenAPI document, so a route added later is covered as soon as it is registered.
 * For each route and each kind of bad input it can receive (malformed JSON, a body of the wrong
 * shape, a bad query value, a bad id below the project), the same request is sent:
 * - with organization A's admin key: 400, so the input really is refused by the route;
 * - with organization B's key, and with an A key scoped to another project: 404 `not_found`;
 * - with an A key lacking the route's permission: 403 `forbidden`.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { newId } from '@quire/shared/ids';
import type { Permission } from '@quire/shared/api/api-keys';
import { bearer, createKey, createOrgWithKey, createTestApp, type TestApp } from '../helpers/app';
import { checkGatedRoute } from '../../src/plugins/resource-gate';
import { findWebhookEventForCaller } from '../../src/services/webhooks/history';

type Schema = { type?: string; enum?: unknown[]; maxLength?: number; pattern?: string; anyOf?: Schema[] };
type Parameter = { name: string; in: 'path' | 'query'; schema?: Schema };
type Operation = { 'x-permission'?: Permission; security?: Record<string, unknown>[]; requestBody?: unknown; parameters?: Parameter[] };

/** One route of the document: method, path template (`/v1/projects/{projectId}`) and operation. */
interface Route {
  method: string;
  path: string;
  op: Operation;
}

/** A request with bad input: what is wrong, and how to send it. */
interface BadInput {
  what: string;
  query?: string;
  payload?: string;
  /** values of path parameters below the project that replace the fixture ids */
  params?: Record<string, string>;
}

let t: TestApp;
let routes: Route[];
/** Organization A's ids for path parameters outside a project (each must name a real resource of A). */
const topLevelIds: Record<string, string> = {};
let projectId: string;
let otherProjectId: string;
const keys = { foreign: '', scopedElsewhere: '', withoutWebhook: '', readOnly: '' };

beforeAll(async () => {
  // Some thousand requests within a minute: an enterprise limit keeps them clear of 429.
  t = await createTestApp({ env: { QUIRE_DEFAULT_PLAN: 'enterprise', QUIRE_ENTERPRISE_RATE_LIMIT: '100000' } });
  const create = async (name: string) => (await t.app.inject({ method: 'POST', url: '/v1/projects', headers: bearer(t.adminKey), payload: { name } })).json().data.id as string;
  projectId = await create('Gated');
  otherProjectId = await create('Elsewhere');
  const orgId = t.app.bootstrap.orgId!;
  topLevelIds.keyId = (await createKey(t, ['projects:read'], { name: 'victim' })).keyId;
  const endpoint = await t.ctx.db.prisma.webhookEndpoint.create({
    data: { id: newId('webhook'), projectId, orgId, url: 'https://hooks.example.com/quire', secret: 'sealed' },
  });
  topLevelIds.id = (
    await t.ctx.db.prisma.webhookMessage.create({
      data: { id: newId('webhookMessage'), projectId, orgId, endpointId: endpoint.id, eventType: 'build.queued', eventKey: 'gate-test', payload: '{}', status: 'pending' },
    })
  ).id;
  keys.foreign = (await createOrgWithKey(t, { permissions: ['admin'] })).key;
  keys.scopedElsewhere = (await createKey(t, ['admin'], { projectId: otherProjectId })).key;
  keys.withoutWebhook = (await createKey(t, ['webhook:create'])).key;
  keys.readOnly = (await createKey(t, ['projects:read'])).key;
  const doc = (await t.app.inject({ url: '/v1/openapi.json' })).json() as { paths: Record<string, Record<string, Operation>> };
  routes = Object.entries(doc.paths).flatMap(([path, ops]) => Object.entries(ops).map(([method, op]) => ({ method: method.toUpperCase(), path, op })));
});
afterAll(async () => t?.close());

/** Whether an operation takes API keys: public ones list no security requirement, or an empty one (a key is optional). */
const takesKeys = (op: Operation) => !op.security || (op.security.length > 0 && !op.security.some((s) => Object.keys(s).length === 0));

/** The API-key routes whose path names something, `/v1` only (`/trpc` has its own sessions). */
function gatedRoutes(): Route[] {
  return routes.filter((r) => r.path.startsWith('/v1/') && r.path.includes('{') && takesKeys(r.op) && r.method !== 'HEAD');
}

/** The URL of `route` with A's ids (`params` override ids below the project). */
function urlOf(route: Route, params: Record<string, string> = {}): string {
  const underProject = route.path.includes('{projectId}');
  return route.path.replace(/\{([^}]+)\}/g, (_m, name: string) => {
    if (name === 'projectId') return projectId;
    if (params[name] !== undefined) return encodeURIComponent(params[name]);
    if (name === 'path') return 'guides/setup';
    if (underProject) return 'rsc_0123456789abcdefABCD'; // below A's project: the project decides
    const id = topLevelIds[name];
    if (!id) throw new Error(`${route.method} ${route.path}: no fixture of organization A for {${name}} outside a project; add one`);
    return id;
  });
}

/** A value `schema` refuses, or undefined when none is easy to tell. */
function badValue(schema: Schema | undefined): string | undefined {
  if (!schema) return undefined;
  if (schema.enum) return 'not-a-choice';
  if (schema.type === 'integer' || schema.type === 'number') return 'x';
  if (schema.maxLength !== undefined) return 'x'.repeat(schema.maxLength + 1);
  if (schema.pattern || schema.anyOf?.some((s) => s.pattern)) return 'not-a-date';
  return undefined;
}

/** Every kind of bad input `route` can be sent. */
function badInputs(route: Route): BadInput[] {
  const out: BadInput[] = [];
  if (['POST', 'PUT', 'PATCH', 'DELETE'].includes(route.method)) out.push({ what: 'malformed JSON', payload: '{"' });
  if (route.op.requestBody) out.push({ what: 'a body of the wrong shape', payload: '[]' });
  for (const p of route.op.parameters ?? []) {
    const value = badValue(p.schema);
    if (value === undefined) continue;
    if (p.in === 'query' && !out.some((b) => b.query)) out.push({ what: `query ${p.name}`, query: `${p.name}=${encodeURIComponent(value)}` });
    if (p.in === 'path' && p.name !== 'projectId' && route.path.includes('{projectId}') && value.length <= 100) {
      out.push({ what: `path parameter ${p.name}`, params: { [p.name]: value } });
    }
  }
  return out;
}

/** Sends `bad` to `route` with `key`. */
function send(route: Route, key: string, bad: BadInput = { what: 'nothing' }) {
  return t.app.inject({
    method: route.method as 'GET',
    url: urlOf(route, bad.params) + (bad.query ? `?${bad.query}` : ''),
    headers: { ...bearer(key), ...(bad.payload !== undefined ? { 'content-type': 'application/json' } : {}) },
    ...(bad.payload !== undefined ? { payload: bad.payload } : {}),
  });
}

const label = (route: Route, bad: BadInput) => `${route.method} ${route.path} with ${bad.what}`;

describe('access before input, on every route naming a resource', () => {
  it('covers the routes of every resource kind (the document lists them)', () => {
    const paths = new Set(gatedRoutes().map((r) => r.path));
    for (const p of ['/v1/projects/{projectId}', '/v1/projects/{projectId}/builds/{buildId}', '/v1/projects/{projectId}/reviews/{reviewId}', '/v1/api-keys/{keyId}', '/v1/webhooks/event/send/{id}']) {
      expect(paths, p).toContain(p);
    }
    expect(gatedRoutes().length).toBeGreaterThan(80);
  });

  it('answers 404 to another organization and to a key of another project, whatever the input; never 400', async () => {
    for (const route of gatedRoutes()) {
      for (const bad of [{ what: 'no input' }, ...badInputs(route)]) {
        for (const key of [keys.foreign, keys.scopedElsewhere]) {
          const res = await send(route, key, bad);
          expect(res.statusCode, label(route, bad)).toBe(404);
          expect(res.json().error.code, label(route, bad)).toBe('not_found');
        }
      }
    }
  });

  it('refuses that same input from the organization itself with 400 (so the input is really bad)', async () => {
    let checked = 0;
    for (const route of gatedRoutes()) {
      for (const bad of badInputs(route)) {
        const res = await send(route, t.adminKey, bad);
        expect(res.statusCode, label(route, bad)).toBe(400);
        expect(res.json().error.code, label(route, bad)).toBe('invalid_request');
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(100);
  });

  it('answers 403 to a key lacking the route\'s permission before looking at its input', async () => {
    for (const route of gatedRoutes()) {
      const permission = route.op['x-permission'];
      expect(permission, `${route.method} ${route.path} declares no permission`).toBeDefined();
      const key = permission === 'webhook:create' ? keys.readOnly : keys.withoutWebhook;
      for (const bad of badInputs(route)) {
        const res = await send(route, key, bad);
        expect(res.statusCode, label(route, bad)).toBe(403);
        expect(res.json().error, label(route, bad)).toMatchObject({ code: 'forbidden', details: { permission } });
      }
    }
  });

  it('reads a project once for GET /v1/projects/{id}, and not at all once it is cached', async () => {
    t.ctx.events.emit('project.changed', { projectId });
    const reads = vi.spyOn(t.ctx.projects, 'get');
    try {
      expect((await t.app.inject({ url: `/v1/projects/${projectId}`, headers: bearer(t.adminKey) })).statusCode).toBe(200);
      expect(reads).toHaveBeenCalledTimes(1);
      expect((await t.app.inject({ url: `/v1/projects/${projectId}`, headers: bearer(t.adminKey) })).json().data.id).toBe(projectId);
      expect(reads).toHaveBeenCalledTimes(1);
    } finally {
      reads.mockRestore();
    }
  });
});

describe('routes that would escape the gate', () => {
  const find = findWebhookEventForCaller;

  it('refuse to start: an API-key route naming an id outside a project without config.resource', () => {
    expect(() => checkGatedRoute({ method: 'PATCH', url: '/v1/things/:thingId', config: { permission: 'admin' } })).toThrow(/:thingId.*config\.resource/);
    expect(() => checkGatedRoute({ method: 'GET', url: '/v1/things/:thingId', config: { permission: 'admin', resource: { param: 'id', kind: 'webhookMessage', find } } })).toThrow(
      /"id" is not a parameter/,
    );
  });

  it('start when the route is public, under a project, or declares its resource', () => {
    expect(() => checkGatedRoute({ method: 'POST', url: '/v1/things/:thingId', config: { public: true } })).not.toThrow();
    expect(() => checkGatedRoute({ method: 'PATCH', url: '/v1/projects/:projectId/things/:thingId', config: { permission: 'admin' } })).not.toThrow();
    expect(() => checkGatedRoute({ method: 'GET', url: '/v1/things/:id', config: { permission: 'admin', resource: { param: 'id', kind: 'webhookMessage', find } } })).not.toThrow();
  });
});
