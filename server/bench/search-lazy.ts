/**
 * bench:search, part 2: 1,000 small projects (20 pages each, taken from the generated corpus), each
 * with its saved index in a deployment directory; one query each through the server's index cache
 * (search/index-cache.ts with search/deployment-index.ts's loader and its default bounds), then the
 * heap it holds; and, for comparison, the heap of all 1,000 indexes loaded at once.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { buildSearchIndex, SEARCH_INDEX_DIR } from '@quire/shared/search/index';
import type { SearchIndex, SearchRecord } from '@quire/shared/search/types';
import { loadDeploymentSearchIndex } from '../src/search/deployment-index';
import { SearchIndexCache } from '../src/search/index-cache';
import { localDeploymentFiles } from '../src/storage/local-store';

const PROJECTS = 1000;
const PAGES_EACH = 20;

/** Runs the measurement (see the module comment); `heapMb` collects garbage and reads the heap (undefined without --expose-gc). */
export async function lazyProjects(records: readonly SearchRecord[], heapMb: () => number | undefined): Promise<void> {
  console.log(`\n== ${PROJECTS} small projects (${PAGES_EACH} pages each), loaded lazily ==`);
  const byPage = new Map<string, SearchRecord[]>();
  for (const r of records) (byPage.get(r.path) ?? byPage.set(r.path, []).get(r.path)!).push(r);
  const pages = [...byPage.values()];
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-bench-lazy-'));
  try {
    const dirs: string[] = [];
    let disk = 0;
    const t0 = performance.now();
    for (let i = 0; i < PROJECTS; i++) {
      const mine: SearchRecord[] = [];
      for (let k = 0; k < PAGES_EACH; k++) mine.push(...pages[(i * 7 + k) % pages.length]!);
      const built = buildSearchIndex(mine);
      const dir = path.join(root, `p${i}`);
      fs.mkdirSync(path.join(dir, SEARCH_INDEX_DIR), { recursive: true });
      for (const [name, text] of Object.entries(built.files)) {
        fs.writeFileSync(path.join(dir, SEARCH_INDEX_DIR, name), text);
        disk += Buffer.byteLength(text);
      }
      dirs.push(dir);
    }
    console.log(`built and saved ${PROJECTS} indexes in ${Math.round(performance.now() - t0)} ms, ${(disk / 1e6).toFixed(1)} MB on disk (${(disk / PROJECTS / 1024).toFixed(0)} KB each)`);
    const words = ['config', 'server', 'webhook', 'deploy', 'cache'];
    const before = heapMb();
    const cache = new SearchIndexCache((files) => loadDeploymentSearchIndex(files));
    const t1 = performance.now();
    for (let i = 0; i < PROJECTS; i++) {
      const index = await cache.get(localDeploymentFiles(dirs[i]!));
      index?.search({ q: words[i % words.length]!, limit: 10 });
    }
    const lazyMs = performance.now() - t1;
    const lazy = heapMb();
    const stats = cache.stats();
    console.log(`through the index cache (default bounds): ${stats.entries} indexes held, ${(stats.bytes / 1e6).toFixed(1)} MB estimated by the cache; ${Math.round(lazyMs)} ms for the 1,000 first queries (loads included)`);
    console.log(`heap held after one query each: ${lazy === undefined || before === undefined ? 'n/a (run with --expose-gc)' : `${(lazy - before).toFixed(1)} MB`}`);
    cache.clear();
    const all: SearchIndex[] = [];
    for (const dir of dirs) all.push((await loadDeploymentSearchIndex(localDeploymentFiles(dir)))!);
    const held = heapMb();
    console.log(`for comparison, all ${all.length} indexes loaded at once: ${held === undefined || before === undefined ? 'n/a' : `${(held - before).toFixed(1)} MB of heap`}`);
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
}
