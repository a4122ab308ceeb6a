/**
 * `pnpm bench:search-relevance`: for each real corpus (trigger-dev, agentops,
 * pezzo, each built as a project: search-corpus.ts), queries whose right page is known, derived
 * deterministically from the corpus's own records, 10 of each kind:
 * - title: a page's title (only titles no other page has);
 * - heading: a section heading no other page has (the right answer is that page);
 * - term: a word of a paragraph found on no other page (6+ letters);
 * - typo: one of the above words (5+ letters) with one edit;
 * - two words: a heading word and a term of the same section's text.
 * Prints, per corpus and overall, the share whose right page is among the first 3 hits (goal 95%),
 * and lists every miss with what came first.
 */
import { buildSearchIndex, loadSearchIndex } from '@quire/shared/search/index';
import type { SearchIndex, SearchRecord } from '@quire/shared/search/types';
import { builtCorpusRecords, closeBuilders, seededRandom, typoOf } from './search-corpus';

const CORPORA = ['trigger-dev', 'agentops', 'pezzo'];
const PER_KIND = 10;

interface Case {
  kind: string;
  q: string;
  want: string;
}

const words = (s: string) => s.split(/[^\p{L}\p{N}]+/u).filter(Boolean);
const norm = (s: string) => s.toLowerCase().replace(/\s+/g, ' ').trim();

/** The known-answer queries of a corpus (see the module comment). */
function cases(records: readonly SearchRecord[], seed: number): Case[] {
  const rnd = seededRandom(seed);
  const sample = <T>(xs: T[], n: number): T[] => {
    const pool = [...xs];
    const out: T[] = [];
    while (out.length < n && pool.length) out.push(pool.splice(Math.floor(rnd() * pool.length), 1)[0]!);
    return out;
  };
  const pagesOf = (key: (r: SearchRecord) => string | undefined) => {
    const m = new Map<string, Set<string>>();
    for (const r of records) {
      const k = key(r);
      if (k) (m.get(k) ?? m.set(k, new Set()).get(k)!).add(r.path);
    }
    return m;
  };
  const titles = pagesOf((r) => norm(r.title));
  const headings = pagesOf((r) => (r.section ? norm(r.section) : undefined));
  const termPages = new Map<string, Set<string>>();
  for (const r of records) for (const w of words(`${r.title} ${r.section ?? ''} ${r.text}`)) (termPages.get(w.toLowerCase()) ?? termPages.set(w.toLowerCase(), new Set()).get(w.toLowerCase())!).add(r.path);
  const unique = (m: Map<string, Set<string>>, k: string) => m.get(k)?.size === 1;

  const titleRecs = [...new Map(records.map((r) => [r.path, r])).values()]
    .filter((r) => unique(titles, norm(r.title)) && norm(r.title).length >= 4)
    .sort((a, b) => a.path.localeCompare(b.path));
  const headingRecs = records.filter((r) => r.section && unique(headings, norm(r.section)) && words(r.section).length >= 2);
  const termRecs: Array<{ r: SearchRecord; w: string }> = [];
  for (const r of records) {
    for (const w of new Set(words(r.text))) if (/^\p{L}{6,}$/u.test(w) && unique(termPages, w.toLowerCase())) termRecs.push({ r, w });
  }
  const out: Case[] = [];
  for (const r of sample(titleRecs, PER_KIND)) out.push({ kind: 'title', q: r.title, want: r.path });
  for (const r of sample(headingRecs, PER_KIND)) out.push({ kind: 'heading', q: r.section!, want: r.path });
  for (const { r, w } of sample(termRecs, PER_KIND)) out.push({ kind: 'term', q: w, want: r.path });
  const typoSources = [
    ...sample(titleRecs, PER_KIND * 2).map((r) => ({ r, text: r.title })),
    ...sample(termRecs, PER_KIND).map(({ r, w }) => ({ r, text: w })),
  ];
  let typos = 0;
  for (const { r, text } of typoSources) {
    const long = words(text).filter((w) => /^\p{L}{5,}$/u.test(w)).sort((a, b) => b.length - a.length)[0];
    if (!long || typos >= PER_KIND) continue;
    out.push({ kind: 'typo', q: text.replace(long, typoOf(long.toLowerCase(), rnd)), want: r.path });
    typos++;
  }
  for (const r of sample(headingRecs.filter((h) => words(h.text).some((w) => /^\p{L}{6,}$/u.test(w))), PER_KIND)) {
    const hw = words(r.section!).filter((w) => w.length >= 4);
    const tw = words(r.text).filter((w) => /^\p{L}{6,}$/u.test(w));
    if (hw.length && tw.length) out.push({ kind: 'two words', q: `${hw[Math.floor(rnd() * hw.length)]} ${tw[Math.floor(rnd() * tw.length)]}`, want: r.path });
  }
  return out;
}

function score(index: SearchIndex, list: Case[]): { found: number; misses: string[] } {
  let found = 0;
  const misses: string[] = [];
  for (const c of list) {
    const hits = index.search({ q: c.q, limit: 10 });
    if (hits.slice(0, 3).some((h) => h.path === c.want)) found++;
    else {
      const rank = hits.findIndex((h) => h.path === c.want);
      misses.push(`  [${c.kind}] "${c.q}" -> want ${c.want} (${rank < 0 ? 'not in top 10' : `hit ${rank + 1}`}); got ${hits.slice(0, 3).map((h) => `${h.path}${h.anchor ? `#${h.anchor}` : ''}`).join(', ') || 'nothing'}`);
    }
  }
  return { found, misses };
}

async function main(): Promise<void> {
  let total = 0;
  let found = 0;
  for (const [i, name] of CORPORA.entries()) {
    const corpus = await builtCorpusRecords(name);
    const built = buildSearchIndex(corpus.records);
    const index = await loadSearchIndex(async (file) => Buffer.from(built.files[file]!, 'utf8'));
    const list = cases(corpus.records, 1000 + i);
    const r = score(index, list);
    total += list.length;
    found += r.found;
    const byKind = [...new Set(list.map((c) => c.kind))].map((k) => `${k} ${list.filter((c) => c.kind === k).length}`).join(', ');
    console.log(`\n${name}: ${corpus.pages} pages; ${list.length} queries (${byKind}); right page in the top 3: ${r.found}/${list.length} = ${((100 * r.found) / list.length).toFixed(1)}%`);
    if (r.misses.length) console.log(`misses:\n${r.misses.join('\n')}`);
  }
  const share = (100 * found) / total;
  console.log(`\noverall: ${found}/${total} = ${share.toFixed(1)}% in the top 3 (goal 95%) ${share >= 95 ? 'MET' : 'NOT MET'}`);
  await closeBuilders();
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? (err.stack ?? err.message) : err);
  process.exitCode = 1;
});
