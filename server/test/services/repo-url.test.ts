import { describe, expect, it } from 'vitest';
import { ApiError } from '@quire/shared/errors';
import { isPrivateAddress, validateRepoUrl } from '../../src/services/repo-url';

describe('validateRepoUrl', () => {
  it.each(['https://github.com/a/b.git', 'ssh://git@gitlab.com/a/b.git', 'git@github.com:a/b.git'])('accepts %s', (url) => {
    expect(validateRepoUrl(url, false)).toBe(url);
  });

  it.each([
    'file:///tmp/x', '/tmp/x', 'http://github.com/a/b', 'ftp://x/y', 'ext::sh -c id', '-uhttps://x',
    'https://127.0.0.1/a', 'https://10.1.2.3/a', 'https://192.168.0.1/a', 'https://172.20.0.1/a', 'https://169.254.169.254/',
    'https://[::1]/a', 'https://[fd00::1]/a', 'https://localhost/a', 'https://docs.localhost/a', 'git@127.0.0.1:a/b',
    'https://user:pw@github.com/a/b',
  ])('refuses %s with details.field repoUrl', (url) => {
    try {
      validateRepoUrl(url, false);
      expect.unreachable();
    } catch (err) {
      expect(err).toBeInstanceOf(ApiError);
      expect((err as ApiError).details).toMatchObject({ field: 'repoUrl' });
    }
  });

  it('accepts local repositories when allowed', () => {
    for (const url of ['file:///tmp/x', '/tmp/x', 'http://127.0.0.1:9/x']) expect(validateRepoUrl(url, true)).toBe(url);
  });

  it('classifies addresses', () => {
    expect(isPrivateAddress('8.8.8.8')).toBe(false);
    expect(isPrivateAddress('::ffff:127.0.0.1')).toBe(true);
    expect(isPrivateAddress('100.64.1.1')).toBe(true);
    expect(isPrivateAddress('github.com')).toBe(false);
  });
});
