import { describe, expect, it } from 'vitest';
import { memoryFiles } from '../../../src/docs/files';
import { loadOpenApiRegistry, operationPagePath } from '../../../src/docs/openapi';
import { fixtureFiles } from './fixtures';

describe('loadOpenApiRegistry: which files are specs', () => {
  it('loads every spec of the repository, declared or not, and nothing else', () => {
    const { registry, warnings } = loadOpenApiRegistry(fixtureFiles(), []);
    expect(registry.specFiles).toEqual(['api/v3-openapi.yaml', 'legacy/swagger.yml', 'openapi.json']);
    expect(warnings).toEqual([]);
  });

  it('warns about remote specs without fetching them, and about missing declared specs', () => {
    const { registry, warnings } = loadOpenApiRegistry(fixtureFiles(), [
      'https://example.com/openapi.json',
      '/openapi.json',
      'missing/spec.yaml',
    ]);
    expect(registry.specFiles).toContain('openapi.json');
    expect(warnings).toEqual([
      expect.objectContaining({ kind: 'openapi', message: expect.stringContaining('remote specs are not fetched') }),
      expect.objectContaining({ kind: 'openapi', message: expect.stringContaining('missing/spec.yaml') }),
    ]);
  });

  it('reports a broken declared spec with its line, and skips it', () => {
    const files = memoryFiles({ 'bad.yaml': 'openapi: 3.0.0\npaths:\n  /x: [\n' });
    const { registry, warnings } = loadOpenApiRegistry(files, ['bad.yaml']);
    expect(registry.specFiles).toEqual([]);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatchObject({ kind: 'openapi', file: 'bad.yaml', message: expect.stringContaining('invalid YAML') });
    expect(warnings[0]!.line).toBeGreaterThan(0);
  });

  it('warns about external and dangling $refs, once each', () => {
    const spec = {
      openapi: '3.0.0',
      paths: {
        '/a': {
          get: {
            responses: {
              '200': { description: 'x', content: { 'application/json': { schema: { $ref: 'other.yaml#/X' } } } },
              '404': { description: 'y', content: { 'application/json': { schema: { $ref: '#/components/schemas/Nope' } } } },
              '500': { description: 'z', content: { 'application/json': { schema: { $ref: 'other.yaml#/X' } } } },
            },
          },
        },
      },
    };
    const { registry, warnings } = loadOpenApiRegistry(memoryFiles({ 'spec.json': JSON.stringify(spec) }), []);
    expect(registry.specFiles).toEqual(['spec.json']);
    expect(warnings.map((w) => w.message)).toEqual([
      expect.stringContaining('external $ref "other.yaml#/X"'),
      expect.stringContaining('"#/components/schemas/Nope" points to nothing'),
    ]);
    expect(registry.resolve('GET /a')).toBeDefined();
  });
});

