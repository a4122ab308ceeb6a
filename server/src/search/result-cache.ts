/**
 * Recent answers of the loaded search indexes, so a query asked again (search-as-you-type sends the
 * same prefixes for every reader; popular questions repeat) is answered without querying the index.
 * An answer is keyed by its index object (a new deployment or reindex generation is a new index, so
 * an answer never outlives the index it came from), and by what shapes the answer: the text (with
 * the language division, search-service.ts), the limit and the reader's reach (`readerKey`: which
 * gated records they may see). The site's access rules are applied to cached hits on every request
 * (search-service.ts), never cached.
 *
 * One least-recently-used cache for every index together, bounded by the estimated bytes of the
 * answers ({@link RESULT_CACHE_BYTES}), not by a count per index: a busy site keeps as many of its
 * recent queries as fit (the 2,000 distinct queries of `bench:search` cycled through a cache of 1,000
 * per index never hit), and a thousand quiet sites cannot hold a thousand full caches.
 * One per app, on the context (`ctx.search.results`).
 */
import { LRUCache } from 'lru-cache';
import type { SearchHit, SearchIndex } from '@quire/shared/search/types';

/** Estimated bytes of the answers kept for all indexes together (default of {@link SearchResultCache}). */
export const RESULT_CACHE_BYTES = 64 * 1024 * 1024;
/** Bytes an answer counts besides its strings (arrays, objects, the key). */
const ANSWER_OVERHEAD = 200;
/** Bytes a hit counts besides its strings. */
const HIT_OVERHEAD = 100;

/** Estimated bytes of an answer held in memory (UTF-16 strings: 2 bytes a character). */
function answerBytes(key: string, hits: readonly SearchHit[]): number {
  let bytes = ANSWER_OVERHEAD + key.length * 2;
  for (const h of hits) {
    const chars = h.path.length + h.title.length + h.snippet.length + (h.section?.length ?? 0) + (h.anchor?.length ?? 0) + (h.text?.length ?? 0);
    bytes += HIT_OVERHEAD + 2 * chars;
  }
  return bytes;
}

/** See the module comment. */
export class SearchResultCache {
  private readonly answers: LRUCache<string, readonly SearchHit[]>;
  /** a number per index object, for the keys (ids are never reused: a dropped index's answers age out) */
  private readonly ids = new WeakMap<SearchIndex, number>();
  private nextId = 0;

  /** @param maxBytes estimated bytes of all answers kept (> 0; default {@link RESULT_CACHE_BYTES}) */
  constructor(maxBytes = RESULT_CACHE_BYTES) {
    this.answers = new LRUCache({ maxSize: maxBytes, sizeCalculation: (hits, key) => answerBytes(key, hits) });
  }

  /**
   * The hits of `index` for a query, from memory when the same query was answered for the same
   * reach, else from `index.search` (then kept).
   * @param q the query text as the cache tells queries apart (search-service.ts puts the language division in front)
   * @param readerKey identifies the reader's `canRead` (e.g. their sorted tags); equal keys must mean equal verdicts
   */
  search(index: SearchIndex, q: string, limit: number, readerKey: string, run: () => SearchHit[]): readonly SearchHit[] {
    let id = this.ids.get(index);
    if (id === undefined) this.ids.set(index, (id = this.nextId++));
    const key = `${id}\n${limit}\n${readerKey}\n${q}`;
    const known = this.answers.get(key);
    if (known) return known;
    const hits = run();
    this.answers.set(key, hits);
    return hits;
  }

  /** Answers held and their estimated bytes (for benchmarks and metrics). */
  stats(): { answers: number; bytes: number } {
    return { answers: this.answers.size, bytes: this.answers.calculatedSize };
  }
}
