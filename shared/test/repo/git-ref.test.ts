import { describe, expect, it } from 'vitest';
import { checkBranchName, checkCommitSha } from '../../src/repo/git-ref';

describe('checkBranchName', () => {
  it.each([
    ['--upload-pack', '"-"'],
    ['--upload-pack=x', 'only letters'],
    ['-b', '"-"'],
    ['a..b', '".."'],
    ['a b', 'only letters'],
    ['x.lock', '.lock'],
    ['x.lock/y', '.lock'],
    ['refs/@{1}', 'only letters'],
    ['@', '"@"'],
    ['.hidden', 'start with "."'],
    ['a/.b', 'start with "."'],
    ['feat/', '"/"'],
    ['/feat', '"/"'],
    ['a//b', '"//"'],
    ['v1.', 'end with "."'],
    ['', 'empty'],
    ['a'.repeat(251), '250'],
  ])('refuses %j naming the rule', (branch, words) => {
    const r = checkBranchName(branch);
    expect(r.ok).toBe(false);
    expect(!r.ok && r.issue).toContain(words);
  });

  it('accepts ordinary branch names', () => {
    for (const b of ['main', 'feature/new-docs', 'release-1.2', 'v2.0.1', 'user@fix', 'deps/a+b', 'a'.repeat(250)]) {
      expect(checkBranchName(b)).toEqual({ ok: true });
    }
  });
});

describe('checkCommitSha', () => {
  it('accepts only full lowercase commit ids', () => {
    expect(checkCommitSha('a'.repeat(40))).toEqual({ ok: true });
    expect(checkCommitSha('b'.repeat(64))).toEqual({ ok: true });
    for (const sha of ['abc123', '--upload-pack=touch', 'A'.repeat(40), 'a'.repeat(41)]) expect(checkCommitSha(sha).ok).toBe(false);
  });
});