describe('OpenApiRegistry.resolve: every reference form', () => {
  const { registry } = loadOpenApiRegistry(fixtureFiles(), []);

  it.each([
    ['GET /users/{userId}', 'openapi.json', 'get', '/users/{userId}'],
    ['get /users/{userId}', 'openapi.json', 'get', '/users/{userId}'],
    ['post /users', 'openapi.json', 'post', '/users'],
    ['/openapi.json GET /users', 'openapi.json', 'get', '/users'],
    ['openapi.json GET /users', 'openapi.json', 'get', '/users'],
    ['openapi GET /users', 'openapi.json', 'get', '/users'],
    ['v3-openapi GET /api/v1/runs/{runId}', 'api/v3-openapi.yaml', 'get', '/api/v1/runs/{runId}'],
    ['/api/v3-openapi.yaml GET /api/v1/runs/{runId}', 'api/v3-openapi.yaml', 'get', '/api/v1/runs/{runId}'],
    ['"v3-openapi GET /api/v1/runs/{runId}"', 'api/v3-openapi.yaml', 'get', '/api/v1/runs/{runId}'],
    ['v3-openapi.yaml webhook runFinished', 'api/v3-openapi.yaml', 'post', 'runFinished'],
    ['webhook runFinished', 'api/v3-openapi.yaml', 'post', 'runFinished'],
    ['swagger POST /pets', 'legacy/swagger.yml', 'post', '/pets'],
  ])('%s', (ref, specFile, method, path) => {
    const op = registry.resolve(ref);
    expect(op).toMatchObject({ specFile, method, path });
  });

  it('with no spec named, searches specs alphabetically: the first match wins', () => {
    // both api/v3-openapi.yaml and openapi.json have GET /users
    expect(registry.resolve('GET /users')).toMatchObject({ specFile: 'api/v3-openapi.yaml', title: 'List users (v3)' });
  });

  it('searches the inherited default spec first', () => {
    expect(registry.resolve('GET /users', '/openapi.json')).toMatchObject({ specFile: 'openapi.json', title: 'List users' });
    expect(registry.resolve('GET /users', 'openapi')).toMatchObject({ specFile: 'openapi.json' });
  });

  it('a named spec is the only one searched', () => {
    expect(registry.resolve('openapi.json GET /api/v1/runs/{runId}')).toBeUndefined();
    expect(registry.resolve('nope.json GET /users')).toBeUndefined();
  });

  it('tolerates a trailing slash and renamed path parameters', () => {
    expect(registry.resolve('GET /users/{id}/')).toMatchObject({ path: '/users/{userId}' });
  });

  it('answers undefined for unknown operations and malformed references', () => {
    expect(registry.resolve('DELETE /users')).toBeUndefined();
    expect(registry.resolve('GET')).toBeUndefined();
    expect(registry.resolve('fetch the users')).toBeUndefined();
    expect(registry.resolve('')).toBeUndefined();
  });

  it('fills titles, descriptions, tags and flags', () => {
    const op = registry.resolve('POST /users')!;
    expect(op).toMatchObject({ title: 'Create a user', operationId: 'createUser', deprecated: true, tags: ['Users'], specVersion: '3.0' });
    expect(registry.resolve('swagger POST /pets/{petId}/photo')).toMatchObject({ title: 'uploadPhoto', specVersion: '2.0' });
    expect(registry.resolve('openapi GET /users/{userId}')!.title).toBe('Get a user');
  });
});

describe('OpenApiRegistry.operations', () => {
  const { registry } = loadOpenApiRegistry(fixtureFiles(), []);

  it('lists a spec by any of its names, without x-excluded operations, webhooks last', () => {
    const ops = registry.operations('v3-openapi');
    expect(ops.map((o) => `${o.kind} ${o.method} ${o.path}`)).toEqual([
      'operation get /api/v1/runs/{runId}',
      'operation get /users',
      'webhook post runFinished',
    ]);
    expect(registry.operations('/api/v3-openapi.yaml')).toHaveLength(3);
    expect(registry.operations('unknown')).toEqual([]);
  });

  it('lists all specs in alphabetical order', () => {
    const files = registry.operations().map((o) => o.specFile);
    expect(files).toEqual([...files].sort());
    expect(files).toHaveLength(3 + 2 + 3);
  });
});

describe('operationPagePath', () => {
  const { registry } = loadOpenApiRegistry(fixtureFiles(), []);

  it('is <spec stem>/<tag>/<operationId>, lowercase and URL-safe', () => {
    expect(operationPagePath(registry.resolve('v3-openapi GET /api/v1/runs/{runId}')!)).toBe('v3-openapi/runs/retrieve-run');
    expect(operationPagePath(registry.resolve('openapi POST /users')!)).toBe('openapi/users/create-user');
  });

  it('falls back to a method-path slug without operationId, and drops the tag segment without tags', () => {
    expect(operationPagePath(registry.resolve('openapi GET /users/{userId}')!)).toBe('openapi/users/get-users-user-id');
    expect(operationPagePath(registry.resolve('v3-openapi GET /users')!)).toBe('v3-openapi/get-users');
    expect(operationPagePath(registry.resolve('webhook runFinished')!)).toBe('v3-openapi/webhook-run-finished');
  });

  it('gives every operation of a spec a distinct path', () => {
    const paths = registry.operations().map(operationPagePath);
    expect(new Set(paths).size).toBe(paths.length);
    for (const p of paths) expect(p).toMatch(/^[a-z0-9-]+(\/[a-z0-9-]+)*$/);
  });

  it('honours x-mint.href', () => {
    const spec = { openapi: '3.1.0', paths: { '/a': { get: { 'x-mint': { href: '/api/Custom Page' }, responses: {} } } } };
    const { registry: r } = loadOpenApiRegistry(memoryFiles({ 's.json': JSON.stringify(spec) }), []);
    expect(operationPagePath(r.resolve('GET /a')!)).toBe('api/custom-page');
  });
});
