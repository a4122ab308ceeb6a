import { describe, expect, it } from 'vitest';
import { loadOpenApiRegistry, renderOperation } from '../../../src/docs/openapi';
import { playgroundDisplay, playgroundOrigins, serverOrigin, type PlaygroundData } from '../../../src/docs/openapi/playground';
import { fixtureFiles } from './fixtures';

/** Endpoint pages: examples beside the reference, and the playground's data for the reader's browser. */
const { registry } = loadOpenApiRegistry(fixtureFiles(), []);
const op = (ref: string) => registry.resolve(ref)!;

function dataOf(html: string): PlaygroundData | undefined {
  const m = /data-q-playground="([^"]*)"/.exec(html);
  if (!m) return undefined;
  const json = m[1]!.replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');
  return JSON.parse(json) as PlaygroundData;
}

describe('endpoint page layout', () => {
  it('puts the request and response examples in their own column, between the head and the reference', async () => {
    const html = await renderOperation(op('openapi POST /users'));
    const head = html.indexOf('class="q-openapi-head"');
    const aside = html.indexOf('class="q-openapi-aside" role="region" aria-label="Examples"');
    const body = html.indexOf('class="q-openapi-body"');
    expect(head).toBeGreaterThan(0);
    expect(aside).toBeGreaterThan(head);
    expect(body).toBeGreaterThan(aside);
    // the samples and the response example are in the aside, the fields in the body
    expect(html.slice(aside, body)).toContain('cURL');
    expect(html.slice(aside, body)).toContain('201');
    expect(html.slice(body)).toContain('data-section="body"');
    expect(html.slice(head, aside)).toContain('q-openapi-endpoint');
  });
});

describe('playground data', () => {
  it('describes the request: server, parameters, auth from the security schemes, and an editable body', async () => {
    const list = dataOf(await renderOperation(op('openapi GET /users')))!;
    expect(list).toMatchObject({ method: 'GET', path: '/users', server: 'https://eu.example.com/v1' });
    expect(list.params.map((p) => [p.name, p.in, p.required])).toEqual([
      ['limit', 'query', true],
      ['X-Trace', 'header', false],
    ]); // cookies cannot be set by a page: left out
    expect(list.auth).toEqual([{ key: 'apiKey', type: 'apiKey', name: 'X-Api-Key', in: 'header' }]);

    const create = dataOf(await renderOperation(op('openapi POST /users')))!;
    expect(create.body?.contentType).toBe('application/json');
    expect(JSON.parse(create.body!.example)).toHaveProperty('email');
  });

  it('is left out when a browser cannot call the operation (no absolute server)', async () => {
    const files = fixtureFiles({ 'rel.json': JSON.stringify({ openapi: '3.0.3', info: { title: 'R', version: '1' }, servers: [{ url: '/api' }], paths: { '/x': { get: { responses: { '200': { description: 'OK' } } } } } }) });
    const { registry: r } = loadOpenApiRegistry(files, ['rel.json']);
    const html = await renderOperation(r.resolve('rel GET /x')!);
    expect(html).not.toContain('data-q-playground');
  });
});

describe('playground setting and origins', () => {
  it.each([
    [{ api: { playground: { display: 'interactive' } } }, 'interactive'],
    [{ api: { playground: { mode: 'show' } } }, 'interactive'],
    [{ api: { playground: { display: 'simple' } } }, 'simple'],
    [{ api: { playground: { mode: 'hide' } } }, 'none'],
    [{}, 'none'],
    [undefined, 'none'],
  ])('%j -> %s', (raw, expected) => {
    expect(playgroundDisplay(raw as Record<string, unknown> | undefined)).toBe(expected);
  });

  it('keeps only plain http(s) origins', () => {
    expect(serverOrigin('https://api.example.com/v1/')).toBe('https://api.example.com');
    expect(serverOrigin('https://user:pw@api.example.com')).toBeUndefined();
    expect(serverOrigin('ftp://x')).toBeUndefined();
    expect(playgroundOrigins(['https://a.example.com/v1', 'nope', 3, 'http://127.0.0.1:8080/x'])).toEqual(['https://a.example.com', 'http://127.0.0.1:8080']);
    expect(playgroundOrigins(undefined)).toEqual([]);
  });
});
