import { describe, expect, it } from 'vitest';
import { matchRedirect } from '../../../src/docs/nav/match-redirect';
import type { Redirect } from '../../../src/docs/types';

const r = (source: string, destination: string, permanent = true): Redirect => ({ source, destination, permanent });

describe('matchRedirect', () => {
  it('matches an exact source with 308 when permanent and 307 when not', () => {
    const list = [r('/old', '/new'), r('/temp', '/elsewhere', false)];
    expect(matchRedirect(list, '/old')).toEqual({ location: '/new', status: 308 });
    expect(matchRedirect(list, '/temp')).toEqual({ location: '/elsewhere', status: 307 });
    expect(matchRedirect(list, '/older')).toBeUndefined();
    expect(matchRedirect(list, '/old/child')).toBeUndefined();
  });

  it('ignores a trailing slash, the query string and the fragment of the request path', () => {
    const list = [r('/old', '/new')];
    expect(matchRedirect(list, '/old/')?.location).toBe('/new');
    expect(matchRedirect(list, '/old?x=1')?.location).toBe('/new');
    expect(matchRedirect(list, 'old')?.location).toBe('/new');
  });

  it('substitutes :param segments', () => {
    const list = [r('/blog/:year/:slug', '/posts/:slug?y=:year')];
    expect(matchRedirect(list, '/blog/2024/hello')?.location).toBe('/posts/hello?y=2024');
    expect(matchRedirect(list, '/blog/2024')).toBeUndefined();
  });

  it('matches the rest of the path with :slug*, including nothing', () => {
    const list = [r('/beta/:slug*', '/v2/:slug*')];
    expect(matchRedirect(list, '/beta/guides/setup')?.location).toBe('/v2/guides/setup');
    expect(matchRedirect(list, '/beta')?.location).toBe('/v2');
    expect(matchRedirect(list, '/betamax')).toBeUndefined();
  });

  it('supports the prefix * form inside a segment', () => {
    const list = [r('/old/article-*', '/new/article-*')];
    expect(matchRedirect(list, '/old/article-42')?.location).toBe('/new/article-42');
    expect(matchRedirect(list, '/old/post-42')).toBeUndefined();
  });

  it('keeps anchors of the destination and external destinations', () => {
    const list = [r('/faq', '/help#faq'), r('/gh', 'https://github.com/org/repo')];
    expect(matchRedirect(list, '/faq')?.location).toBe('/help#faq');
    expect(matchRedirect(list, '/gh')?.location).toBe('https://github.com/org/repo');
  });

  it('uses the first matching redirect in config order', () => {
    const list = [r('/a/:slug*', '/first/:slug*'), r('/a/b', '/second')];
    expect(matchRedirect(list, '/a/b')?.location).toBe('/first/b');
  });

  it('treats regex characters in sources literally', () => {
    const list = [r('/v1.0/(x)', '/v1')];
    expect(matchRedirect(list, '/v1.0/(x)')?.location).toBe('/v1');
    expect(matchRedirect(list, '/v1a0/x')).toBeUndefined();
  });
});
