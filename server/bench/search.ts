/**
 * `pnpm bench:search`: the search index on the trigger-dev corpus (a real build)
 * and on the generated 10,000-page corpus (BENCH_SEARCH_PAGES), beside MiniSearch (what VitePress's
 * local search uses, with VitePress's options) on the same records and the same 2,000 queries in
 * the same run: index time, size on disk, heap once loaded, load time, latency p50/p95/p99 (top 10,
 * snippets included for Quire). The engines take turns by blocks of 100 queries, so load on the
 * machine hits both alike. Then the memory of 1,000 small projects' indexes loaded lazily through the
 * server's index cache (search-lazy.ts) and the site endpoint `/_quire/search` under wrk at 50
 * connections (search-http.ts). Goals: p99 <= 5 ms and <= 0.1x MiniSearch's on 10,000 pages;
 * HTTP p99 <= 25 ms. Run with `node --expose-gc` (the root script does) for heap figures.
 * `BENCH_SEARCH_ONLY=http` runs only the HTTP part, `BENCH_SEARCH_ONLY=generated` only the 10,000-page corpus
 * (no build: the quickest figure of the in-process p99 on a loaded machine).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import MiniSearch from 'minisearch';
import { buildSearchIndex, loadSearchIndex } from '@quire/shared/search/index';
import type { SearchRecord } from '@quire/shared/search/types';
import { builtCorpusRecords, closeBuilders, generatedRecords, type CorpusRecords } from './search-corpus';
import { httpLatency } from './search-http';
import { lazyProjects } from './search-lazy';
import { latencyQueries, quantile } from './search-queries';

const PAGES = Number(process.env.BENCH_SEARCH_PAGES ?? 10_000);
const QUERIES = 2000;

/** VitePress's MiniSearch setup (its local search): sections as documents, boosted title fields, fuzzy 0.2 and prefixes. */
const MINI_OPTIONS = {
  fields: ['title', 'titles', 'text'],
  storeFields: ['title', 'titles', 'path'],
  searchOptions: { fuzzy: 0.2, prefix: true, boost: { title: 4, text: 2, titles: 1 } },
};

const gc = (globalThis as { gc?: () => void }).gc;
const heapMb = (): number | undefined => {
  if (!gc) return undefined;
  gc();
  gc();
  return process.memoryUsage().heapUsed / 1e6;
};
const cpuMs = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};
const mb = (bytes: number) => `${(bytes / 1e6).toFixed(1)} MB`;
const ms = (x: number) => `${x < 10 ? x.toFixed(2) : x.toFixed(0)} ms`;

interface EngineFigures {
  indexMs: number;
  indexCpuMs: number;
  diskBytes: number;
  diskNote: string;
  loadMs: number;
  heap?: number;
  search: (q: string) => unknown;
}

async function quire(records: SearchRecord[], dir: string): Promise<EngineFigures> {
  let t = performance.now();
  const c = cpuMs();
  const built = buildSearchIndex(records);
  const indexMs = performance.now() - t;
  const indexCpuMs = cpuMs() - c;
  let diskBytes = 0;
  const sizes: string[] = [];
  for (const [name, text] of Object.entries(built.files)) {
    fs.writeFileSync(path.join(dir, name), text);
    diskBytes += Buffer.byteLength(text);
    sizes.push(`${name} ${mb(Buffer.byteLength(text))}`);
  }
  const before = heapMb();
  t = performance.now();
  const index = await loadSearchIndex((name) => fs.promises.readFile(path.join(dir, name)));
  const loadMs = performance.now() - t;
  const after = heapMb();
  return { indexMs, indexCpuMs, diskBytes, diskNote: sizes.join(', '), loadMs, ...(before !== undefined ? { heap: after! - before } : {}), search: (q) => index.search({ q, limit: 10 }) };
}

async function mini(records: SearchRecord[], dir: string): Promise<EngineFigures> {
  const docs = records.map((r, id) => ({ id, path: r.path, title: r.section ?? r.title, titles: r.section ? [r.title] : [], text: r.text }));
  let t = performance.now();
  const c = cpuMs();
  const built = new MiniSearch(MINI_OPTIONS);
  built.addAll(docs);
  const json = JSON.stringify(built);
  const indexMs = performance.now() - t;
  const indexCpuMs = cpuMs() - c;
  fs.writeFileSync(path.join(dir, 'minisearch.json'), json);
  const diskBytes = Buffer.byteLength(json);
  const before = heapMb();
  t = performance.now();
  const index = MiniSearch.loadJSON(fs.readFileSync(path.join(dir, 'minisearch.json'), 'utf8'), MINI_OPTIONS);
  const loadMs = performance.now() - t;
  const after = heapMb();
  return { indexMs, indexCpuMs, diskBytes, diskNote: 'JSON (stored fields only; no text for snippets)', loadMs, ...(before !== undefined ? { heap: after! - before } : {}), search: (q) => index.search(q).slice(0, 10) };
}

