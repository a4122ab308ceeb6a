import { describe, expect, it } from 'vitest';
import { repoIdentity, sameRepository } from './repo-identity';

describe('repoIdentity', () => {
  it.each([
    // the four URLs of a GitHub payload's repository
    ['https://github.com/Codertocat/Hello-World.git', 'github.com/codertocat/hello-world'],
    ['https://github.com/Codertocat/Hello-World', 'github.com/codertocat/hello-world'],
    ['git@github.com:Codertocat/Hello-World.git', 'github.com/codertocat/hello-world'],
    ['git://github.com/Codertocat/Hello-World.git', 'github.com/codertocat/hello-world'],
    // what a user may type as repoUrl
    ['https://GitHub.com/codertocat/hello-world/', 'github.com/codertocat/hello-world'],
    ['https://github.com/codertocat/hello-world.git/', 'github.com/codertocat/hello-world'],
    ['https://token@github.com/codertocat/hello-world', 'github.com/codertocat/hello-world'],
    ['https://github.com:443/codertocat//hello-world', 'github.com/codertocat/hello-world'],
    ['ssh://git@github.com/Codertocat/Hello-World.git', 'github.com/codertocat/hello-world'],
    ['ssh://git@github.com:2222/Codertocat/Hello-World', 'github.com/codertocat/hello-world'],
    ['https://gitlab.com/group/sub/Project.GIT', 'gitlab.com/group/sub/project'],
    ['git@[2001:db8::1]:team/docs.git', '2001:db8::1/team/docs'],
  ])('%s → %s', (url, identity) => {
    expect(repoIdentity(url)).toBe(identity);
  });

  it.each([
    ['file:///srv/repos/docs', 'a local file URL'],
    ['/srv/repos/docs', 'a path'],
    ['https://github.com/', 'no repository path'],
    ['https://github.com/.git', 'only a .git suffix'],
    ['ext::sh -c touch% /tmp/x', 'a remote helper'],
    ['ftp://github.com/a/b', 'another scheme'],
    ['', 'nothing'],
  ])('%s has no identity (%s)', (url) => {
    expect(repoIdentity(url)).toBeNull();
  });

  it('keeps repositories of other hosts and owners apart', () => {
    expect(sameRepository('https://github.com/acme/docs', 'git@github.com:acme/docs.git')).toBe(true);
    expect(sameRepository('https://github.com/acme/docs', 'https://gitlab.com/acme/docs')).toBe(false);
    expect(sameRepository('https://github.com/acme/docs', 'https://github.com/other/docs')).toBe(false);
    expect(sameRepository('https://github.com/acme/docs', 'https://github.com/acme/docs-v2')).toBe(false);
    expect(sameRepository('file:///a', 'file:///a')).toBe(false);
  });
});
