/**
 * `pnpm bench:lint`: the style linter (shared/src/lint) over every Markdown and MDX page of the
 * shared corpora (fixtures/corpora: agentops, pezzo, trigger-dev), with the built-in rules, a set
 * of Vale-shaped style rules and a glossary as a docs team would write them. Prints the findings per
 * rule and the time per page, warm (after one untimed pass: as-you-type linting runs warm) and
 * cold (the first pass; goal: under 20 ms a page on average). Fails when a corpus is missing
 * or the linter throws on a page.
 *
 * Environment: QUIRE_CORPUS_DIR (default fixtures/corpora in the repository).
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { pageInventory } from '@quire/shared/docs/page-inventory';
import { createLinter, type LinterOptions } from '@quire/shared/lint/linter';
import { GlossaryTermSchema, StyleRuleSchema } from '@quire/shared/lint/types';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const corpusDir = process.env.QUIRE_CORPUS_DIR ?? path.resolve(root, 'fixtures/corpora');
const CORPORA = ['agentops', 'pezzo', 'trigger-dev'];

/** Every `.md`/`.mdx` file under `dir`, outside `node_modules` and dot folders. */
function pages(dir: string): string[] {
  const out: string[] = [];
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    if (e.name.startsWith('.') || e.name === 'node_modules') continue;
    const p = path.join(dir, e.name);
    if (e.isDirectory()) out.push(...pages(p));
    else if (/\.mdx?$/.test(e.name)) out.push(p);
  }
  return out;
}

const options: LinterOptions = {
  styleRules: [
    StyleRuleSchema.parse({ name: 'weasel-words', type: 'existence', tokens: ['simply', 'just', 'easily', 'obviously', 'basically'], severity: 'suggestion' }),
    StyleRuleSchema.parse({ name: 'plain-words', type: 'substitution', swap: { utilize: 'use', 'in order to': 'to', leverage: 'use', 'a number of': 'some' } }),
    StyleRuleSchema.parse({ name: 'headings', type: 'capitalization', match: '$sentence', severity: 'suggestion' }),
    StyleRuleSchema.parse({ name: 'note-count', type: 'occurrence', token: 'note', max: 5 }),
    StyleRuleSchema.parse({ name: 'long-sentences', type: 'sentence-length', max: 40, severity: 'suggestion' }),
  ],
  glossary: [GlossaryTermSchema.parse({ term: 'GitHub', caseSensitive: true }), GlossaryTermSchema.parse({ term: 'sign in', avoid: ['login to', 'log-in'] })],
};

/** Every file under `dir` relative to it (the corpus's published files, for its page inventory). */
function allFiles(dir: string, base = dir): string[] {
  const out: string[] = [];
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    if (e.name === '.git' || e.name === 'node_modules') continue;
    const p = path.join(dir, e.name);
    if (e.isDirectory()) out.push(...allFiles(p, base));
    else if (e.isFile()) out.push(path.relative(base, p).split(path.sep).join('/'));
  }
  return out;
}

const corpora = CORPORA.map((corpus) => {
  const dir = path.join(corpusDir, corpus);
  if (!fs.existsSync(dir)) throw new Error(`bench:lint: corpus ${dir} is missing (set QUIRE_CORPUS_DIR)`);
  const files = pages(dir).map((file) => ({ file, text: fs.readFileSync(file, 'utf8') }));
  // The corpus's page inventory (the docs root is the corpus root): the navigation rules run too.
  const inventory = pageInventory({ pages: files.map((f) => path.relative(dir, f.file).split(path.sep).join('/').replace(/\.mdx?$/, '')), files: allFiles(dir) });
  return { corpus, dir, files, linter: createLinter({ ...options, inventory }) };
});

/** One pass over every page: ms per page by corpus, the slowest page, and findings per rule. */
async function pass() {
  const perRule = new Map<string, number>();
  const byCorpus: { corpus: string; pages: number; ms: number }[] = [];
  let slowest = { file: '', ms: 0 };
  for (const { corpus, dir, files, linter } of corpora) {
    let corpusMs = 0;
    for (const { file, text } of files) {
      const start = performance.now();
      const findings = await linter.lint(text, path.relative(dir, file).split(path.sep).join('/'));
      const took = performance.now() - start;
      corpusMs += took;
      if (took > slowest.ms) slowest = { file: path.relative(corpusDir, file), ms: took };
      for (const f of findings) perRule.set(f.ruleId, (perRule.get(f.ruleId) ?? 0) + 1);
    }
    byCorpus.push({ corpus, pages: files.length, ms: corpusMs });
  }
  return { perRule, byCorpus, slowest };
}

const cold = await pass();
const warm = await pass();
const sum = (p: typeof cold) => p.byCorpus.reduce((a, c) => ({ pages: a.pages + c.pages, ms: a.ms + c.ms }), { pages: 0, ms: 0 });
console.log('corpus        pages   cold ms/page   warm ms/page');
for (const [i, c] of cold.byCorpus.entries()) {
  console.log(`${c.corpus.padEnd(12)} ${String(c.pages).padStart(6)} ${(c.ms / c.pages).toFixed(1).padStart(14)} ${(warm.byCorpus[i]!.ms / c.pages).toFixed(1).padStart(14)}`);
}
const [c, w] = [sum(cold), sum(warm)];
console.log(`all          ${String(c.pages).padStart(6)} ${(c.ms / c.pages).toFixed(1).padStart(14)} ${(w.ms / w.pages).toFixed(1).padStart(14)}   (goal < 20 ms a page); slowest page ${warm.slowest.file} ${warm.slowest.ms.toFixed(0)} ms warm`);
const perRule = warm.perRule;
console.log('findings per rule:');
for (const [rule, count] of [...perRule].sort((a, b) => b[1] - a[1])) console.log(`  ${rule.padEnd(36)} ${count}`);
