import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createCheckoutFiles, openDocsFiles } from '../../src/builder/checkout-files';
import { findDocsRoot } from '../../src/builder/docs-root';

const dirs: string[] = [];
function tree(files: Record<string, string>): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-files-'));
  dirs.push(dir);
  for (const [rel, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    fs.writeFileSync(path.join(dir, rel), text);
  }
  return dir;
}
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

describe('checkout files', () => {
  it('refuses a docs root whose real path leaves the checkout (a symlinked docs folder)', () => {
    const outside = tree({ 'docs.json': '{}', 'index.mdx': '# outside' });
    const repo = tree({ 'README.md': '# repo' });
    fs.symlinkSync(outside, path.join(repo, 'docs'));
    expect(() => createCheckoutFiles(path.join(repo, 'docs'), { boundary: repo })).toThrow(/docs is a symbolic link that leads outside the repository/);
  });

  it('reads files inside the root and refuses paths that escape it', () => {
    const repo = tree({ 'docs/a.mdx': '# A', 'docs/images/x.png': 'png', 'secret.txt': 'top secret' });
    const files = createCheckoutFiles(path.join(repo, 'docs'), { boundary: repo });
    expect(files.read('a.mdx')).toBe('# A');
    expect(files.read('/a.mdx')).toBe('# A');
    expect(files.read('../secret.txt')).toBeUndefined();
    expect(files.exists('images/x.png')).toBe(true);
    expect(files.list()).toEqual(['a.mdx', 'images/x.png']);
  });

  it('refuses symlinks that leave the checkout, with a warning, and keeps those inside it', () => {
    const outside = tree({ 'passwd.md': 'root:x:0:0' });
    const repo = tree({ 'docs/a.md': '# A', 'shared/logo.svg': '<svg/>' });
    fs.symlinkSync(path.join(outside, 'passwd.md'), path.join(repo, 'docs', 'leak.md'));
    fs.symlinkSync('../shared/logo.svg', path.join(repo, 'docs', 'logo.svg'));
    fs.symlinkSync('/nonexistent/file', path.join(repo, 'docs', 'broken.md'));
    const files = createCheckoutFiles(path.join(repo, 'docs'), { boundary: repo });
    expect(files.read('leak.md')).toBeUndefined();
    expect(files.exists('leak.md')).toBe(false);
    expect(files.read('logo.svg')).toBe('<svg/>');
    expect(files.list()).toEqual(['a.md', 'logo.svg']);
    expect(files.warnings).toHaveLength(2);
    expect(files.warnings).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ kind: 'symlink', file: 'broken.md' }),
        expect.objectContaining({ kind: 'symlink', file: 'leak.md' }),
      ]),
    );
    expect(JSON.stringify(files.warnings)).not.toContain('root:x');
  });

  it('applies .mintignore and the default ignores to list() but still reads ignored files', () => {
    const repo = tree({
      'docs.json': '{}',
      '.mintignore': 'drafts/\n',
      'intro.mdx': '# Intro',
      'drafts/wip.mdx': '# WIP',
      'README.md': '# Readme',
      'node_modules/x/index.md': 'x',
    });
    const files = openDocsFiles(repo, repo);
    expect(files.list()).toEqual(['.mintignore', 'docs.json', 'intro.mdx']);
    expect(files.isIgnored('drafts/wip.mdx')).toBe(true);
    expect(files.read('drafts/wip.mdx')).toBe('# WIP');
  });
});

describe('docs root detection', () => {
  it('uses the repository root when it holds docs.json or mint.json', () => {
    expect(findDocsRoot(tree({ 'docs.json': '{}', 'docs/mint.json': '{}' }))).toBe('');
    expect(findDocsRoot(tree({ 'mint.json': '{}' }))).toBe('');
  });
  it('uses docs/ in monorepos', () => {
    expect(findDocsRoot(tree({ 'package.json': '{}', 'docs/docs.json': '{}', 'apps/web/docs.json': '{}' }))).toBe('docs');
  });
  it('finds a config deeper down', () => {
    expect(findDocsRoot(tree({ 'apps/site/mint.json': '{}', 'README.md': '# x' }))).toBe('apps/site');
  });
  it('falls back to docs/ holding Markdown, else the root', () => {
    expect(findDocsRoot(tree({ 'README.md': '# x', 'docs/intro.md': '# Intro' }))).toBe('docs');
    expect(findDocsRoot(tree({ 'intro.md': '# Intro', 'docs/other.md': '# O' }))).toBe('');
  });
});
