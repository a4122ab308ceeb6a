/**
 * The search indexes a server process holds in memory (a saved index is loaded,
 * never rebuilt, and loaded lazily, so a server with 1,000 projects does not hold 1,000 indexes).
 *
 * - An index is loaded on the first query of its deployment (and reindex generation) through the
 *   loader (`search/deployment-index.ts` `loadDeploymentSearchIndex`); concurrent first queries share
 *   one load.
 * - Entries are kept in an LRU bounded by entry count and by estimated bytes (the bytes the loader
 *   read times {@link MEMORY_FACTOR}), so the least recently searched deployments are dropped first.
 * - The key is the deployment's store key (`DeploymentFiles.key`, unique per deployment) plus the
 *   reindex generation (the job id, or none for the index the build wrote): a new deployment or a
 *   swapped-in reindex is a new key, so the old entry keeps answering until the new one has loaded,
 *   and is then simply no longer asked for.
 * - A deployment without an index is remembered as `null` (a small entry), so it costs no store
 *   read per query. A load that fails is not remembered: the next query tries again.
 *
 * One per app, on the context (`ctx.search.indexes`, created by `createAppContext`).
 */
import { LRUCache } from 'lru-cache';
import type { SearchIndex } from '@quire/shared/search/types';
import type { DeploymentFiles, StoredFile } from '../storage/deployment-store';

/** Loads the saved index of a deployment; null when it has none. */
export type SearchIndexLoader = (files: DeploymentFiles) => Promise<SearchIndex | null>;

/** Memory of a loaded index estimated as this many times the bytes read from its files. */
export const MEMORY_FACTOR = 3;
/** Bytes an entry counts at least (a `null` entry, bookkeeping). */
const MIN_ENTRY_BYTES = 1024;

/** Limits of a {@link SearchIndexCache}. */
export interface SearchIndexCacheOptions {
  /** estimated bytes of every loaded index together (default 256 MiB) */
  maxBytes?: number;
  /** indexes held at most (default 500) */
  maxEntries?: number;
}

interface Entry {
  index: SearchIndex | null;
}

/** See the module comment. */
export class SearchIndexCache {
  private readonly entries: LRUCache<string, Entry>;
  private readonly loading = new Map<string, Promise<SearchIndex | null>>();

  constructor(
    private readonly load: SearchIndexLoader,
    options: SearchIndexCacheOptions = {},
  ) {
    this.entries = new LRUCache<string, Entry>({
      max: options.maxEntries ?? 500,
      maxSize: options.maxBytes ?? 256 * 1024 * 1024,
      sizeCalculation: () => MIN_ENTRY_BYTES, // replaced per entry through `size` in set()
    });
  }

  /**
   * The index of `files` (a deployment, or a reindex generation's view of it: `generationFiles`),
   * from memory, else loaded now (shared with a load already under way).
   * @returns the index, or null when the deployment has none
   * @throws Error when the store cannot be read (nothing is remembered then)
   */
  get(files: DeploymentFiles): SearchIndex | null | Promise<SearchIndex | null> {
    const key = files.key;
    const hit = this.entries.get(key);
    if (hit) return hit.index;
    const pending = this.loading.get(key);
    if (pending) return pending;
    let bytes = 0;
    const counting: DeploymentFiles = {
      key,
      list: () => files.list(),
      read: async (file: string): Promise<StoredFile> => {
        const stored = await files.read(file);
        bytes += stored.body.length;
        return stored;
      },
    };
    const loading = this.load(counting).then(
      (index) => {
        this.loading.delete(key);
        this.entries.set(key, { index }, { size: Math.max(MIN_ENTRY_BYTES, bytes * MEMORY_FACTOR) });
        return index;
      },
      (err: unknown) => {
        this.loading.delete(key);
        throw err;
      },
    );
    this.loading.set(key, loading);
    return loading;
  }

  /** Indexes held and their estimated bytes (for benchmarks and metrics). */
  stats(): { entries: number; bytes: number } {
    return { entries: this.entries.size, bytes: this.entries.calculatedSize };
  }

  /** Drops every entry (tests; a process that must free memory). */
  clear(): void {
    this.entries.clear();
  }
}
