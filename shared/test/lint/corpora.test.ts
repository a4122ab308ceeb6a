/**
 * The linter over every Markdown and MDX page of the three real corpora (../shared/corpus): no page
 * makes it throw, every real page parses (no `mdx/syntax` finding: builds render them all), and
 * every finding points inside its page with a fix that stays inside it too.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createLinter } from '../../src/lint/linter';
import { GlossaryTermSchema, StyleRuleSchema } from '../../src/lint/types';
import { CORPUS_DIR, dirFiles } from '../helpers/dir-files';

const linter = createLinter({
  styleRules: [
    StyleRuleSchema.parse({ name: 'plain-words', type: 'substitution', swap: { utilize: 'use', 'in order to': 'to' } }),
    StyleRuleSchema.parse({ name: 'headings', type: 'capitalization', match: '$sentence' }),
    StyleRuleSchema.parse({ name: 'long', type: 'sentence-length', max: 40 }),
  ],
  glossary: [GlossaryTermSchema.parse({ term: 'GitHub', caseSensitive: true })],
});

describe.each(['agentops', 'pezzo', 'trigger-dev'])('linting the %s corpus', (corpus) => {
  it('lints every page without throwing, finds no syntax errors, and places findings inside their page', async () => {
    const root = path.join(CORPUS_DIR, corpus);
    expect(fs.existsSync(root), `${root} is missing`).toBe(true);
    const pages = dirFiles(root).list().filter((p) => /\.mdx?$/.test(p));
    expect(pages.length).toBeGreaterThan(10);
    for (const page of pages) {
      const text = fs.readFileSync(path.join(root, page), 'utf8');
      const lines = text.split('\n').length;
      for (const f of await linter.lint(text, page)) {
        expect(f.ruleId, `${page}: ${f.message}`).not.toBe('mdx/syntax');
        expect(f.line, `${page} ${f.ruleId}`).toBeGreaterThanOrEqual(1);
        expect(f.line, `${page} ${f.ruleId}`).toBeLessThanOrEqual(lines);
        if (f.fix) expect(f.fix.range[1], `${page} ${f.ruleId}`).toBeLessThanOrEqual(text.length);
      }
    }
  }, 60_000);
});
