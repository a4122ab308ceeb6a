/**
 * `records.json` of a deployment's search index (under {@link SEARCH_INDEX_DIR}): every indexed
 * page's records, grouped by page, with the hash of the page's Markdown they were made from. The
 * loaded index shows hits and snippets from it; the next incremental build takes the records of
 * the pages it did not render again from it, and a reindex the records of pages whose manifest hash
 * is unchanged (server/src/search/deployment-index.ts). It holds gated pages' text: never served.
 */
import type { SearchRecord } from './types';

/** Folder of a deployment holding its search index (site hosting never serves it). */
export const SEARCH_INDEX_DIR = '_quire/search';

/** The records file's name inside {@link SEARCH_INDEX_DIR}. */
export const RECORDS_FILE = 'records.json';

/** Version of the files' layout; a loader refuses any other. */
export const SEARCH_INDEX_FORMAT = 1;

/** One section of a page in the records file (a {@link SearchRecord} without the page's fields). */
export interface StoredSection {
  section?: string;
  anchor?: string;
  depth?: 2 | 3;
  text: string;
}

/** One page in the records file. */
export interface StoredPage {
  path: string;
  title: string;
  /** sha256 hex of the page's `.md` text the sections were made from (manifest.json `hash`); absent when unknown */
  hash?: string;
  audience?: string[];
  language?: string;
  sections: StoredSection[];
}

/** The records file. */
export interface StoredRecords {
  format: typeof SEARCH_INDEX_FORMAT;
  /** the id of the index built from exactly these records (index.ts checks they belong together) */
  indexId: string;
  pages: StoredPage[];
}

/**
 * Records grouped by page path, pages in the order their first record comes, sections in record
 * order; a page's title, audience and language are its first record's.
 * @param hashes the `.md` hash of each page by path (kept for incremental builds and reindexing)
 */
export function groupRecords(records: readonly SearchRecord[], hashes?: ReadonlyMap<string, string>): StoredPage[] {
  const byPath = new Map<string, StoredPage>();
  for (const r of records) {
    let page = byPath.get(r.path);
    if (!page) {
      const hash = hashes?.get(r.path);
      page = {
        path: r.path,
        title: r.title,
        ...(hash ? { hash } : {}),
        ...(r.audience?.length ? { audience: [...r.audience] } : {}),
        ...(r.language ? { language: r.language } : {}),
        sections: [],
      };
      byPath.set(r.path, page);
    }
    page.sections.push({
      ...(r.section !== undefined ? { section: r.section } : {}),
      ...(r.anchor !== undefined ? { anchor: r.anchor } : {}),
      ...(r.depth !== undefined ? { depth: r.depth } : {}),
      text: r.text,
    });
  }
  return [...byPath.values()];
}

/** A stored page's records. */
export function pageRecords(page: StoredPage): SearchRecord[] {
  return page.sections.map((s) => ({
    path: page.path,
    title: page.title,
    ...(s.section !== undefined ? { section: s.section } : {}),
    ...(s.anchor !== undefined ? { anchor: s.anchor } : {}),
    ...(s.depth !== undefined ? { depth: s.depth } : {}),
    text: s.text,
    ...(page.audience?.length ? { audience: [...page.audience] } : {}),
    ...(page.language ? { language: page.language } : {}),
  }));
}

/**
 * Reads a records file.
 * @throws Error when it is not JSON, of another format, or not shaped as {@link StoredRecords}
 */
export function parseRecordsFile(text: string): StoredRecords {
  const data = JSON.parse(text) as Partial<StoredRecords> | null;
  if (!data || data.format !== SEARCH_INDEX_FORMAT || typeof data.indexId !== 'string' || !Array.isArray(data.pages)) {
    throw new Error(`search records: not a records file of format ${SEARCH_INDEX_FORMAT}`);
  }
  for (const p of data.pages) {
    if (!p || typeof p.path !== 'string' || typeof p.title !== 'string' || !Array.isArray(p.sections) || p.sections.some((s) => !s || typeof s.text !== 'string')) {
      throw new Error('search records: a page entry is malformed');
    }
  }
  return data as StoredRecords;
}
