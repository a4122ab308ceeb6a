import { describe, expect, it } from 'vitest';
import { CHANGE_SET_LIMITS, changeEntryBytes, checkChangeSet, isPagePath, normaliseChangePath } from '../../src/collab/change-set';

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
    expect(result).toEqual({ ok: true, changes: [{ path: 'a/b.md', content: 'x', encoding: 'utf-8' }, { path: 'old.md', content: null, encoding: 'utf-8' }] });
  });

  it('keeps base64 content as given and decodes it to the same bytes', () => {
    const png = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0xff];
    const content = btoa(String.fromCharCode(...png));
    const result = checkChangeSet([{ path: 'images\\logo.png', content, encoding: 'base64' }]);
    expect(result).toEqual({ ok: true, changes: [{ path: 'images/logo.png', content, encoding: 'base64' }] });
    expect([...changeEntryBytes({ content, encoding: 'base64' })!]).toEqual(png);
    expect(new TextDecoder().decode(changeEntryBytes({ content: 'héllo' })!)).toBe('héllo');
    expect(changeEntryBytes({ deleted: true })).toBeNull();
  });

  it.each(['not base64!', 'QUJD\nREVG', 'QUJ', 'QU=D', 'QUJD_-', 'Q==='])('refuses base64 content %j, naming changes.<i>.content', (content) => {
    const result = checkChangeSet([{ path: 'ok.md', content: 'x' }, { path: 'a.png', content, encoding: 'base64' }]);
    expect(result).toMatchObject({ ok: false, problem: { kind: 'invalid', field: 'changes.1.content' } });
    if (!result.ok) expect(result.problem.kind === 'invalid' && result.problem.issue).toMatch(/not valid base64/);
  });

  it('counts base64 content in decoded bytes against the limits', () => {
    const max = CHANGE_SET_LIMITS.maxFileBytes;
    const exactly = btoa('\0'.repeat(max)); // 4/3 as many characters, still one file's worth of bytes
    expect(checkChangeSet([{ path: 'big.png', content: exactly, encoding: 'base64' }]).ok).toBe(true);
    const over = btoa('\0'.repeat(max + 1));
    expect(checkChangeSet([{ path: 'big.png', content: over, encoding: 'base64' }])).toMatchObject({
      ok: false,
      problem: { kind: 'too_large', limit: 'maxFileBytes', field: 'changes.0.content', actual: max + 1 },
    });
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
