import { describe, expect, it } from 'vitest';
import { buildProjectModel, findDocsRootIn, workspaceTree } from '../src/core/project-model';

describe('project model (the workspace tree from in-memory files)', () => {
  it('finds the docs root by the builder\'s rules', () => {
    expect(findDocsRootIn(['docs.json', 'index.mdx', 'docs/docs.json'])).toBe('');
    expect(findDocsRootIn(['README.md', 'docs/docs.json', 'site/x/docs.json'])).toBe('docs');
    expect(findDocsRootIn(['README.md', 'packages/web/mint.json', 'b/docs.json'])).toBe('b');
    expect(findDocsRootIn(['README.md', 'docs/intro.md'])).toBe('docs');
    expect(findDocsRootIn(['intro.md', 'docs/other.md'])).toBe('');
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
});