async function measure(corpus: CorpusRecords): Promise<void> {
  console.log(`\n== ${corpus.name}: ${corpus.pages} pages, ${corpus.records.length} sections ==`);
  if (corpus.indexStep) console.log(`in its build: ${corpus.indexStep}`);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-bench-idx-'));
  try {
    const queries = latencyQueries(corpus.records, QUERIES);
    // One engine at a time (built, loaded, queried, then let go): the other's heap and garbage
    // would otherwise land in its figures. Wall time per query, and the process's cpu time (what
    // the query cost when other work shares the machine).
    const timed = (e: EngineFigures) => {
      for (const x of queries.slice(0, 200)) e.search(x); // warm-up
      gc?.();
      const wall: number[] = [];
      const cpu: number[] = [];
      for (const x of queries) {
        const c = cpuMs();
        const t = performance.now();
        e.search(x);
        wall.push(performance.now() - t);
        cpu.push(cpuMs() - c);
      }
      return { wall: wall.sort((a, b) => a - b), cpu: cpu.sort((a, b) => a - b) };
    };
    let engine: EngineFigures | undefined = await quire(corpus.records, dir);
    const q = { ...engine, ...timed(engine) };
    q.search = () => undefined;
    engine = await mini(corpus.records, dir);
    const m = { ...engine, ...timed(engine) };
    m.search = () => undefined;
    engine = undefined;
    const lat = { q: q.wall, qc: q.cpu, m: m.wall, mc: m.cpu };
    const pcts = (l: number[]) => `p50 ${ms(quantile(l, 0.5))}  p95 ${ms(quantile(l, 0.95))}  p99 ${ms(quantile(l, 0.99))}  max ${ms(l[l.length - 1]!)}`;
    const row = (label: string, e: EngineFigures, wall: number[], cpu: number[]) =>
      console.log(
        `${label.padEnd(12)} index ${ms(e.indexMs)} (cpu ${ms(e.indexCpuMs)})  disk ${mb(e.diskBytes)} [${e.diskNote}]  load ${ms(e.loadMs)}  heap ${e.heap === undefined ? 'n/a (run with --expose-gc)' : `${e.heap.toFixed(1)} MB`}\n${''.padEnd(12)} latency ${pcts(wall)}\n${''.padEnd(12)} cpu/query ${pcts(cpu)}`,
      );
    row('quire', q, lat.q, lat.qc);
    row('minisearch', m, lat.m, lat.mc);
    const ratio = quantile(lat.q, 0.99) / quantile(lat.m, 0.99);
    const cpuRatio = quantile(lat.qc, 0.99) / quantile(lat.mc, 0.99);
    console.log(`p99 quire/minisearch: wall ${ratio.toFixed(3)}x, cpu ${cpuRatio.toFixed(3)}x (goal <= 0.1x); quire p99 wall ${ms(quantile(lat.q, 0.99))}, cpu ${ms(quantile(lat.qc, 0.99))} (goal <= 5 ms): wall ${quantile(lat.q, 0.99) <= 5 && ratio <= 0.1 ? 'MET' : 'NOT MET'}`);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  console.log(`bench:search (${os.cpus().length} cores, load average ${os.loadavg().map((x) => x.toFixed(1)).join(' ')}; wall times, and cpu times of the index builds)`);
  if (process.env.BENCH_SEARCH_ONLY === 'generated') return measure(generatedRecords(PAGES));
  const trigger = await builtCorpusRecords('trigger-dev');
  if (process.env.BENCH_SEARCH_ONLY === 'http') {
    await closeBuilders();
    return httpLatency(trigger.records);
  }
  await measure(trigger);
  const generated = generatedRecords(PAGES);
  await measure(generated);
  await lazyProjects(generated.records, heapMb);
  await closeBuilders();
  await httpLatency(trigger.records);
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? (err.stack ?? err.message) : err);
  process.exitCode = 1;
});
