import { describe, expect, it } from 'vitest';
import { memoryFiles } from '../../../src/docs/files';
import { loadSiteConfig } from '../../../src/docs/config/load-site-config';
import { loadJsonWithRefs } from '../../../src/docs/config/resolve-refs';
import { thrown } from '../../helpers/thrown';

const json = (v: unknown) => JSON.stringify(v);


describe('$ref resolution', () => {
  it('replaces a $ref by the file it names, siblings overriding an object target', () => {
    const files = memoryFiles({
      'docs.json': json({ a: { $ref: './parts/a.json', color: 'red' } }),
      'parts/a.json': json({ color: 'blue', size: 2 }),
    });
    const { value, files: read } = loadJsonWithRefs(files, 'docs.json');
    expect(value).toEqual({ a: { color: 'red', size: 2 } });
    expect(read).toEqual(['docs.json', 'parts/a.json']);
  });

  it('resolves nested refs relative to the referring file, and / from the docs root', () => {
    const files = memoryFiles({
      'docs.json': json({ nav: { $ref: 'config/nav.json' } }),
      'config/nav.json': json({ groups: { $ref: './groups.json' }, more: { $ref: '/shared.json' } }),
      'config/groups.json': json([{ group: 'G', pages: ['a'] }]),
      'shared.json': json('hello'),
    });
    expect(loadJsonWithRefs(files, 'docs.json').value).toEqual({ nav: { groups: [{ group: 'G', pages: ['a'] }], more: 'hello' } });
  });

  it('ignores siblings of an array target, with a warning', () => {
    const files = memoryFiles({ 'docs.json': json({ r: { $ref: 'r.json', extra: 1 } }), 'r.json': json([1, 2]) });
    const { value, warnings } = loadJsonWithRefs(files, 'docs.json');
    expect(value).toEqual({ r: [1, 2] });
    expect(warnings).toHaveLength(1);
    expect(warnings[0]!.kind).toBe('config');
  });

  it('refuses a $ref outside the docs root or to a URL with a warning, and reads nothing', () => {
    const files = memoryFiles({ 'docs.json': json({ a: { $ref: '../../etc/passwd.json', keep: true }, b: { $ref: 'https://evil.example/x.json' } }) });
    const { value, warnings, files: read } = loadJsonWithRefs(files, 'docs.json');
    expect(value).toEqual({ a: { keep: true }, b: {} });
    expect(warnings.map((w) => w.message)).toEqual([
      expect.stringContaining('outside the docs root'),
      expect.stringContaining('is a URL'),
    ]);
    expect(read).toEqual(['docs.json']);
  });

  it('fails on a cycle, naming the chain', () => {
    const files = memoryFiles({
      'docs.json': json({ a: { $ref: 'a.json' } }),
      'a.json': json({ b: { $ref: 'b.json' } }),
      'b.json': json({ c: { $ref: './a.json' } }),
    });
    const err = thrown(() => loadJsonWithRefs(files, 'docs.json'));
    expect(err.message).toContain('cycle');
    expect(err.message).toContain('docs.json → a.json → b.json → a.json');
    expect(err.file).toBe('b.json');
  });

  it('fails on a missing $ref file and on invalid JSON in it, naming the file', () => {
    const missing = memoryFiles({ 'docs.json': json({ navigation: { $ref: 'nav.json' } }) });
    expect(thrown(() => loadJsonWithRefs(missing, 'docs.json')).message).toBe(
      'docs.json: navigation.$ref names "nav.json", but nav.json does not exist',
    );
    const broken = memoryFiles({ 'docs.json': json({ navigation: { $ref: 'nav.json' } }), 'nav.json': '{\n  "groups": [,]\n}' });
    const err = thrown(() => loadJsonWithRefs(broken, 'docs.json'));
    expect(err.file).toBe('nav.json');
    expect(err.line).toBe(2);
    expect(err.message).toMatch(/^nav\.json: not valid JSON at line 2/);
  });

  it('reports a wrong type inside a $ref file against that file', () => {
    const files = memoryFiles({
      'docs.json': json({ theme: 'mint', name: 'X', colors: { primary: '#000000' }, navigation: { languages: [{ $ref: 'fr.json' }] } }),
      'fr.json': json({ language: 'fr', tabs: [{ tab: 'Docs', groups: 'oops' }] }),
    });
    const err = thrown(() => loadSiteConfig(files));
    expect(err.file).toBe('fr.json');
    expect(err.field).toBe('tabs[0].groups');
    expect(err.message).toBe(
      'fr.json: tabs[0].groups must be an array of groups, got a string (included by "$ref" at navigation.languages[0] in docs.json)',
    );
  });
});
