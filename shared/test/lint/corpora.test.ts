/**
 * The linter over every Markdown and MDX page of the three real corpora (fixtures/corpora): no page
 * makes it throw, every real page parses (no `mdx/syntax` finding: builds render them all), and
 * every finding points inside its page with a fix that stays inside it too. The navigation rules
 * run too, against each corpus's own page inventory (its pages, files and config redirects).
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadSiteConfig } from '../../src/docs/config/index';
import { pagePathOf } from '../../src/docs/nav/index';
import { pageInventory } from '../../src/docs/page-inventory';
import { createLinter, type LinterOptions } from '../../src/lint/linter';
import { GlossaryTermSchema, StyleRuleSchema } from '../../src/lint/types';
import { CORPUS_DIR, dirFiles } from '../helpers/dir-files';

const options: LinterOptions = {
  styleRules: [
    StyleRuleSchema.parse({ name: 'plain-words', type: 'substitution', swap: { utilize: 'use', 'in order to': 'to' } }),
    StyleRuleSchema.parse({ name: 'headings', type: 'capitalization', match: '$sentence' }),
    StyleRuleSchema.parse({ name: 'long', type: 'sentence-length', max: 40 }),
  ],
  glossary: [GlossaryTermSchema.parse({ term: 'GitHub', caseSensitive: true })],
};

describe.each(['agentops', 'pezzo', 'trigger-dev'])('linting the %s corpus', (corpus) => {
  it('lints every page without throwing, finds no syntax errors, and places findings inside their page', async () => {
    const root = path.join(CORPUS_DIR, corpus);
    expect(fs.existsSync(root), `${root} is missing`).toBe(true);
    const files = dirFiles(root);
    const pages = files.list().filter((p) => /\.mdx?$/.test(p));
    expect(pages.length).toBeGreaterThan(10);
    const inventory = pageInventory({ pages: pages.map((p) => pagePathOf(p)!), files, redirects: loadSiteConfig(files).config.redirects });
    const linter = createLinter({ ...options, inventory });
    const rules = new Set<string>();
    for (const page of pages) {
      const text = fs.readFileSync(path.join(root, page), 'utf8');
      const lines = text.split('\n').length;
      for (const f of await linter.lint(text, page)) {
        rules.add(f.ruleId);
        expect(f.ruleId, `${page}: ${f.message}`).not.toBe('mdx/syntax');
        expect(f.line, `${page} ${f.ruleId}`).toBeGreaterThanOrEqual(1);
        expect(f.line, `${page} ${f.ruleId}`).toBeLessThanOrEqual(lines);
        if (f.fix) expect(f.fix.range[1], `${page} ${f.ruleId}`).toBeLessThanOrEqual(text.length);
      }
    }
    // Every corpus has pages the navigation rules look at; none of them crashes the linter.
    expect([...rules].some((r) => r.startsWith('markdown/'))).toBe(true);
  }, 240_000);
});
