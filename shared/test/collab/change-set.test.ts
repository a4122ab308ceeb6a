import { describe, expect, it } from 'vitest';
import { CHANGE_SET_LIMITS, checkChangeSet, isPagePath, normaliseChangePath } from '../../src/collab/change-set';

describe('change set paths', () => {
  it('keeps plain repository paths and reads backslashes as separators', () => {
    expect(normaliseChangePath('guides/setup.mdx')).toEqual({ ok: true, path: 'guides/setup.mdx' });
    expect(normaliseChangePath('guides\\setup.mdx')).toEqual({ ok: true, path: 'guides/setup.mdx' });
    expect(normaliseChangePath('.github/workflows/ci.yml')).toEqual({ ok: true, path: '.github/workflows/ci.yml' });
    expect(normaliseChangePath('docs/..hidden.md')).toEqual({ ok: true, path: 'docs/..hidden.md' });
  });

  it.each([
    ['', /empty/],
    ['/etc/passwd', /leading "\/"/],
    ['../outside.md', /may not leave the repository/],
    ['docs/../../outside.md', /"\.\." segment/],
    ['docs\\..\\..\\x.md', /"\.\." segment/],
    ['./index.mdx', /"\." segment/],
    ['docs//index.mdx', /empty segment/],
    ['docs/', /folder/],
    ['.git/config', /\.git/],
    ['sub/.GIT/hooks/pre-commit', /\.git/],
    ['a\u0000b.md', /control character/],
    ['a\nb.md', /control character/],
    [`${'a'.repeat(256)}.md`, /segment longer than 255/],
    [`${'abc/'.repeat(300)}x.md`, /longer than 1024 bytes/],
  ])('refuses %j', (path, issue) => {
    const result = normaliseChangePath(path);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.issue).toMatch(issue);
  });
});

describe('change sets', () => {
  it('normalises every path and keeps deletions as null content', () => {
    const result = checkChangeSet([{ path: 'a\\b.md', content: 'x' }, { path: 'old.md', deleted: true }]);
    expect(result).toEqual({ ok: true, changes: [{ path: 'a/b.md', content: 'x' }, { path: 'old.md', content: null }] });
  });

  it('names the field of a bad path and of a path given twice (after normalising)', () => {
    expect(checkChangeSet([{ path: 'ok.md', content: '' }, { path: '../x', content: '' }])).toMatchObject({ ok: false, problem: { kind: 'invalid', field: 'changes.1.path' } });
    const twice = checkChangeSet([{ path: 'a/b.md', content: '1' }, { path: 'a\\b.md', deleted: true }]);
    expect(twice).toMatchObject({ ok: false, problem: { kind: 'invalid', field: 'changes.1.path' } });
    if (!twice.ok) expect(twice.problem.kind === 'invalid' && twice.problem.issue).toMatch(/already changed by changes\.0/);
  });

  it('refuses more files than the limit, naming it', () => {
    const many = Array.from({ length: CHANGE_SET_LIMITS.maxFiles + 1 }, (_, i) => ({ path: `p${i}.md`, content: '' }));
    expect(checkChangeSet(many)).toMatchObject({ ok: false, problem: { kind: 'too_large', limit: 'maxFiles', max: 500, actual: 501 } });
    expect(checkChangeSet(many.slice(1)).ok).toBe(true);
  });

  it('counts content in UTF-8 bytes against the per-file and total limits', () => {
    const oneFile = 'é'.repeat(CHANGE_SET_LIMITS.maxFileBytes / 2 + 1); // 2 bytes each: one over
    expect(checkChangeSet([{ path: 'big.md', content: oneFile }])).toMatchObject({
      ok: false,
      problem: { kind: 'too_large', limit: 'maxFileBytes', field: 'changes.0.content', actual: CHANGE_SET_LIMITS.maxFileBytes + 2 },
    });
    const twoMiB = 'a'.repeat(CHANGE_SET_LIMITS.maxFileBytes);
    const six = Array.from({ length: 6 }, (_, i) => ({ path: `f${i}.md`, content: twoMiB }));
    expect(checkChangeSet(six.slice(0, 5)).ok).toBe(true);
    expect(checkChangeSet(six)).toMatchObject({ ok: false, problem: { kind: 'too_large', limit: 'maxTotalBytes', max: 10 * 1024 * 1024 } });
  });

  it('knows pages by their extension', () => {
    expect(isPagePath('guides/setup.mdx')).toBe(true);
    expect(isPagePath('README.MD')).toBe(true);
    expect(isPagePath('docs.json')).toBe(false);
  });
});
