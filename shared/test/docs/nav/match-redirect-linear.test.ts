import { describe, expect, it } from 'vitest';
import { matchRedirect, redirectSourceProblem } from '../../../src/docs/nav/match-redirect';
import type { Redirect } from '../../../src/docs/types';

const r = (source: string, destination: string): Redirect => ({ source, destination, permanent: true });
const to = (list: Redirect[], path: string) => matchRedirect(list, path)?.location;

// Sources that made the former regular-expression matcher backtrack for seconds to minutes; the
// segment matcher answers them in linear time. On the former matcher 9 wildcards against 50
// characters took 30 s, and each added wildcard multiplies that by about 5, so the first and the
// third test ran past the 30 s test timeout; the second (the reviewer's example) took 0.5 s.
describe('matchRedirect: hostile sources answer (linear matching)', () => {
  it('many * in one segment against a long near-miss', () => {
    const list = [r(`/${'a*'.repeat(10)}b`, '/x')];
    expect(to(list, `/${'a'.repeat(50)}`)).toBeUndefined();
    expect(to(list, `/${'a'.repeat(50)}b`)).toBe('/x');
  });

  it('the reported /a*a*a*a*a*a*b against 60 characters', () => {
    const list = [r('/a*a*a*a*a*a*b', '/hit')];
    expect(to(list, `/${'a'.repeat(60)}`)).toBeUndefined();
    expect(to(list, `/${'a'.repeat(60)}b`)).toBe('/hit');
  });

  it(':name* segments against many segments', () => {
    const one = [r('/:a*/x', '/to/:a*')];
    const deep = `/${'a/'.repeat(5000)}`;
    expect(to(one, deep)).toBeUndefined();
    expect(to(one, `${deep}x`)).toBe(`/to/${'a/'.repeat(4999)}a`);
    expect(to([r('/:a*/:b*/:c*/:d*/:e*/:f*/:g*/x', '/y')], `/${'a/'.repeat(60)}b`)).toBeUndefined();
  });
});

describe('matchRedirect: segment semantics', () => {
  it('keeps * inside its segment: it never matches a /', () => {
    const list = [r('/old/article-*', '/new/article-*')];
    expect(to(list, '/old/article-42')).toBe('/new/article-42');
    expect(to(list, '/old/article-4/2')).toBeUndefined();
  });

  it('lets each * in a segment capture as little as it can, the last one taking the rest', () => {
    expect(to([r('/x/*-*', '/y/*/*')], '/x/a-b-c')).toBe('/y/a/b-c');
    expect(to([r('/x/*-*-z', '/y/*/*')], '/x/a-b-c-z')).toBe('/y/a/b-c');
    expect(to([r('/x/ab*ba', '/y')], '/x/aba')).toBeUndefined();
  });

  it('matches a :name* in the middle of a source against any run of whole segments', () => {
    const list = [r('/docs/:path*/edit', '/edit/:path*')];
    expect(to(list, '/docs/a/b/edit')).toBe('/edit/a/b');
    expect(to(list, '/docs/edit')).toBe('/edit');
    expect(to(list, '/docs/a/b/view')).toBeUndefined();
  });

  it('never matches a source with two :name* segments, and says why', () => {
    expect(to([r('/:a*/x/:b*', '/y')], '/x')).toBeUndefined();
    expect(redirectSourceProblem('/:a*/x/:b*')).toMatch(/one :name\*/);
    expect(redirectSourceProblem('/beta/:slug*')).toBeUndefined();
  });

  it('does not substitute inside a captured value', () => {
    expect(to([r('/s/:a/p-*', '/t/:a/*')], '/s/x*y/p-z')).toBe('/t/x*y/z');
    expect(to([r('/s/:a/:b', '/t/:b/:a')], '/s/:b/q')).toBe('/t/q/:b');
  });

  it('leaves the trailing slash of the request out of a :name* capture', () => {
    expect(to([r('/beta/:slug*', '/v2/:slug*')], '/beta/guides/')).toBe('/v2/guides');
  });

  it('requires a :name segment to be non-empty and keeps uncaptured :words of the destination', () => {
    const list = [r('/u/:id/p', 'https://host:8080/users/:id')];
    expect(to(list, '/u/7/p')).toBe('https://host:8080/users/7');
    expect(to(list, '/u//p')).toBeUndefined();
  });
});
