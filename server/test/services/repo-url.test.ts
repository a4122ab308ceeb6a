import { describe, expect, it } from 'vitest';
import { ApiError } from '@quire/shared/errors';
import type { RepoUrlPolicy } from '@quire/shared/repo/repo-url';
import { validateRepoUrl } from '../../src/services/repo-url';

const strict: RepoUrlPolicy = { allowFileRepos: false, allowPrivateNetwork: false };

/** Runs validateRepoUrl and returns the ApiError it throws. */
function refusal(url: string, policy: RepoUrlPolicy): ApiError {
  try {
    validateRepoUrl(url, policy);
  } catch (err) {
    if (err instanceof ApiError) return err;
    throw err;
  }
  throw new Error(`${url} was accepted`);
}

describe('validateRepoUrl', () => {
  it.each(['https://github.com/a/b.git', 'ssh://git@gitlab.com/a/b.git', 'git@github.com:a/b.git'])('accepts %s unchanged', (url) => {
    expect(validateRepoUrl(url, strict)).toBe(url);
  });

  // The forms the WHATWG URL parser reads as loopback, and their scp-like twins (git hands those to ssh).
  it.each([
    'https://[::ffff:127.0.0.1]/a', 'https://0x7f.1/a', 'https://2130706433/a', 'https://127.1/a', 'https://0177.0.0.1/a',
    'https://localhost./a', 'git@127.1:a/b', 'git@0x7f.1:a/b', 'git@[::ffff:127.0.0.1]:a/b', 'ssh://git@127.1/a',
  ])('refuses the loopback host of %s with 400 invalid_request on repoUrl', (url) => {
    const err = refusal(url, strict);
    expect(err.status).toBe(400);
    expect(err.code).toBe('invalid_request');
    expect(err.details).toMatchObject({ field: 'repoUrl', issue: expect.stringContaining('loopback') });
  });

  it.each(['file:///tmp/x', '/tmp/x', 'http://github.com/a/b', 'ext::sh%20-c%20id', 'https://user:pw@github.com/a/b', '-uhttps://x'])(
    'refuses %s with details.field repoUrl',
    (url) => {
      expect(refusal(url, strict).details).toMatchObject({ field: 'repoUrl' });
    },
  );

  it('accepts local repositories when file repos are allowed, private hosts only when private networks are', () => {
    const fileRepos = { allowFileRepos: true, allowPrivateNetwork: false };
    for (const url of ['file:///tmp/x', '/tmp/x', 'http://git.example.com/x']) expect(validateRepoUrl(url, fileRepos)).toBe(url);
    expect(refusal('https://[::ffff:127.0.0.1]/a', fileRepos).details).toMatchObject({ field: 'repoUrl', issue: expect.stringContaining('QUIRE_ALLOW_PRIVATE_NETWORK=1') });
    const both = { allowFileRepos: true, allowPrivateNetwork: true };
    for (const url of ['http://127.0.0.1:9/x', 'https://[::ffff:127.0.0.1]/a']) expect(validateRepoUrl(url, both)).toBe(url);
    expect(validateRepoUrl('git@10.0.0.5:a/b.git', { allowFileRepos: false, allowPrivateNetwork: true })).toBe('git@10.0.0.5:a/b.git');
  });
});
