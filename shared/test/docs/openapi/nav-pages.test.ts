import { describe, expect, it } from 'vitest';
import { memoryFiles } from '../../../src/docs/files';
import { loadOpenApiRegistry, operationNavGroups, operationPagePath } from '../../../src/docs/openapi';
import { fixtureFiles } from './fixtures';

const { registry } = loadOpenApiRegistry(fixtureFiles(), []);

describe('operationNavGroups', () => {
  it('groups a spec’s operations by tag, untagged last, each page resolving back to its operation', () => {
    const groups = operationNavGroups(registry.operations('v3-openapi'));
    expect(groups.map((g) => g.title)).toEqual(['Runs', 'Other']);
    const pages = groups.flatMap((g) => g.children);
    expect(pages.map((p) => p.type === 'page' && p.method)).toEqual(['GET', 'GET', 'WEBHOOK']);
    for (const p of pages) {
      if (p.type !== 'page') throw new Error('page expected');
      const op = registry.resolve(p.openapi!)!;
      expect(op).toBeDefined();
      expect(p.path).toBe(operationPagePath(op));
      expect(p.title).toBe(op.title);
    }
  });

  it('uses one untitled group when no operation has a tag', () => {
    const spec = { openapi: '3.1.0', paths: { '/a': { get: { responses: {} }, post: { responses: {} } } } };
    const { registry: r } = loadOpenApiRegistry(memoryFiles({ 's.yaml': JSON.stringify(spec) }), []);
    const groups = operationNavGroups(r.operations());
    expect(groups).toHaveLength(1);
    expect(groups[0]).toMatchObject({ type: 'group', title: '' });
    expect(groups[0]!.children.map((p) => p.type === 'page' && p.path)).toEqual(['s/get-a', 's/post-a']);
  });

  it('follows the spec’s tags list for group order', () => {
    const swagger = operationNavGroups(registry.operations('swagger'));
    expect(swagger.map((g) => g.title)).toEqual(['Pets', 'Other']);
    const spec = {
      openapi: '3.0.0',
      tags: [{ name: 'Zebra' }, { name: 'Apple' }],
      paths: { '/a': { get: { tags: ['Apple'], responses: {} } }, '/z': { get: { tags: ['Zebra'], responses: {} } } },
    };
    const { registry: r } = loadOpenApiRegistry(memoryFiles({ 't.json': JSON.stringify(spec) }), []);
    expect(operationNavGroups(r.operations()).map((g) => g.title)).toEqual(['Zebra', 'Apple']);
  });
});
