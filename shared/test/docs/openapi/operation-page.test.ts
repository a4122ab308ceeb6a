import { describe, expect, it } from 'vitest';
import { memoryFiles } from '@quire/shared/docs/files';
import { loadOpenApiRegistry } from '@quire/shared/docs/openapi/index';
import type { NavNode } from '@quire/shared/docs/types';
import { expandOpenApiNav, navUsesOpenApi } from '@quire/shared/docs/config/index';
import { renderOperationPage } from '../../../src/docs/openapi/operation-page';

const spec = {
  openapi: '3.0.0',
  info: { title: 'Pets', version: '1' },
  paths: {
    '/pets': {
      get: { operationId: 'listPets', summary: 'List pets', tags: ['Pets'], description: 'All the pets.\n\nMore.', responses: { '200': { description: 'ok' } } },
      post: { operationId: 'createPet', summary: 'Create a pet', tags: ['Pets'], responses: { '201': { description: 'created' } } },
    },
    '/internal': { get: { operationId: 'internal', summary: 'Internal', 'x-hidden': true, responses: { '200': { description: 'ok' } } } },
  },
};
const files = memoryFiles({ 'api/openapi.json': JSON.stringify(spec), 'intro.mdx': '# Intro' });
const { registry } = loadOpenApiRegistry(files, ['api/openapi.json']);

describe('OpenAPI navigation pages', () => {
  it('turns an openapi group without pages into one page per operation, hidden ones unlisted', () => {
    const nav: NavNode[] = [{ type: 'group', title: 'API', openapi: 'api/openapi.json', children: [] }];
    expect(navUsesOpenApi(nav)).toBe(true);
    const out = expandOpenApiNav(nav, registry);
    expect(out.warnings).toEqual([]);
    const group = out.nav[0];
    expect(group?.type === 'group' && group.children.map((c) => c.type === 'page' && [c.title, c.method, c.hidden ?? false])).toEqual([
      ['List pets', 'GET', false],
      ['Create a pet', 'POST', false],
      ['Internal', 'GET', true],
    ]);
    expect(out.operations).toHaveLength(3);
    expect(new Set(out.operations.map((o) => o.path)).size).toBe(3);
  });

  it('resolves operation entries against the inherited spec and drops unknown ones with a warning', () => {
    const nav: NavNode[] = [
      {
        type: 'division',
        kind: 'tab',
        title: 'API',
        openapi: 'api/openapi.json',
        children: [
          { type: 'group', title: 'Pets', children: [{ type: 'page', path: 'intro' }, { type: 'page', path: '', openapi: 'POST /pets' }, { type: 'page', path: '', openapi: 'DELETE /nothing' }] },
        ],
      },
    ];
    const out = expandOpenApiNav(nav, registry, 'docs.json');
    const pages = out.nav[0]?.type === 'division' && out.nav[0].children[0]?.type === 'group' ? out.nav[0].children[0].children : [];
    expect(pages.map((p) => p.type === 'page' && p.path)).toEqual(['intro', out.operations[0]!.path]);
    expect(out.operations.map((o) => o.title)).toEqual(['Create a pet']);
    expect(out.warnings).toEqual([expect.objectContaining({ kind: 'openapi', file: 'docs.json', message: expect.stringContaining('DELETE /nothing') })]);
    expect(navUsesOpenApi([{ type: 'page', path: 'intro' }])).toBe(false);
  });

  it('renders an operation page with its toc, Markdown export and the spec as dependency', async () => {
    const [op] = expandOpenApiNav([{ type: 'group', title: 'API', openapi: 'api/openapi.json', children: [] }], registry).operations;
    const page = await renderOperationPage(registry, op!.ref, async (code) => `<pre>${code}</pre>`);
    expect(page?.title).toBe('List pets');
    expect(page?.description).toBe('All the pets.');
    expect(page?.markdown).toContain('`GET /pets`');
    expect(page?.html).toContain('/pets');
    expect(page?.dependencies).toEqual(['api/openapi.json']);
    expect(await renderOperationPage(registry, 'GET /nope', async (c) => c)).toBeUndefined();
  });

  it('puts the pages of an openapi {source, directory} in that folder, for generated groups and listed operations', () => {
    const nav: NavNode[] = [
      {
        type: 'division', kind: 'product', title: 'API', openapi: 'api/openapi.json', openapiDirectory: 'fr/api-reference',
        children: [
          { type: 'group', title: 'Listed', children: [{ type: 'page', path: '', openapi: 'GET /pets' }] },
          { type: 'group', title: 'All', openapi: 'api/openapi.json', openapiDirectory: 'en/reference', children: [] },
          { type: 'group', title: 'Plain', openapi: 'api/openapi.json', children: [{ type: 'page', path: '', openapi: 'POST /pets' }] },
        ],
      },
    ];
    const out = expandOpenApiNav(nav, registry);
    const groups = out.nav[0]!.type === 'division' ? out.nav[0]!.children : [];
    const paths = groups.map((g) => (g.type === 'group' ? g.children.map((c) => c.type === 'page' && c.path) : []));
    expect(paths).toEqual([
      ['fr/api-reference/pets/list-pets'],
      ['en/reference/pets/list-pets', 'en/reference/pets/create-pet', 'en/reference/internal'],
      // a group with its own openapi and no directory: the default folder (the spec's name)
      ['openapi/pets/create-pet'],
    ]);
    expect(out.operations.map((o) => o.path).sort()).toEqual([...paths.flat()].sort());
  });

  it('never gives two specs the same page: the second spec named openapi.json gets its own folder in front', () => {
    const frSpec = { ...spec, info: { title: 'Animaux', version: '1' }, paths: { '/pets': { get: { ...spec.paths['/pets'].get, summary: 'Lister les animaux' } } } };
    const two = loadOpenApiRegistry(memoryFiles({ 'en/openapi.json': JSON.stringify(spec), 'fr/openapi.json': JSON.stringify(frSpec) }), ['en/openapi.json', 'fr/openapi.json']).registry;
    const nav: NavNode[] = [
      { type: 'division', kind: 'language', title: 'en', children: [{ type: 'group', title: 'API', openapi: 'en/openapi.json', children: [{ type: 'page', path: '', openapi: 'GET /pets' }] }] },
      { type: 'division', kind: 'language', title: 'fr', children: [{ type: 'group', title: 'API', openapi: 'fr/openapi.json', children: [{ type: 'page', path: '', openapi: 'GET /pets' }] }] },
    ];
    const out = expandOpenApiNav(nav, two);
    expect(out.operations.map((o) => [o.path, o.title])).toEqual([
      ['openapi/pets/list-pets', 'List pets'],
      ['fr/openapi/pets/list-pets', 'Lister les animaux'],
    ]);
  });
});
