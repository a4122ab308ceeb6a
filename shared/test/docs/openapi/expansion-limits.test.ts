/**
 * A small spec whose schemas reference each other wide and deep (each of 7 levels has 30 properties
 * pointing at the next level) expands to 30^6 example values and 30^10 fields: the endpoint page and
 * the schema page still render, with examples truncated and deep fields cut, an `openapi` warning
 * naming the spec, and bounded memory.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CORPUS_DIR, dirFiles } from '../../helpers/dir-files';
import { memoryFiles } from '../../../src/docs/files';
import { MAX_OPENAPI_EXAMPLE_CHARS, MAX_OPENAPI_PAGE_CHARS } from '../../../src/docs/limits';
import { loadOpenApiRegistry, renderOperation, renderSchemaPage } from '../../../src/docs/openapi';
import type { BuildWarning } from '../../../src/docs/types';

const WIDTH = 30;
const LEVELS = 12;

function wideDeepSpec(): string {
  const schemas: Record<string, unknown> = {};
  for (let i = 0; i < LEVELS; i++) {
    const properties: Record<string, unknown> = {};
    for (let p = 0; p < WIDTH; p++) {
      properties[`field${p}`] = i === LEVELS - 1 ? { type: 'string', description: 'leaf' } : { $ref: `#/components/schemas/L${i + 1}` };
    }
    schemas[`L${i}`] = { type: 'object', description: `level ${i}`, properties };
  }
  const body = { content: { 'application/json': { schema: { $ref: '#/components/schemas/L0' } } } };
  return JSON.stringify({
    openapi: '3.1.0',
    info: { title: 'bomb', version: '1' },
    paths: { '/bomb': { post: { requestBody: body, responses: { '200': { description: 'ok', ...body } } } } },
    components: { schemas },
  });
}

describe('OpenAPI expansion limits', () => {
  const files = memoryFiles({ 'api/bomb.json': wideDeepSpec() });
  const { registry } = loadOpenApiRegistry(files, []);

  it('renders an operation whose schemas expand exponentially, truncated, with a warning naming the spec', async () => {
    const warnings: BuildWarning[] = [];
    const before = process.memoryUsage().heapUsed;
    const html = await renderOperation(registry.resolve('POST /bomb')!, { warnings });
    expect(process.memoryUsage().heapUsed - before).toBeLessThan(200_000_000);
    // bounded: the page limit plus the markup of one last row of fields
    expect(html.length).toBeLessThan(2 * MAX_OPENAPI_PAGE_CHARS);
    expect(html).toContain('Too large to show');
    expect(html).toContain('example truncated');
    expect(warnings.length).toBeGreaterThan(0);
    for (const w of warnings) {
      expect(w.kind).toBe('openapi');
      expect(w.file).toBe('api/bomb.json');
      expect(w.message).toMatch(/^api\/bomb\.json: POST \/bomb: /);
    }
    expect(warnings.map((w) => w.message).join('\n')).toMatch(/example truncated at 200 KB/);
    expect(warnings.map((w) => w.message).join('\n')).toMatch(/fields cut after 4 MB/);
    expect(MAX_OPENAPI_EXAMPLE_CHARS).toBe(200_000);
  }, 60_000);

  it('renders the schema page of the same schema, truncated, with a warning', async () => {
    const warnings: BuildWarning[] = [];
    const html = await renderSchemaPage(registry.schema('L0')!, { warnings });
    expect(html.length).toBeLessThan(2 * MAX_OPENAPI_PAGE_CHARS);
    expect(warnings.map((w) => w.message).join('\n')).toMatch(/^api\/bomb\.json: schema L0: /);
  }, 60_000);

  it('leaves a spec-given example over the limit out of the page instead of printing it', async () => {
    const big = Array.from({ length: 30_000 }, (_, i) => ({ id: i, name: `item number ${i}` }));
    const spec = {
      openapi: '3.1.0',
      info: { title: 't', version: '1' },
      paths: { '/big': { get: { responses: { '200': { description: 'ok', content: { 'application/json': { schema: { type: 'array' }, example: big } } } } } } },
    };
    const reg = loadOpenApiRegistry(memoryFiles({ 'big.json': JSON.stringify(spec) }), []).registry;
    const warnings: BuildWarning[] = [];
    const html = await renderOperation(reg.resolve('GET /big')!, { warnings });
    expect(html).not.toContain('item number 29999');
    expect(html).toContain('example too large to show');
    expect(warnings.map((w) => w.message)).toEqual(['big.json: GET /big: response 200: example over 200 KB left out']);
  });
});

describe('OpenAPI limits and the real corpora', () => {
  it.each(['trigger-dev', 'pezzo'])('%s: no operation page is cut', async (name) => {
    const { registry } = loadOpenApiRegistry(dirFiles(path.join(CORPUS_DIR, name)), []);
    const warnings: BuildWarning[] = [];
    expect(registry.operations().length).toBeGreaterThan(3);
    for (const op of registry.operations()) await renderOperation(op, { warnings });
    expect(warnings).toEqual([]);
  });
});
