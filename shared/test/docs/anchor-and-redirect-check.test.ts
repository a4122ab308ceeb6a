/**
 * The anchor check (anchor-check.ts) and the redirect check (redirect-check.ts) of the site checks.
 */
import { describe, expect, it } from 'vitest';
import { checkAnchors, pageAnchors } from '../../src/docs/anchor-check';
import { memoryFiles } from '../../src/docs/files';
import { pageInventory } from '../../src/docs/page-inventory';
import { checkRedirects } from '../../src/docs/redirect-check';

const sources: Record<string, string> = {
  'index.mdx': '# Home\n\nSee [install](/guides/setup#install), [bad](/guides/setup#nope) and [top](#top).\n\n[missing page](/nowhere#x)\n',
  'guides/setup.mdx': '## Install\n\n[own](#install) [own bad](#gone) [relative](../#intro)\n',
};
const pages = [
  { path: 'index', filePath: 'index.mdx', page: { html: '<h1 id="top">Home</h1><p id="user-content-intro">x</p>', links: ['/guides/setup#install', '/guides/setup#nope', '/nowhere#x'] } },
  { path: 'guides/setup', filePath: 'guides/setup.mdx', page: { html: '<h2 id="install">Install</h2><a href="#install">own</a><a href="#gone">own bad</a>', links: ['../#intro'] } },
];

describe('anchor check', () => {
  it('collects element ids and <a name>s, author ones also without their user-content- prefix', () => {
    const html = '<h2 id="a">A</h2><span id="user-content-b"></span><a href="/x" name="user-content-c">c</a>';
    expect([...pageAnchors(html)].sort()).toEqual(['a', 'b', 'c', 'user-content-b', 'user-content-c']);
  });

  it('warns about fragments that name no anchor of the target page (same page too), with the line, and leaves missing pages to the link check', () => {
    const warnings = checkAnchors(pages, (f) => sources[f]);
    expect(warnings).toEqual([
      { file: 'index.mdx', line: 3, kind: 'broken-anchor', message: '/guides/setup#nope' },
      { file: 'guides/setup.mdx', line: 3, kind: 'broken-anchor', message: '#gone' },
    ]);
  });
});

describe('redirect check', () => {
  const files = memoryFiles({ 'index.mdx': '', 'guides/setup.mdx': '', 'files/a.pdf': '' });
  const config = '{\n  "redirects": [\n    {"source": "/a", "destination": "/guides/setup"},\n    {"source": "/b", "destination": "/gone"},\n    {"source": "/c", "destination": "/c"},\n    {"source": "/d/:slug*", "destination": "/new/:slug*"},\n    {"source": "/e", "destination": "https://example.com/x"},\n    {"source": "/f", "destination": "/a"},\n    {"source": "/g", "destination": "/Guides/Setup"}\n  ]\n}\n';
  const redirects = JSON.parse(config).redirects.map((r: { source: string; destination: string }) => ({ ...r, permanent: true }));
  const inventory = pageInventory({ pages: ['index', 'guides/setup'], files, redirects });

  it('warns about same-site destinations that are no page, file or redirect, and redirects to themselves', () => {
    expect(checkRedirects(inventory, 'docs.json', config)).toEqual([
      { file: 'docs.json', line: 4, kind: 'broken-redirect', message: '/b → /gone: no page or file' },
      { file: 'docs.json', line: 5, kind: 'broken-redirect', message: '/c redirects to itself' },
      { file: 'docs.json', line: 9, kind: 'broken-redirect', message: '/g → /Guides/Setup: no page or file; did you mean /guides/setup?' },
    ]);
  });
});
