/**
 * `quire-docs lint --fix` applies the project's quick fixes to the files; `quire-docs new page` writes
 * the page and lists it in its docs.json group as the desktop app's New page does.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, copyFixture } from './helpers';

describe('quire-docs lint', () => {
  it('reports the lint rules\' findings, and --fix rewrites the files with their fixes', async () => {
    const dir = copyFixture('clean');
    fs.writeFileSync(path.join(dir, 'quire-lint.json'), JSON.stringify({ styleRules: [{ name: 'plain-words', type: 'substitution', swap: { utilize: 'use' }, severity: 'error' }] }));
    fs.appendFileSync(path.join(dir, 'guides/setup.mdx'), '\nYou can utilize the installer.\n');
    const before = await cli(['lint', '.', '--format', 'json'], dir);
    expect(before.status).toBe(1);
    expect(JSON.parse(before.out).findings).toMatchObject([{ file: 'guides/setup.mdx', line: 10, rule: 'style/plain-words', severity: 'error' }]);
    const fixed = await cli(['lint', '--fix'], dir);
    expect(fixed.status).toBe(0);
    expect(fixed.out).toBe('fixed guides/setup.mdx\n0 errors, 0 warnings\n');
    expect(fs.readFileSync(path.join(dir, 'guides/setup.mdx'), 'utf8')).toContain('You can use the installer.');
  });

  it('exits 2 naming the field of a quire-lint.json that is not valid', async () => {
    const dir = copyFixture('clean');
    fs.writeFileSync(path.join(dir, 'quire-lint.json'), JSON.stringify({ styleRules: [{ name: 'Bad Name', type: 'existence', tokens: ['x'] }] }));
    const { status, err } = await cli(['lint'], dir);
    expect(status).toBe(2);
    expect(err).toMatch(/quire-lint\.json: styleRules\.0\.name: /);
  });
});

describe('quire-docs new page', () => {
  it('writes the page with its title and lists it at the end of the group, keeping docs.json as written', async () => {
    const dir = copyFixture('clean');
    const { status, out } = await cli(['new', 'page', 'guides/deploy', '--title', 'Deploy: the basics', '--group', 'Get started'], dir);
    expect(status).toBe(0);
    expect(out).toBe('created guides/deploy.mdx, listed in docs.json\n');
    expect(fs.readFileSync(path.join(dir, 'guides/deploy.mdx'), 'utf8')).toBe('---\ntitle: "Deploy: the basics"\ndescription: ""\n---\n\n');
    const config = fs.readFileSync(path.join(dir, 'docs.json'), 'utf8');
    expect(config).toContain('"pages": ["index", "guides/setup", "guides/deploy"]');
    expect(config).toContain('"$schema": "https://mintlify.com/docs.json"');
    // the new page is a page of the site: check passes
    expect((await cli(['check'], dir)).status).toBe(0);
  });

  it('refuses an existing page, an unknown group and a path that is not a page path, writing nothing', async () => {
    const dir = copyFixture('clean');
    const config = fs.readFileSync(path.join(dir, 'docs.json'), 'utf8');
    expect(await cli(['new', 'page', 'guides/setup', '--title', 'Again'], dir)).toMatchObject({ status: 2, err: 'quire-docs: there is already a page at guides/setup; choose another path\n' });
    const unknown = await cli(['new', 'page', 'guides/other', '--title', 'Other', '--group', 'Nope'], dir);
    expect(unknown.status).toBe(2);
    expect(unknown.err).toContain('Nope');
    expect((await cli(['new', 'page', '../escape', '--title', 'Out'], dir)).status).toBe(2);
    expect((await cli(['new', 'page', 'guides/x'], dir))).toMatchObject({ status: 2, err: 'quire-docs: new page needs --title\n' });
    expect(fs.existsSync(path.join(dir, 'guides/other.mdx'))).toBe(false);
    expect(fs.readFileSync(path.join(dir, 'docs.json'), 'utf8')).toBe(config);
  });

  it('prints each command\'s help', async () => {
    for (const command of ['check', 'lint', 'new']) {
      const { status, out } = await cli([command, '--help']);
      expect(status).toBe(0);
      expect(out).toMatch(new RegExp(`^Usage: quire-docs ${command}`));
    }
  });
});
