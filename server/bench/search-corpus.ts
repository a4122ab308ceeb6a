/**
 * Search records of the benchmark corpora (bench:search, bench:search-relevance), and a seeded
 * random source for the queries derived from them.
 *
 * - A real corpus (`fixtures/corpora/<name>`) is built as a project is (test/helpers/corpus.ts,
 *   re-exported here): the records its deployment saved, and its build's index step.
 * - The generated corpus (`bench/gen-corpus.mjs N`, plain Markdown) is made into records straight
 *   from its files, as the renderer exports a `.md` page (`# title`, description, body) with the
 *   renderer's heading ids (`tocFromMarkdown`): a 10,000-page build would take minutes here.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { pageSearchRecords, tocFromMarkdown } from '@quire/shared/search/records';
import type { SearchRecord } from '@quire/shared/search/types';
import type { CorpusRecords } from '../test/helpers/corpus';

// The real corpora are built by the test helper (tests use them too: the assistant's answer quality).
export { builtCorpusRecords, closeBuilders, CORPUS_DIR, type CorpusRecords } from '../test/helpers/corpus';

const here = path.dirname(fileURLToPath(import.meta.url));
const GEN_CORPUS = path.resolve(here, '../../bench/gen-corpus.mjs');

/** Records of the generated corpus of `n` pages (see the module comment). */
export function generatedRecords(n: number): CorpusRecords {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-bench-gen-'));
  try {
    execFileSync(process.execPath, [GEN_CORPUS, String(n), dir], { stdio: 'ignore' });
    const records: SearchRecord[] = [];
    let pages = 0;
    const sections = JSON.parse(fs.readFileSync(path.join(dir, 'sections.json'), 'utf8')) as { dir: string; pages: { slug: string }[] }[];
    for (const s of sections) {
      for (const p of s.pages) {
        const src = fs.readFileSync(path.join(dir, s.dir, `${p.slug}.md`), 'utf8');
        const fm = /^---\n([^]*?)\n---\n/.exec(src)!;
        const title = /^title: (.*)$/m.exec(fm[1]!)![1]!;
        const description = /^description: (.*)$/m.exec(fm[1]!)?.[1];
        const markdown = `# ${title}\n\n${description ? `${description}\n\n` : ''}${src.slice(fm[0].length).trim()}\n`;
        records.push(...pageSearchRecords({ path: `${s.dir}/${p.slug}`, title, markdown, toc: tocFromMarkdown(markdown) }));
        pages++;
      }
    }
    return { name: `generated ${n} pages`, records, pages };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** A deterministic random source (the generator's LCG): numbers in [0, 1). */
export function seededRandom(seed: number): () => number {
  let s = seed;
  return () => (s = (s * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff;
}

/** `word` with one edit (swap of two neighbours, deletion, doubling or substitution of a letter), never itself. */
export function typoOf(word: string, rnd: () => number): string {
  for (;;) {
    const i = 1 + Math.floor(rnd() * (word.length - 2));
    const kind = Math.floor(rnd() * 4);
    const out =
      kind === 0 ? word.slice(0, i) + word[i + 1] + word[i] + word.slice(i + 2)
      : kind === 1 ? word.slice(0, i) + word.slice(i + 1)
      : kind === 2 ? word.slice(0, i) + word[i] + word.slice(i)
      : word.slice(0, i) + 'etaoinsr'[Math.floor(rnd() * 8)] + word.slice(i + 1);
    if (out !== word) return out;
  }
}
