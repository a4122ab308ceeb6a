import { describe, expect, it } from 'vitest';
import { editUrlFor, editUrlTemplate } from '../../src/docs/edit-link';

/** "Edit this page" for GitHub, GitLab, Bitbucket and any https host with a docs.json `editUrl` pattern. */
const link = (repoUrl: string, pattern?: unknown, docsRoot = 'docs', branch = 'main') =>
  editUrlFor(editUrlTemplate({ repoUrl, branch, docsRoot, ...(pattern !== undefined ? { pattern } : {}) }), 'guides/setup.mdx');

describe('edit links', () => {
  it.each([
    ['https://github.com/acme/docs.git', 'https://github.com/acme/docs/edit/main/docs/guides/setup.mdx'],
    ['git@github.com:acme/docs.git', 'https://github.com/acme/docs/edit/main/docs/guides/setup.mdx'],
    ['ssh://git@github.com/acme/docs', 'https://github.com/acme/docs/edit/main/docs/guides/setup.mdx'],
    ['https://gitlab.com/acme/platform/docs.git', 'https://gitlab.com/acme/platform/docs/-/edit/main/docs/guides/setup.mdx'],
    ['git@gitlab.example.org:team/docs.git', 'https://gitlab.example.org/team/docs/-/edit/main/docs/guides/setup.mdx'],
    ['https://bitbucket.org/acme/docs.git', 'https://bitbucket.org/acme/docs/src/main/docs/guides/setup.mdx?mode=edit'],
    ['git@bitbucket.org:acme/docs.git', 'https://bitbucket.org/acme/docs/src/main/docs/guides/setup.mdx?mode=edit'],
  ])('%s', (repoUrl, expected) => {
    expect(link(repoUrl)).toBe(expected);
  });

  it('never puts credentials of the repository URL into the link', () => {
    const url = link('https://oauth2:glpat-secret@gitlab.com/acme/docs.git');
    expect(url).toBe('https://gitlab.com/acme/docs/-/edit/main/docs/guides/setup.mdx');
    expect(link('https://x-access-token:ghs_secret@github.com/acme/docs')).not.toContain('secret');
  });

  it('has no link for unknown hosts and local repositories without a pattern', () => {
    expect(link('https://git.example.com/acme/docs.git')).toBeUndefined();
    expect(link('/tmp/repos/docs')).toBeUndefined();
    expect(link('file:///tmp/repos/docs')).toBeUndefined();
  });

  it('uses the docs.json editUrl pattern for any https host, with {branch} and {path}', () => {
    const pattern = 'https://git.example.com/acme/docs/_edit/{branch}/{path}';
    expect(link('https://git.example.com/acme/docs.git', pattern, 'docs', 'release/2.0')).toBe('https://git.example.com/acme/docs/_edit/release/2.0/docs/guides/setup.mdx');
    // the pattern wins over the host rule, and works for a local repository too
    expect(link('https://github.com/acme/docs', pattern, '')).toBe('https://git.example.com/acme/docs/_edit/main/guides/setup.mdx');
    expect(link('/tmp/repos/docs', pattern, '')).toBe('https://git.example.com/acme/docs/_edit/main/guides/setup.mdx');
  });

  it('turns links off with editUrl false, and ignores patterns that are not https URLs with {path}', () => {
    expect(link('https://github.com/acme/docs', false)).toBeUndefined();
    expect(link('https://git.example.com/acme/docs', 'http://git.example.com/{path}')).toBeUndefined();
    expect(link('https://git.example.com/acme/docs', 'javascript:alert(1)//{path}')).toBeUndefined();
    expect(link('https://git.example.com/acme/docs', 'https://git.example.com/edit/main')).toBeUndefined();
    // a pattern of another type is ignored: the host rule applies
    expect(link('https://github.com/acme/docs', 42)).toBe('https://github.com/acme/docs/edit/main/docs/guides/setup.mdx');
  });

  it('encodes file path segments and appends to a plain base', () => {
    expect(editUrlFor('https://github.com/a/b/edit/main/', 'a b/c#d.mdx')).toBe('https://github.com/a/b/edit/main/a%20b/c%23d.mdx');
    expect(editUrlFor(undefined, 'x.mdx')).toBeUndefined();
  });
});
