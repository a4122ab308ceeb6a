/**
 * The link check of builds and the linter's navigation rules (shared/src/docs/link-check.ts):
 * internal links and local images against a site's page inventory.
 */
import { describe, expect, it } from 'vitest';
import { memoryFiles } from '../../src/docs/files';
import { checkImageSource, checkLinks, checkLinkTarget } from '../../src/docs/link-check';
import { indexInventory, pageInventory } from '../../src/docs/page-inventory';

const files = memoryFiles({
  'index.mdx': '# Home',
  'guides/setup.mdx': '---\ntitle: Setup\n---\n\nIntro\n\nSee [missing](/missing-page) and [ok](/guides/other).\n\n![x](/images/gone.png)\n',
  'guides/other.mdx': '# Other',
  'cli/index.mdx': '# CLI',
  'images/logo.png': 'png',
  'downloads/spec.json': '{}',
});
const page = (links: string[], assets: string[] = []) => ({ links, assets });
const redirects = [{ source: '/old/:slug*', destination: '/guides/:slug*', permanent: true }];
const pagePaths = ['guides/setup', 'guides/other', 'cli/index', 'index'];
const inventory = pageInventory({ pages: pagePaths, files, redirects });

describe('link check', () => {
  it('warns about links to no page, file or redirect, naming file and line', () => {
    const warnings = checkLinks(
      [
        { path: 'guides/setup', filePath: 'guides/setup.mdx', page: page(['/missing-page', '/guides/other', '/guides/other#anchor', 'other', '../cli', '/cli/', '/', '#top', 'https://example.com/x', 'mailto:a@b.c', '/downloads/spec.json', '/guides/other.mdx', '/old/thing']) },
        { path: 'guides/other', filePath: 'guides/other.mdx', page: page([]) },
        { path: 'cli/index', filePath: 'cli/index.mdx', page: page([]) },
        { path: 'index', filePath: 'index.mdx', page: page([]) },
      ],
      inventory,
      (f) => files.read(f),
    );
    expect(warnings).toEqual([{ file: 'guides/setup.mdx', line: 7, kind: 'broken-link', message: '/missing-page' }]);
  });

  it('warns about images that are not in the docs root', () => {
    const warnings = checkLinks(
      [{ path: 'guides/setup', filePath: 'guides/setup.mdx', page: page([], ['/images/gone.png', '/images/logo.png', '../images/logo.png', 'images/logo.png', 'https://cdn/x.png', 'data:image/png;base64,xx']) }],
      inventory,
      (f) => files.read(f),
    );
    expect(warnings).toEqual([{ file: 'guides/setup.mdx', line: 9, kind: 'missing-image', message: '/images/gone.png' }]);
  });

  it('suggests the target a broken link or image differs from only by case or extension', () => {
    const index = indexInventory(inventory);
    expect(checkLinkTarget(index, 'index.mdx', '/Guides/Setup#install')).toEqual({ ok: false, suggestion: '/guides/setup#install' });
    expect(checkLinkTarget(index, 'index.mdx', '/guides/other.txt')).toEqual({ ok: false, suggestion: '/guides/other' });
    expect(checkLinkTarget(index, 'index.mdx', '/CLI')).toEqual({ ok: false, suggestion: '/cli' });
    expect(checkLinkTarget(index, 'index.mdx', '/nothing-like-it')).toEqual({ ok: false });
    expect(checkLinkTarget(index, 'index.mdx', 'https://example.com')).toBeNull();
    expect(checkImageSource(index, 'index.mdx', '/Images/Logo.PNG')).toEqual({ ok: false, suggestion: '/images/logo.png' });
    expect(checkImageSource(index, 'index.mdx', '/images/logo.svg')).toEqual({ ok: false, suggestion: '/images/logo.png' });
    expect(checkImageSource(index, 'guides/setup.mdx', '../images/logo.png')).toEqual({ ok: true });
  });
});
