import { describe, expect, it } from 'vitest';
import { compilePathGlobs, validatePathGlob } from '../../src/collab/path-glob';

describe('compilePathGlobs', () => {
  it('keeps * within one segment', () => {
    const match = compilePathGlobs(['docs/*.md']);
    expect(match('docs/a.md')).toBe(true);
    expect(match('docs/x/a.md')).toBe(false);
    expect(match('other/a.md')).toBe(false);
  });

  it('lets ** cross segments, including none', () => {
    const match = compilePathGlobs(['docs/**']);
    expect(match('docs/a.md')).toBe(true);
    expect(match('docs/x/y/z.md')).toBe(true);
    expect(match('docsx/a.md')).toBe(false);
    const anyMd = compilePathGlobs(['**/*.md']);
    expect(anyMd('a.md')).toBe(true);
    expect(anyMd('a/b/c.md')).toBe(true);
    expect(anyMd('a/b/c.mdx')).toBe(false);
  });

  it('matches dotfiles and dot directories', () => {
    expect(compilePathGlobs(['docs/*'])('docs/.env')).toBe(true);
    expect(compilePathGlobs(['**/secret.md'])('.private/secret.md')).toBe(true);
  });

  it('matches any of several globs, braces and classes, and nothing for an empty list', () => {
    const match = compilePathGlobs(['api/{v1,v2}/*.md', 'README.md', 'guide/[ab].md']);
    expect(match('api/v2/x.md')).toBe(true);
    expect(match('api/v3/x.md')).toBe(false);
    expect(match('README.md')).toBe(true);
    expect(match('readme.md')).toBe(false);
    expect(match('guide/b.md')).toBe(true);
    expect(match('guide/c.md')).toBe(false);
    expect(compilePathGlobs([])('anything.md')).toBe(false);
  });

  it('ignores a leading / or ./ on paths and globs', () => {
    expect(compilePathGlobs(['/docs/*.md'])('docs/a.md')).toBe(true);
    expect(compilePathGlobs(['docs/*.md'])('/docs/a.md')).toBe(true);
    expect(compilePathGlobs(['./docs/*.md'])('./docs/a.md')).toBe(true);
  });

  it('throws on an invalid glob', () => {
    expect(() => compilePathGlobs(['!docs/**'])).toThrow(/negated/);
  });
});

describe('validatePathGlob', () => {
  it('accepts ordinary globs', () => {
    for (const glob of ['docs/**', '*.md', 'a/b/c.md', '**/*.{md,mdx}', '.github/**']) {
      expect(validatePathGlob(glob)).toBeNull();
    }
  });

  it('names the problem of a bad glob', () => {
    expect(validatePathGlob('')).toMatch(/empty/);
    expect(validatePathGlob('  ')).toMatch(/empty/);
    expect(validatePathGlob('a'.repeat(501))).toMatch(/at most 500/);
    expect(validatePathGlob('docs\u0000/*')).toMatch(/control/);
    expect(validatePathGlob('docs\\*.md')).toMatch(/backslash/);
    expect(validatePathGlob('!docs/*')).toMatch(/negated/);
    expect(validatePathGlob('../docs/*')).toMatch(/\.\./);
  });
});
