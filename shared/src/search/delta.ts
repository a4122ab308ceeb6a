/**
 * A search index delta: the pages an incremental build changed, laid over the index of an earlier
 * deployment (its `records.json` and `index.txt`, shared as they are), so a one-page push gets a
 * current index in the same deploy without indexing every page again (index.ts builds, loads and
 * applies it).
 *
 * File `changes.json` (in {@link SEARCH_INDEX_DIR}, beside the base files):
 * `{"format": 1, "baseIndexId": "<indexId of the base records.json>", "removed": [paths], "pages": [StoredPage]}`.
 * The current pages are the base's pages whose path is not in `removed`, then `pages`; `removed`
 * names every base page that changed or left the index (a changed page is both removed and in `pages`).
 * A delta always describes the change from its base: the next incremental build starts from it
 * (carrying its pages, adding its own) rather than stacking a second delta.
 */
import { SEARCH_INDEX_FORMAT, type StoredPage } from './records-file';

/** The delta file's name inside `_quire/search/`. */
export const DELTA_FILE = 'changes.json';

/** The delta file (see the module comment). */
export interface SearchDelta {
  format: typeof SEARCH_INDEX_FORMAT;
  /** `indexId` of the base records file and term index the delta applies to */
  baseIndexId: string;
  /** base pages no longer current (changed or gone), by path */
  removed: string[];
  /** current pages that are not the base's, records included, with their `.md` hash */
  pages: StoredPage[];
}

/** The delta file's text. */
export function serializeDelta(delta: SearchDelta): string {
  return JSON.stringify(delta);
}

/**
 * Reads a delta file.
 * @throws Error when it is not JSON, of another format, or not shaped as {@link SearchDelta}
 */
export function parseDeltaFile(text: string): SearchDelta {
  const data = JSON.parse(text) as Partial<SearchDelta> | null;
  if (!data || data.format !== SEARCH_INDEX_FORMAT || typeof data.baseIndexId !== 'string' || !Array.isArray(data.removed) || !Array.isArray(data.pages)) {
    throw new Error(`search delta: not a delta file of format ${SEARCH_INDEX_FORMAT}`);
  }
  if (data.removed.some((p) => typeof p !== 'string')) throw new Error('search delta: a removed path is malformed');
  for (const p of data.pages) {
    if (!p || typeof p.path !== 'string' || typeof p.title !== 'string' || !Array.isArray(p.sections) || p.sections.some((s) => !s || typeof s.text !== 'string')) {
      throw new Error('search delta: a page entry is malformed');
    }
  }
  return data as SearchDelta;
}

/** The current pages of a base and its delta, by path: the base's not removed, then the delta's. */
export function currentPages(base: readonly StoredPage[], delta: SearchDelta | undefined): Map<string, StoredPage> {
  const out = new Map<string, StoredPage>();
  const removed = new Set(delta?.removed ?? []);
  for (const p of base) if (!removed.has(p.path)) out.set(p.path, p);
  for (const p of delta?.pages ?? []) out.set(p.path, p);
  return out;
}
