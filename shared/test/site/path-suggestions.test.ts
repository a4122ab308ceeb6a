import { describe, expect, it } from 'vitest';
import { boundedEditDistance, normalizePagePath, PathSuggester } from '../../src/site/path-suggestions';

/** The closest page paths to a path that was not found (the 404 page's "Did you mean"). */

const PAGES = [
  { path: 'index' },
  { path: 'quickstart' },
  { path: 'guides/setup' },
  { path: 'guides/deploy' },
  { path: 'guides/advanced/webhooks' },
  { path: 'api-reference/users/create' },
  { path: 'api-reference/projects/create' },
  { path: 'faq', gated: true },
];
const suggester = new PathSuggester(PAGES);
const paths = (requested: string, limit?: number) => suggester.suggest(requested, (p) => !('gated' in p), limit).map((p) => p.path);

describe('PathSuggester', () => {
  it('suggests the page whose path has a typo', () => {
    expect(paths('quickstrat')[0]).toBe('quickstart');
    expect(paths('/guides/stup')[0]).toBe('guides/setup');
  });

  it('finds a page that moved to another folder by its last segment', () => {
    expect(paths('/setup')[0]).toBe('guides/setup');
    expect(paths('/docs/guides/deploy')[0]).toBe('guides/deploy');
    expect(paths('/webhooks')).toEqual(['guides/advanced/webhooks']);
  });

  it('ignores case, extensions, trailing slashes and underscores', () => {
    expect(paths('/Guides/Setup.html')[0]).toBe('guides/setup');
    expect(paths('/quick_start/')[0]).toBe('quickstart');
    expect(paths('guides/deploy.md')[0]).toBe('guides/deploy');
  });

  it('prefers the page whose whole path is closer when last segments tie', () => {
    expect(paths('/api/users/create')[0]).toBe('api-reference/users/create');
    expect(paths('/api/projects/create')[0]).toBe('api-reference/projects/create');
  });

  it('lists the pages of a folder that has no page of its own', () => {
    expect(paths('/guides')).toEqual(['guides/setup', 'guides/deploy', 'guides/advanced/webhooks']);
  });

  it('suggests nothing for a path unlike every page', () => {
    expect(paths('/xyzzy')).toEqual([]);
    expect(paths('/')).toEqual([]);
  });

  it('never suggests a page the reader may not see', () => {
    expect(paths('/faq')).toEqual([]);
    expect(suggester.suggest('/faq').map((p) => p.path)).toEqual(['faq']);
  });

  it('returns at most `limit` pages', () => {
    expect(paths('/guides', 2)).toHaveLength(2);
  });

  it('finds the right page among 10,000', () => {
    const many = Array.from({ length: 10_000 }, (_, i) => ({ path: `section-${i % 50}/topic-${i}/page-${i}` }));
    const big = new PathSuggester(many);
    expect(big.suggest('/section-3/topic-153/pag-153').map((p) => p.path)[0]).toBe('section-3/topic-153/page-153');
  });
});

describe('boundedEditDistance', () => {
  it('counts insertions, deletions and substitutions', () => {
    expect(boundedEditDistance('kitten', 'sitting', 10)).toBe(3);
    expect(boundedEditDistance('', 'abc', 10)).toBe(3);
    expect(boundedEditDistance('same', 'same', 0)).toBe(0);
  });
  it('stops at max + 1', () => {
    expect(boundedEditDistance('abcdef', 'uvwxyz', 2)).toBe(3);
    expect(boundedEditDistance('a', 'abcdefgh', 3)).toBe(4);
  });
});

describe('normalizePagePath', () => {
  it('compares paths in one form', () => {
    expect(normalizePagePath('/Guides/My_Page.mdx')).toBe('guides/my-page');
    expect(normalizePagePath('/guides/index.html')).toBe('guides');
    expect(normalizePagePath('index')).toBe('');
  });
});
