import { describe, expect, it } from 'vitest';
import { movedLinkTarget, rewritePageLinks } from '../../src/docs/page-links';

describe('rewriting links to a moved page', () => {
  it('points root-relative and relative links at the new path, keeping their form, anchor and extension', () => {
    const page = [
      'See [setup](/guides/setup) and [setup again](/guides/setup.mdx#install).',
      'Also [relative](setup), [dotted](./setup?x=1) and [up](../guides/setup/).',
      '<Card title="Setup" href="/guides/setup">Go</Card>',
      '[ref]: /guides/setup',
      'Not [this one](/guides/setup-old) nor [that](https://example.com/guides/setup).',
    ].join('\n');
    const out = rewritePageLinks(page, 'guides/index.mdx', 'guides/setup', 'start/install');
    expect(out.count).toBe(7);
    expect(out.text.split('\n')).toEqual([
      'See [setup](/start/install) and [setup again](/start/install.mdx#install).',
      'Also [relative](../start/install), [dotted](../start/install?x=1) and [up](../start/install).',
      '<Card title="Setup" href="/start/install">Go</Card>',
      '[ref]: /start/install',
      'Not [this one](/guides/setup-old) nor [that](https://example.com/guides/setup).',
    ]);
  });

  it('leaves code blocks alone and answers no change for an unrelated page', () => {
    const page = '```md\n[setup](/guides/setup)\n```\n[setup](/guides/setup)\n';
    expect(rewritePageLinks(page, 'index.mdx', 'guides/setup', 'guides/install')).toEqual({
      text: '```md\n[setup](/guides/setup)\n```\n[setup](/guides/install)\n',
      count: 1,
    });
    expect(rewritePageLinks('[a](/other)', 'index.mdx', 'guides/setup', 'x').count).toBe(0);
  });

  it('follows a page that was a folder index, and keeps ./ for a target in the same folder', () => {
    expect(movedLinkTarget('index.mdx', '/api', 'api/index', 'reference/index')).toBe('/reference/index');
    expect(movedLinkTarget('guides/a.mdx', './b', 'guides/b', 'guides/c')).toBe('./c');
  });
});
