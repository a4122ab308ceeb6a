import { describe, expect, it } from 'vitest';
import { createIgnoreMatcher, MAX_IGNORE_RULES, readMintignore } from '../../../src/docs/config/page-files';
import type { DocsFiles } from '../../../src/docs/types';

const filesWith = (mintignore: string): DocsFiles => ({
  read: (p) => (p === '.mintignore' ? mintignore : p === 'docs.json' ? '{}' : undefined),
  exists: (p) => p === '.mintignore' || p === 'docs.json',
  list: () => ['.mintignore', 'docs.json'],
});

describe('.mintignore limits', () => {
  it('leaves out a rule with more than two "**" (a backtracking pattern) with a warning naming its line', () => {
    const files = filesWith('# drafts\ndrafts/\na/**/a/**/a/**/b\nold/**/*.mdx\n');
    const { rules, warnings } = readMintignore(files);
    expect(rules).toEqual(['drafts/', 'old/**/*.mdx']);
    expect(warnings).toEqual([expect.objectContaining({ file: '.mintignore', line: 3, kind: 'config' })]);
    const ignored = createIgnoreMatcher(files);
    expect(ignored('drafts/x.mdx')).toBe(true);
    expect(ignored('old/deep/y.mdx')).toBe(true);
    // the refused rule is not applied, and matching a deep path stays instant
    expect(ignored(`${'a/'.repeat(60)}b`)).toBe(false);
  });

  it(`uses the first ${MAX_IGNORE_RULES} rules and says how many more were ignored`, () => {
    const text = Array.from({ length: MAX_IGNORE_RULES + 5 }, (_, i) => `folder${i}/`).join('\n');
    const { rules, warnings } = readMintignore(filesWith(text));
    expect(rules).toHaveLength(MAX_IGNORE_RULES);
    expect(warnings.map((w) => w.message)).toEqual([`.mintignore: only the first ${MAX_IGNORE_RULES} rules are used; 5 more ignored.`]);
  });
});
