import { describe, expect, it } from 'vitest';
import { memoryFiles } from '../../../src/docs/files';
import { folderNavigation, firstHeading } from '../../../src/docs/config/folder-navigation';
import { loadSiteConfig } from '../../../src/docs/config/load-site-config';
import { listPageFiles } from '../../../src/docs/config/page-files';
import { titleFromPath } from '../../../src/docs/config/title-from-path';

const withConfig = (files: Record<string, string>) => memoryFiles({ 'docs.json': '{}', ...files });

describe('listPageFiles', () => {
  it('keeps .md and .mdx pages, not snippets, not other files', () => {
    const files = withConfig({
      'intro.mdx': '', 'guides/a.md': '', 'snippets/s.mdx': '', '_snippets/t.mdx': '', 'guides/snippets/ok.mdx': '', 'logo.svg': '', 'openapi.json': '',
    });
    expect(listPageFiles(files)).toEqual(['guides/a.md', 'guides/snippets/ok.mdx', 'intro.mdx']);
  });

  it('leaves out the default ignores at any depth', () => {
    const files = withConfig({
      'README.md': '', 'docs/README.md': '', 'LICENSE.md': '', 'CHANGELOG.md': '', 'CONTRIBUTING.md': '', 'changelog.mdx': '',
      '.github/x.md': '', 'node_modules/p/readme.md': '', 'dist/a.md': '', 'tmp/b.mdx': '', 'page.mdx': '',
    });
    expect(listPageFiles(files)).toEqual(['changelog.mdx', 'page.mdx']);
  });

  it('leaves out output folders (build, dist, coverage, tmp, temp) only at the docs root: a nested "build" group is pages', () => {
    const files = withConfig({
      'build/out.mdx': '', 'coverage/c.mdx': '', 'temp/t.mdx': '',
      'fr/products/x/build/pipelines.mdx': '', 'en/guides/dist/release.mdx': '', 'sdk/tmp/notes.md': '', 'a/node_modules/m.md': '',
    });
    expect(listPageFiles(files)).toEqual(['en/guides/dist/release.mdx', 'fr/products/x/build/pipelines.mdx', 'sdk/tmp/notes.md']);
  });

  it('applies .mintignore in gitignore syntax, including negations', () => {
    const files = withConfig({
      '.mintignore': '# drafts\ndrafts/\n*.draft.mdx\n!README.md\n/internal.mdx\n',
      'drafts/a.mdx': '', 'x.draft.mdx': '', 'README.md': '', 'internal.mdx': '', 'sub/internal.mdx': '', 'ok.mdx': '',
    });
    expect(listPageFiles(files)).toEqual(['README.md', 'ok.mdx', 'sub/internal.mdx']);
  });

  it('keeps README.md pages when there is no docs.json or mint.json', () => {
    expect(listPageFiles(memoryFiles({ 'README.md': '', 'LICENSE.md': '', 'guide.md': '' }))).toEqual(['README.md', 'guide.md']);
  });
});

describe('titleFromPath', () => {
  it('makes a title from the last segment', () => {
    expect(titleFromPath('guides/getting-started')).toBe('Getting started');
    expect(titleFromPath('v1/integrations/llama_stack.mdx')).toBe('Llama stack');
    expect(titleFromPath('cli/index')).toBe('Cli');
    expect(titleFromPath('index')).toBe('Home');
  });
});

describe('folderNavigation', () => {
  it('groups pages by folder, index/introduction/README first, natural order after', () => {
    const files = memoryFiles({
      'index.md': '---\ntitle: x\n---\n```\n# not this\n```\n# Acme Handbook\n',
      'zeta.md': '', 'alpha.md': '',
      'getting_started/step-10.md': '', 'getting_started/step-2.md': '', 'getting_started/introduction.md': '',
      'getting_started/deep-dive/README.md': '', 'getting_started/deep-dive/b.md': '',
      'api/index.mdx': '', 'snippets/s.mdx': '',
    });
    const { name, navigation } = folderNavigation(files);
    expect(name).toBe('Acme Handbook');
    expect(navigation).toEqual([
      { type: 'group', title: '', children: [{ type: 'page', path: 'index' }, { type: 'page', path: 'alpha' }, { type: 'page', path: 'zeta' }] },
      { type: 'group', title: 'Api', children: [{ type: 'page', path: 'api/index' }] },
      {
        type: 'group',
        title: 'Getting started',
        children: [
          { type: 'page', path: 'getting_started/introduction' },
          { type: 'page', path: 'getting_started/step-2' },
          { type: 'page', path: 'getting_started/step-10' },
          {
            type: 'group',
            title: 'Deep dive',
            children: [{ type: 'page', path: 'getting_started/deep-dive/README' }, { type: 'page', path: 'getting_started/deep-dive/b' }],
          },
        ],
      },
    ]);
  });

  it('names the site Documentation without a root heading, and loadSiteConfig uses it without a config', () => {
    const files = memoryFiles({ 'a.md': '# A', '.mintignore': 'b.md\n', 'b.md': '' });
    const { config, warnings } = loadSiteConfig(files);
    expect(warnings).toEqual([]);
    expect(config).toMatchObject({ source: null, name: 'Documentation', redirects: [], openapi: [] });
    expect(config.navigation).toEqual([{ type: 'group', title: '', children: [{ type: 'page', path: 'a' }] }]);
  });

  it('finds the first h1 outside frontmatter and code fences', () => {
    expect(firstHeading('---\ntitle: T\n---\n~~~md\n# fenced\n~~~\ntext\n#   Real title  ##\n# second')).toBe('Real title');
    expect(firstHeading('## only h2')).toBeUndefined();
  });
});
