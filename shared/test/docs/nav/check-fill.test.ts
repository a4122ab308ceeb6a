import { describe, expect, it } from 'vitest';
import { checkNavigation, pagePathOf } from '../../../src/docs/nav/check-navigation';
import { fillTitles } from '../../../src/docs/nav/fill-titles';
import type { NavNode, NavPage } from '../../../src/docs/types';

const page = (path: string, extra: Partial<NavPage> = {}): NavPage => ({ type: 'page', path, ...extra });

describe('checkNavigation', () => {
  it('warns about entries without a file and about duplicates, once each', () => {
    const nav: NavNode[] = [
      { type: 'group', title: 'G', children: [page('a'), page('missing'), page('a'), page('b')] },
      { type: 'group', title: 'H', root: 'gone', children: [page('missing')] },
    ];
    const warnings = checkNavigation(nav, ['a.mdx', 'b.md', 'other.mdx'], 'docs.json');
    expect(warnings.map((w) => [w.kind, w.file])).toEqual([
      ['missing-page', 'docs.json'],
      ['duplicate-nav-entry', 'docs.json'],
      ['missing-page', 'docs.json'],
      ['duplicate-nav-entry', 'docs.json'],
    ]);
    expect(warnings[0]!.message).toContain('"missing"');
    expect(warnings[0]!.message).toContain('missing.mdx');
    expect(warnings[2]!.message).toContain('"gone"');
  });

  it('allows the same page in two versions but not twice in one', () => {
    const v = (title: string, children: NavNode[]): NavNode => ({ type: 'division', kind: 'version', title, children });
    const nav = [v('v1', [page('shared')]), v('v2', [page('shared'), page('shared')])];
    const warnings = checkNavigation(nav, ['shared.mdx']);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]!.kind).toBe('duplicate-nav-entry');
  });

  it('does not check OpenAPI operation entries', () => {
    expect(checkNavigation([page('', { openapi: 'GET /users' })], [])).toEqual([]);
  });

  it('maps page files to page paths', () => {
    expect(pagePathOf('guides/a.mdx')).toBe('guides/a');
    expect(pagePathOf('notes.md')).toBe('notes');
    expect(pagePathOf('logo.svg')).toBeUndefined();
  });
});

describe('fillTitles', () => {
  it('labels pages with sidebarTitle, then title, then a title from the path, without touching the input', () => {
    const nav: NavNode[] = [
      { type: 'group', title: 'G', children: [page('guides/setup'), page('api/get-user'), page('no-frontmatter_here')] },
    ];
    const labels = new Map([
      ['guides/setup', { title: 'Setting up Quire', sidebarTitle: 'Setup' }],
      ['api/get-user', { title: 'Get a user', method: 'GET', hidden: true }],
    ]);
    const out = fillTitles(nav, labels);
    const pages = (out[0] as { children: NavPage[] }).children;
    expect(pages.map((p) => p.title)).toEqual(['Setup', 'Get a user', 'No frontmatter here']);
    expect(pages[1]).toMatchObject({ method: 'GET', hidden: true });
    expect((nav[0] as { children: NavPage[] }).children[0]!.title).toBeUndefined();
  });
});
