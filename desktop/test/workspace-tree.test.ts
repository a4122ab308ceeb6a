import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocalFolderCore, type LocalFolderCore } from './helpers/local-folder-core';

/** The workspace tree of a docs folder is the build's navigation: OpenAPI pages, missing entries, docs.json edits as they are saved. */
let fx: LocalFolderCore;
let c: LocalFolderCore['c'];
let projectId: string;

const spec = {
  openapi: '3.0.0',
  info: { title: 'Pets', version: '1' },
  paths: {
    '/pets': {
      get: { summary: 'List pets', responses: { '200': { description: 'ok' } } },
      delete: { summary: 'Remove all pets', responses: { '204': { description: 'gone' } } },
    },
  },
};
const docsJson = (pages: string[]) =>
  JSON.stringify({ name: 'Pets', navigation: { groups: [{ group: 'Start', pages }, { group: 'API reference', openapi: 'openapi.json' }] } }, null, 2);

beforeAll(async () => {
  fx = await startLocalFolderCore('tree', {
    'docs.json': docsJson(['index', 'quickstart']),
    'index.mdx': '---\ntitle: Welcome\n---\n\nHello.\n',
    'openapi.json': JSON.stringify(spec),
  });
  ({ c, projectId } = fx);
});

afterAll(async () => {
  await fx?.close();
});

describe('the workspace tree', () => {
  it('shows the OpenAPI operation pages the site shows, with their method and spec, and a page listed without a file as missing', async () => {
    const { nodes, error } = await c.workspace.tree({ projectId });
    expect(error).toBeNull();
    expect(nodes.slice(0, 2)).toEqual([
      {
        label: 'Start',
        kind: 'group',
        children: [
          { label: 'Welcome', kind: 'page', path: 'index.mdx' },
          { label: 'Quickstart', kind: 'page', missing: true, page: 'quickstart' },
        ],
      },
      {
        label: 'API reference',
        kind: 'group',
        children: [
          { label: 'List pets', kind: 'page', method: 'GET', spec: 'openapi.json' },
          { label: 'Remove all pets', kind: 'page', method: 'DELETE', spec: 'openapi.json' },
        ],
      },
    ]);
  });

  it('reports the missing entry as a docs.json problem at the entry, with its JSON path', async () => {
    const text = docsJson(['index', 'quickstart']);
    const findings = await c.lint.run({ projectId, path: 'docs.json', text });
    const line = text.split('\n').findIndex((l) => l.includes('"quickstart"')) + 1;
    expect(findings).toEqual([
      expect.objectContaining({
        ruleId: 'navigation/missing-page',
        line,
        message: expect.stringContaining('navigation.groups[0].pages[1] names the page "quickstart"'),
      }),
    ]);
  });

  it('follows docs.json as it is edited: the next tree has the new entry, and the problem is gone once the page exists', async () => {
    await c.files.write({ projectId, path: 'docs.json', content: docsJson(['index', 'guides/setup']) });
    const start = (await c.workspace.tree({ projectId })).nodes[0]!;
    expect(start.children).toEqual([{ label: 'Welcome', kind: 'page', path: 'index.mdx' }, { label: 'Setup', kind: 'page', missing: true, page: 'guides/setup' }]);
    await c.files.write({ projectId, path: 'guides/setup.mdx', content: '# Setting up\n' });
    expect((await c.workspace.tree({ projectId })).nodes[0]!.children![1]).toEqual({ label: 'Setting up', kind: 'page', path: 'guides/setup.mdx' });
    expect(await c.lint.run({ projectId, path: 'docs.json', text: docsJson(['index', 'guides/setup']) })).toEqual([]);
  });

  it('offers to remove a missing entry as the lint fix of docs.json: applied, the entry and the missing page are gone', async () => {
    await c.files.write({ projectId, path: 'docs.json', content: docsJson(['index', 'old-page', 'guides/setup']) });
    const text = (await c.files.read({ projectId, path: 'docs.json' })).content!;
    const [finding] = await c.lint.run({ projectId, path: 'docs.json', text });
    expect(finding).toMatchObject({ ruleId: 'navigation/missing-page', fix: expect.anything() });
    const fixed = await c.lint.applyFix({ projectId, path: 'docs.json', fix: finding!.fix! });
    expect(fixed.content).toBe(docsJson(['index', 'guides/setup']));
    expect((await c.workspace.tree({ projectId })).nodes[0]!.children!.map((n) => n.label)).toEqual(['Welcome', 'Setting up']);
  });
});
