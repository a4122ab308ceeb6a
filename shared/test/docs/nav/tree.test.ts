import { describe, expect, it } from 'vitest';
import { findTrail } from '../../../src/docs/nav/find-trail';
import { flattenPages } from '../../../src/docs/nav/flatten-pages';
import { prevNext } from '../../../src/docs/nav/prev-next';
import type { NavNode } from '../../../src/docs/types';

const page = (path: string, extra: object = {}): NavNode => ({ type: 'page', path, ...extra });

const nav: NavNode[] = [
  {
    type: 'division',
    kind: 'tab',
    title: 'Guides',
    children: [
      { type: 'group', title: 'Start', root: 'start/overview', children: [page('start/a'), page('start/b')] },
      { type: 'group', title: 'Secret', hidden: true, children: [page('secret/x')] },
      { type: 'group', title: 'More', children: [page('more/c', { hidden: true }), page('more/d'), { type: 'link', title: 'Site', href: 'https://x.dev' }] },
    ],
  },
  {
    type: 'division',
    kind: 'tab',
    title: 'API',
    children: [{ type: 'group', title: 'Reference', children: [page('api/intro'), page('', { openapi: 'GET /users' })] }],
  },
];

describe('flattenPages', () => {
  it('lists pages in reading order with group roots first, skipping hidden pages and groups', () => {
    expect(flattenPages(nav).map((p) => p.path)).toEqual(['start/overview', 'start/a', 'start/b', 'more/d', 'api/intro', '']);
  });
});

describe('findTrail', () => {
  it('returns the ancestors from the top, without the page', () => {
    expect(findTrail(nav, 'start/b').map((n) => ('title' in n ? n.title : ''))).toEqual(['Guides', 'Start']);
    expect(findTrail(nav, '/api/intro').map((n) => ('title' in n ? n.title : ''))).toEqual(['API', 'Reference']);
  });

  it('treats a group root as a page of that group', () => {
    expect(findTrail(nav, 'start/overview').map((n) => ('title' in n ? n.title : ''))).toEqual(['Guides', 'Start']);
  });

  it('returns [] for a page that is not in the navigation', () => {
    expect(findTrail(nav, 'orphan')).toEqual([]);
  });
});

describe('prevNext', () => {
  it('links neighbours within the same tab and skips hidden pages', () => {
    const { prev, next } = prevNext(nav, 'start/b');
    expect(prev?.path).toBe('start/a');
    expect(next?.path).toBe('more/d');
  });

  it('does not cross into another tab', () => {
    expect(prevNext(nav, 'more/d').next).toBeUndefined();
    expect(prevNext(nav, 'api/intro').prev).toBeUndefined();
  });

  it('skips OpenAPI entries without a path yet and returns {} for unknown pages', () => {
    expect(prevNext(nav, 'api/intro').next).toBeUndefined();
    expect(prevNext(nav, 'orphan')).toEqual({});
  });

  it('uses the first occurrence of a page listed twice', () => {
    const twice: NavNode[] = [page('a'), page('b'), page('c'), page('b')];
    expect(prevNext(twice, 'b')).toEqual({ prev: page('a'), next: page('c') });
    expect(prevNext(twice, 'c').next).toBeUndefined();
  });
});
