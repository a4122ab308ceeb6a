import { describe, expect, it } from 'vitest';
import { memoryFiles } from '@quire/shared/docs/files';
import { checkLinks } from '../../src/builder/link-check';

const files = memoryFiles({
  'index.mdx': '# Home',
  'guides/setup.mdx': '---\ntitle: Setup\n---\n\nIntro\n\nSee [missing](/missing-page) and [ok](/guides/other).\n\n![x](/images/gone.png)\n',
  'guides/other.mdx': '# Other',
  'cli/index.mdx': '# CLI',
  'images/logo.png': 'png',
  'downloads/spec.json': '{}',
});
const page = (links: string[], assets: string[] = []) => ({ links, assets });

describe('link check', () => {
  it('warns about links to no page, file or redirect, naming file and line', () => {
    const warnings = checkLinks(
      [
        { path: 'guides/setup', filePath: 'guides/setup.mdx', page: page(['/missing-page', '/guides/other', '/guides/other#anchor', 'other', '../cli', '/cli/', '/', '#top', 'https://example.com/x', 'mailto:a@b.c', '/downloads/spec.json', '/guides/other.mdx', '/old/thing']) },
        { path: 'guides/other', filePath: 'guides/other.mdx', page: page([]) },
        { path: 'cli/index', filePath: 'cli/index.mdx', page: page([]) },
        { path: 'index', filePath: 'index.mdx', page: page([]) },
      ],
      files,
      [{ source: '/old/:slug*', destination: '/guides/:slug*', permanent: true }],
    );
    expect(warnings).toEqual([{ file: 'guides/setup.mdx', line: 7, kind: 'broken-link', message: '/missing-page' }]);
  });

  it('warns about images that are not in the docs root', () => {
    const warnings = checkLinks(
      [{ path: 'guides/setup', filePath: 'guides/setup.mdx', page: page([], ['/images/gone.png', '/images/logo.png', '../images/logo.png', 'images/logo.png', 'https://cdn/x.png', 'data:image/png;base64,xx']) }],
      files,
      [],
    );
    expect(warnings).toEqual([{ file: 'guides/setup.mdx', line: 9, kind: 'missing-image', message: '/images/gone.png' }]);
  });
});
