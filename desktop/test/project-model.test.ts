import { describe, expect, it } from 'vitest';
import { buildProjectModel, lintSiteConfig, workspaceTree } from '../src/core/project-model';

describe('project model (the workspace tree from in-memory files)', () => {
  it('finds the docs root by the builder\'s rules, skipping the folders the build skips', () => {
    const page = { 'index.mdx': '# Home\n' };
    expect(buildProjectModel({ ...page, 'docs.json': '{}', 'docs/docs.json': '{}' }).docsRoot).toBe('');
    expect(buildProjectModel({ 'README.md': '# Repo', 'docs/docs.json': '{}', 'site/x/docs.json': '{}' }).docsRoot).toBe('docs');
    expect(buildProjectModel({ 'dist/docs.json': '{}', '.github/docs.json': '{}', 'site/guide/docs.json': '{}' }).docsRoot).toBe('site/guide');
    expect(buildProjectModel({ 'README.md': '# Repo', 'docs/intro.md': '# Intro' }).docsRoot).toBe('docs');
  });

  it('lists the navigation\'s pages by title under their groups and tabs, and every other file apart', () => {
    const files = {
      'README.md': '# Repo\n',
      'docs/docs.json': JSON.stringify({
        name: 'Acme',
        navigation: { tabs: [{ tab: 'Guides', groups: [{ group: 'Start', pages: ['index', 'setup'] }] }] },
      }),
      'docs/index.mdx': '---\ntitle: Home page\nsidebarTitle: Home\n---\n\nHello.\n',
      'docs/setup.md': '# Setting up\n\nSteps.\n',
      'docs/draft.mdx': '---\ntitle: Draft\n---\n',
      'docs/snippets/a.mdx': 'A snippet.\n',
    };
    const model = buildProjectModel(files);
    expect(model.docsRoot).toBe('docs');
    const tree = workspaceTree(model, Object.keys(files));
    expect(tree[0]).toEqual({
      label: 'Guides',
      kind: 'group',
      children: [
        {
          label: 'Start',
          kind: 'group',
          children: [
            { label: 'Home', kind: 'page', path: 'docs/index.mdx' },
            { label: 'Setting up', kind: 'page', path: 'docs/setup.md' },
          ],
        },
      ],
    });
    expect(tree[1]).toMatchObject({ label: 'Other files', kind: 'group' });
    expect(tree[1]!.children!.map((c) => c.path)).toEqual(['README.md', 'docs/docs.json', 'docs/draft.mdx', 'docs/snippets/a.mdx']);
  });

  it('throws the engine\'s configuration error for a docs.json that does not parse', () => {
    expect(() => buildProjectModel({ 'docs.json': '{ "name": ', 'index.mdx': '# Hi\n' })).toThrow(/docs\.json/);
  });

  it('shows the build\'s OpenAPI pages under their group with their method, and an entry without a file as missing', () => {
    const spec = {
      openapi: '3.0.0',
      info: { title: 'Pets', version: '1' },
      paths: {
        '/pets': {
          get: { summary: 'List pets', responses: { '200': { description: 'ok' } } },
          post: { summary: 'Create a pet', responses: { '201': { description: 'created' } } },
        },
        '/internal': { get: { summary: 'Internal', 'x-hidden': true, responses: { '200': { description: 'ok' } } } },
      },
    };
    const files = {
      'docs.json': JSON.stringify({
        name: 'Pets',
        navigation: { groups: [{ group: 'Start', pages: ['index', 'guides/setup'] }, { group: 'API reference', openapi: 'api/openapi.json' }] },
      }),
      'index.mdx': '# Welcome\n',
      'api/openapi.json': JSON.stringify(spec),
    };
    const tree = workspaceTree(buildProjectModel(files), Object.keys(files));
    expect(tree.slice(0, 2)).toEqual([
      {
        label: 'Start',
        kind: 'group',
        children: [
          { label: 'Welcome', kind: 'page', path: 'index.mdx' },
          { label: 'Setup', kind: 'page', missing: true, page: 'guides/setup' },
        ],
      },
      {
        label: 'API reference',
        kind: 'group',
        children: [
          { label: 'List pets', kind: 'page', method: 'GET', spec: 'api/openapi.json' },
          { label: 'Create a pet', kind: 'page', method: 'POST', spec: 'api/openapi.json' },
        ],
      },
    ]);
    expect(tree[2]!.children!.map((c) => c.path)).toEqual(['api/openapi.json', 'docs.json']);
  });

  it('lints the edited docs.json against the workspace\'s pages, and leaves pages to the page linter', async () => {
    const files = { 'docs/docs.json': '{}', 'docs/index.mdx': '# Home\n', 'docs/guides/setup.mdx': '# Setup\n' };
    const text = '{\n  "navigation": { "pages": ["index", "guides/setup", "guides/gone"] }\n}\n';
    const findings = await lintSiteConfig(files, 'docs/docs.json', text, {});
    expect(findings).toEqual([
      expect.objectContaining({
        ruleId: 'navigation/missing-page',
        line: 2,
        column: 54,
        message: expect.stringMatching(/^navigation\.pages\[2\] names the page "guides\/gone"/),
      }),
    ]);
    expect(await lintSiteConfig(files, 'docs/docs.json', '{ "navigation": ', {})).toEqual([]);
    expect(await lintSiteConfig(files, 'docs/index.mdx', '# Home\n', {})).toBeUndefined();
  });
});
