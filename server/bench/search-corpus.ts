/**
 * Search records of the benchmark corpora (bench:search, bench:search-relevance), and a seeded
 * random source for the queries derived from them.
 *
 * - A real corpus (`../shared/corpus/<name>`) is built as a project is: a git copy, `runBuild`
 *   into a temporary data directory; the records are the ones the build saved in its deployment's
 *   `_quire/search/records.json`, and the build log's "indexing search" line tells what the index
 *   step cost inside the build.
 * - The generated corpus (`bench/gen-corpus.mjs N`, plain Markdown) is made into records straight
 *   from its files, as the renderer exports a `.md` page (`# title`, description, body) with the
 *   renderer's heading ids (`tocFromMarkdown`): a 10,000-page build would take minutes here.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { SEARCH_INDEX_DIR, RECORDS_FILE } from '@quire/shared/search/index';
import { pageRecords, parseRecordsFile } from '@quire/shared/search/records-file';
import { pageSearchRecords, tocFromMarkdown } from '@quire/shared/search/records';
import type { SearchRecord } from '@quire/shared/search/types';
import { runBuild } from '../src/builder/pipeline';
import { closeRenderPool } from '../src/builder/render-pool';
import { createFixtureRepo } from '../test/helpers/git-repo';

const here = path.dirname(fileURLToPath(import.meta.url));
/** The shared corpora (trigger-dev, agentops, pezzo), outside this repository. */
export const CORPUS_DIR = path.resolve(here, '../../../shared/corpus');
const GEN_CORPUS = path.resolve(here, '../../bench/gen-corpus.mjs');

/** Records of a built corpus, with the build's own figures. */
export interface CorpusRecords {
  name: string;
  records: SearchRecord[];
  pages: number;
  /** the build log's line of the index step (`✓ indexing search (...) N ms`), when there is one */
  indexStep?: string;
}

/** Builds `../shared/corpus/<name>` as a project and returns the records its deployment saved. */
export async function builtCorpusRecords(name: string): Promise<CorpusRecords> {
  const repo = createFixtureRepo(path.join(CORPUS_DIR, name));
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-bench-search-'));
  const log: string[] = [];
  try {
    const result = await runBuild({
      projectId: 'prj_bench',
      buildId: `bld_${name.replace(/\W/g, '')}`,
      repoUrl: repo.url,
      branch: repo.branch,
      allowFileRepos: true,
      dataDir,
      siteUrl: 'http://bench-docs.localhost:4000',
      signal: new AbortController().signal,
      log: (line) => log.push(line),
    });
    const stored = parseRecordsFile(fs.readFileSync(path.join(result.outDir, SEARCH_INDEX_DIR, RECORDS_FILE), 'utf8'));
    return { name, records: stored.pages.flatMap(pageRecords), pages: stored.pages.length, indexStep: log.find((l) => l.startsWith('✓ indexing search')) };
  } finally {
    repo.cleanup();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

/** Lets the build workers go (a bench process ends cleanly). */
export const closeBuilders = (): Promise<void> => closeRenderPool();

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
