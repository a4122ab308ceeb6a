/**
 * What search keeps in one server process (on the context as `ctx.search`, made by
 * `createAppContext`): the loaded indexes (an LRU, search/index-cache.ts), the newest reindex of
 * each project (search/generations.ts), the versions production deployments were built with
 * (search/search-target.ts), the content-gap writes under way (services/content-gaps.ts) and recent
 * answers of each index (search/result-cache.ts).
 */
import { LRUCache } from 'lru-cache';
import type { AppContext } from '../context';
import { ContentGapRecorder } from '../services/content-gaps';
import { loadDeploymentSearchIndex } from './deployment-index';
import { Generations } from './generations';
import { SearchResultCache } from './result-cache';
import { SearchIndexCache, type SearchIndexCacheOptions, type SearchIndexLoader } from './index-cache';

/** Search's share of the app context. */
export interface SearchState {
  /** loaded indexes by deployment and generation */
  indexes: SearchIndexCache;
  /** the newest completed reindex of each project */
  generations: Generations;
  /** the versions a production deployment was built with, by its `Deployment.dir` (search/search-target.ts) */
  versions: LRUCache<string, { defaultLabel: string | null; labels: string[] | null }>;
  /** content-gap writes, settled before the database closes */
  gaps: ContentGapRecorder;
  /** recent answers of the loaded indexes, bounded by bytes for all together (search/result-cache.ts) */
  results: SearchResultCache;
}

/**
 * Builds the search state of an app (nothing loaded yet).
 * @param options index cache limits; `load` replaces the deployment index loader (tests)
 */
export function createSearchState(ctx: Pick<AppContext, 'db' | 'events' | 'log'>, options: SearchIndexCacheOptions & { load?: SearchIndexLoader } = {}): SearchState {
  return {
    indexes: new SearchIndexCache(options.load ?? ((files) => loadDeploymentSearchIndex(files)), options),
    generations: new Generations(ctx),
    versions: new LRUCache({ max: 10_000 }),
    gaps: new ContentGapRecorder(ctx),
    results: new SearchResultCache(),
  };
}
