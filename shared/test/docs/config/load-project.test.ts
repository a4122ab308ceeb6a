import { describe, expect, it } from 'vitest';
import { findDocsRoot, repoFoldersOf } from '../../../src/docs/config/docs-root';
import { loadProject, memoryRepository } from '../../../src/docs/config/load-project';
import type { NavNode } from '../../../src/docs/types';

const rootOf = (paths: string[]) => findDocsRoot(repoFoldersOf(paths));

const petsSpec = JSON.stringify({
  openapi: '3.0.0',
  info: { title: 'Pets', version: '1' },
  paths: {
    '/pets': {
      get: { summary: 'List pets', responses: { '200': { description: 'ok' } } },
      post: { summary: 'Create a pet', responses: { '201': { description: 'created' } } },
    },
  },
});

/** The navigation as (title, method) pairs under group titles. */
function outline(nodes: NavNode[]): unknown[] {
  return nodes.map((n) => {
    if (n.type === 'page') return n.method ? `${n.method} ${n.title}` : n.path;
    if (n.type === 'link') return n.href;
    return { [n.title]: outline(n.children) };
  });
}

describe('the docs root of a repository', () => {
  it('is the root or docs/ when they hold a config, else the shallowest folder holding one', () => {
    expect(rootOf(['docs.json', 'index.mdx', 'docs/docs.json'])).toBe('');
    expect(rootOf(['README.md', 'docs/docs.json', 'site/x/docs.json'])).toBe('docs');
    expect(rootOf(['README.md', 'packages/web/mint.json', 'b/docs.json'])).toBe('b');
    expect(rootOf(['README.md', 'apps/site/mint.json', 'apps/web/docs.json'])).toBe('apps/site');
  });

  it('without a config is docs/ when only it holds Markdown (the repository\'s README does not count)', () => {
    expect(rootOf(['README.md', 'docs/intro.md'])).toBe('docs');
    expect(rootOf(['intro.md', 'docs/other.md'])).toBe('');
  });

  it('is never searched for in dependency, CI, build-output or hidden folders, nor deeper than three levels', () => {
    for (const skipped of ['node_modules/pkg', '.github', 'dist', 'build', 'coverage', '.vitepress']) {
      expect(rootOf([`${skipped}/docs.json`, 'site/guide/docs.json'])).toBe('site/guide');
    }
    expect(rootOf(['a/b/c/d/docs.json', 'index.mdx'])).toBe('');
  });
});

describe('loading a project from its repository files', () => {
  it('finds the docs root, reads docs.json and lists the pages the build publishes', () => {
    const { project, files } = loadProject(memoryRepository({
      'README.md': '# Repo',
      'node_modules/pkg/docs.json': '{}',
      'docs/docs.json': JSON.stringify({ name: 'Acme', navigation: { groups: [{ group: 'Start', pages: ['index'] }] } }),
      'docs/index.mdx': '# Home',
      'docs/draft.mdx': '# Draft',
      'docs/build/out.mdx': '# Tool output',
      'docs/snippets/note.mdx': 'A note.',
    }));
    expect(project.docsRootRel).toBe('docs');
    expect(project.config.name).toBe('Acme');
    expect(project.pageFiles).toEqual(['draft.mdx', 'index.mdx']);
    expect(files.read('index.mdx')).toBe('# Home');
    expect(outline(project.nav)).toEqual([{ Start: ['index'] }]);
    expect(project.warnings.filter((w) => w.kind !== 'config')).toEqual([]);
  });

  it('expands an OpenAPI group into the pages of its operations and resolves operation entries', () => {
    const { project } = loadProject(memoryRepository({
      'docs.json': JSON.stringify({
        name: 'Pets',
        navigation: {
          groups: [
            { group: 'Guides', pages: ['index', 'POST /pets'] },
            { group: 'API reference', openapi: 'api/openapi.json' },
          ],
        },
        openapi: 'api/openapi.json',
      }),
      'index.mdx': '# Home',
      'api/openapi.json': petsSpec,
    }));
    expect(outline(project.nav)).toEqual([{ Guides: ['index', 'POST Create a pet'] }, { 'API reference': ['GET List pets', 'POST Create a pet'] }]);
    expect(project.operations.map((o) => [o.method, o.title, o.specFile])).toEqual([
      ['POST', 'Create a pet', 'api/openapi.json'],
      ['GET', 'List pets', 'api/openapi.json'],
    ]);
    expect(project.apiCoverage).toEqual({ operations: 2, documented: 2 });
    const repo = memoryRepository({ 'docs.json': '{"name":"x"}', 'index.mdx': '# Hi', 'api/openapi.json': petsSpec });
    const withoutCoverage = loadProject(repo, { apiCoverage: false });
    expect(withoutCoverage.project.apiCoverage).toBeUndefined();
  });

  it('keeps a navigation entry whose page has no file, with a missing-page warning on docs.json', () => {
    const { project } = loadProject(memoryRepository({
      'docs.json': JSON.stringify({ name: 'Acme', navigation: { groups: [{ group: 'Start', pages: ['index', 'guides/setup'] }] } }),
      'index.mdx': '# Home',
    }));
    expect(outline(project.nav)).toEqual([{ Start: ['index', 'guides/setup'] }]);
    expect(project.warnings.filter((w) => w.kind === 'missing-page')).toEqual([
      {
        kind: 'missing-page',
        file: 'docs.json',
        message: 'Navigation entry "guides/setup" (in "Start") has no file: expected guides/setup.mdx or guides/setup.md.',
      },
    ]);
  });

  it('loads a repository with no page at all (the caller decides whether that is an error)', () => {
    const { project } = loadProject(memoryRepository({ 'package.json': '{}' }));
    expect(project).toMatchObject({ docsRootRel: '', pageFiles: [], operations: [], nav: [] });
  });
});
