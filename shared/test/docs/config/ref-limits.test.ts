/**
 * `$ref` files that include each other several times multiply the config (a 61 KB set of files took
 * 83 s and 1.4 GB): resolution stops with an error naming the file once the resolved config passes
 * MAX_CONFIG_RESOLVED_CHARS, and refuses chains deeper than MAX_REF_DEPTH.
 */
import { describe, expect, it } from 'vitest';
import { memoryFiles } from '../../../src/docs/files';
import { loadJsonWithRefs } from '../../../src/docs/config/resolve-refs';
import { MAX_CONFIG_RESOLVED_CHARS, MAX_REF_DEPTH } from '../../../src/docs/limits';
import { thrown } from '../../helpers/thrown';

const json = (v: unknown) => JSON.stringify(v);
const refs = (target: string, n: number) => Array.from({ length: n }, () => ({ $ref: target }));

describe('$ref expansion limits', () => {
  it('stops files that reference each other several times once the resolved config is too large', () => {
    // 12 · 12 · 12 = 1728 copies of a 40 KB page list (within the 2000-expansion cap): about 70 MB of JSON
    const leaf = Array.from({ length: 1000 }, (_, i) => `guides/page-number-${i}`);
    const files = memoryFiles({
      'docs.json': json({ name: 'x', navigation: { groups: refs('a.json', 12) } }),
      'a.json': json({ group: 'A', pages: refs('b.json', 12) }),
      'b.json': json({ group: 'B', pages: refs('c.json', 12) }),
      'c.json': json({ group: 'C', pages: leaf }),
    });
    const before = process.memoryUsage().heapUsed;
    const err = thrown(() => loadJsonWithRefs(files, 'docs.json'));
    expect(process.memoryUsage().heapUsed - before).toBeLessThan(200_000_000);
    expect(err.file).toBe('c.json');
    expect(err.message).toMatch(/^c\.json: the config exceeds 10 MB once \$refs are resolved \(reached through docs\.json → a\.json → b\.json → c\.json; a file referenced several times is copied each time\)/);
    expect(MAX_CONFIG_RESOLVED_CHARS).toBe(10_000_000);
  });

  it('refuses a $ref chain deeper than the limit, naming the file that goes one step too far', () => {
    const files: Record<string, string> = { 'docs.json': json({ name: 'x', next: { $ref: 'f1.json' } }) };
    for (let i = 1; i <= MAX_REF_DEPTH + 1; i++) files[`f${i}.json`] = json({ next: { $ref: `f${i + 1}.json` } });
    files[`f${MAX_REF_DEPTH + 2}.json`] = json('end');
    const err = thrown(() => loadJsonWithRefs(memoryFiles(files), 'docs.json'));
    expect(err.file).toBe(`f${MAX_REF_DEPTH}.json`);
    expect(err.field).toBe('next.$ref');
    expect(err.message).toContain(`$ref chain is deeper than ${MAX_REF_DEPTH} files`);
  });

  it('still resolves a config that references small files many times', () => {
    const files = memoryFiles({
      'docs.json': json({ navigation: { groups: refs('g.json', 500) } }),
      'g.json': json({ group: 'G', pages: ['a', 'b'] }),
    });
    const { value } = loadJsonWithRefs(files, 'docs.json');
    expect((value as { navigation: { groups: unknown[] } }).navigation.groups).toHaveLength(500);
  });
});
