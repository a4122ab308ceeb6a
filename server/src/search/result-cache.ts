/**
 * Recent answers of each loaded search index, so a query asked again (search-as-you-type sends the
 * same prefixes for every reader; popular questions repeat) is answered without querying the index.
 * Keyed by the index object itself (a new deployment or reindex generation is a new index, so an
 * answer never outlives the index it came from) and by what shapes the answer: the text, the
 * limit and the reader's reach (`readerKey`: which gated records they may see). The site's access
 * rules are applied to cached hits on every request (search-service.ts), never cached.
 * One per app, on the context (`ctx.search.results`).
 */
import { LRUCache } from 'lru-cache';
import type { SearchHit, SearchIndex } from '@quire/shared/search/types';

/** Answers kept per index (most recently used). */
export const RESULTS_PER_INDEX = 1_000;

/** See the module comment. */
export class SearchResultCache {
  private readonly byIndex = new WeakMap<SearchIndex, LRUCache<string, readonly SearchHit[]>>();

  /**
   * The hits of `index` for a query, from memory when the same query was answered for the same
   * reach, else from `index.search` (then kept).
   * @param readerKey identifies the reader's `canRead` (e.g. their sorted tags); equal keys must mean equal verdicts
   */
  search(index: SearchIndex, q: string, limit: number, readerKey: string, run: () => SearchHit[]): readonly SearchHit[] {
    let answers = this.byIndex.get(index);
    if (!answers) this.byIndex.set(index, (answers = new LRUCache({ max: RESULTS_PER_INDEX })));
    const key = `${limit}\n${readerKey}\n${q}`;
    const known = answers.get(key);
    if (known) return known;
    const hits = run();
    answers.set(key, hits);
    return hits;
  }
}
