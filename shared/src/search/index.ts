/**
 * A deployment's search index: built once by the builder (or a reindex job) from the pages'
 * records, saved as files under {@link SEARCH_INDEX_DIR}, and loaded as saved (flexsearch import,
 * never rebuilt) by the server when a query first needs it.
 *
 * Files (names relative to {@link SEARCH_INDEX_DIR}):
 * - `records.json` (records-file.ts): the pages' sections with their text, for hits and snippets,
 *   and the pages' `.md` hashes for the next build;
 * - `index.txt`: line 1 a JSON header (`format`, `indexId`, counts), line 2 the vocabulary
 *   (`{"terms": [...], "df": [...]}`, sorted terms and their record counts), then one line per
 *   flexsearch export chunk: `<field> <key> <data>` (field `title`, `section` or `body`; data is
 *   flexsearch's JSON, which holds no line break).
 * Both name the same `indexId` (a hash of the records file's pages): a loader refuses a mixed pair.
 */
import { Index } from 'flexsearch';
import { SearchEngine, type FieldIndexes } from './engine';
import { DELTA_FILE, parseDeltaFile } from './delta';
import { indexPage, TermCounts, type Field } from './page-terms';
import { groupRecords, parseRecordsFile, RECORDS_FILE, SEARCH_INDEX_FORMAT, type StoredPage } from './records-file';
import type { SearchIndex, SearchRecord } from './types';
import { Vocabulary } from './vocabulary';

export { RECORDS_FILE, SEARCH_INDEX_DIR, SEARCH_INDEX_FORMAT } from './records-file';
export { DELTA_FILE } from './delta';

/** The term index file's name inside {@link SEARCH_INDEX_DIR}. */
export const TERMS_FILE = 'index.txt';

/** flexsearch's position slots per field (its `resolution`): a term's records ranked by where it comes. */
const RESOLUTION = 9;
const FIELDS: readonly Field[] = ['title', 'section', 'body'];

/** A built index, as files to store. */
export interface SerializedSearchIndex {
  /** file name (relative to {@link SEARCH_INDEX_DIR}) → content (UTF-8 text) */
  files: Record<string, string>;
  /** records (sections) indexed */
  records: number;
  /** pages indexed */
  pages: number;
}

/** Options of {@link buildSearchIndex}. */
export interface BuildSearchIndexOptions {
  /** sha256 hex of each page's `.md` text, by page path (stored for incremental builds and reindexing) */
  hashes?: ReadonlyMap<string, string>;
}

/**
 * Builds the index of a deployment's records (pages' sections: records.ts; hidden pages left out
 * by the caller; gated pages in, with their `audience`).
 * @returns the files to store under {@link SEARCH_INDEX_DIR}
 */
export function buildSearchIndex(records: readonly SearchRecord[], options: BuildSearchIndexOptions = {}): SerializedSearchIndex {
  const steps = buildSteps(records, options);
  for (;;) {
    const next = steps.next();
    if (next.done) return next.value;
  }
}

/**
 * {@link buildSearchIndex}, giving the event loop a turn every few hundred records, so a server
 * building a large site's index keeps answering.
 */
export async function buildSearchIndexAsync(records: readonly SearchRecord[], options: BuildSearchIndexOptions = {}): Promise<SerializedSearchIndex> {
  const steps = buildSteps(records, options);
  for (;;) {
    const next = steps.next();
    if (next.done) return next.value;
    await new Promise((resolve) => (globalThis.setImmediate ?? setTimeout)(resolve));
  }
}

/** Records between two turns of the event loop in {@link buildSearchIndexAsync}. */
const RECORDS_PER_TURN = 400;

function* buildSteps(records: readonly SearchRecord[], options: BuildSearchIndexOptions): Generator<void, SerializedSearchIndex> {
  const pages = groupRecords(records, options.hashes);
  // The index takes terms already cut (tokens.ts): `prepared` is what the next add indexes.
  let prepared: string[] = [];
  const make = () => new Index({ tokenize: 'strict', resolution: RESOLUTION, encode: () => prepared });
  const fields: FieldIndexes = { title: make(), section: make(), body: make() };
  const add = (field: Field, id: number, terms: string[]) => {
    prepared = terms;
    fields[field].add(id, ' ');
  };
  const counts = new TermCounts();
  let r = 0;
  let turn = 0;
  for (let p = 0; p < pages.length; p++) {
    r = indexPage(pages[p]!, p, r, counts, add);
    if (r - turn >= RECORDS_PER_TURN) {
      turn = r;
      yield;
    }
  }
  prepared = [];
  yield;
  const vocabulary = counts.vocabulary();
  const pagesJson = JSON.stringify(pages);
  const indexId = textHash(pagesJson);
  const lines = [
    JSON.stringify({ format: SEARCH_INDEX_FORMAT, indexId, pages: pages.length, records: r }),
    JSON.stringify({ terms: vocabulary.terms, df: vocabulary.df }),
  ];
  for (const field of FIELDS) {
    fields[field].export((key: string, data: string) => {
      if (data !== undefined && data !== null) lines.push(`${field} ${key} ${data}`);
    });
  }
  return {
    files: {
      [RECORDS_FILE]: `{"format":${SEARCH_INDEX_FORMAT},"indexId":${JSON.stringify(indexId)},"pages":${pagesJson}}`,
      [TERMS_FILE]: `${lines.join('\n')}\n`,
    },
    records: r,
    pages: pages.length,
  };
}

/**
 * A 64-bit FNV-1a hash of `text`'s UTF-16 code units, as 16 hex digits: the id tying the two files of
 * one build together (not a security measure: the files are the server's own).
 */
function textHash(text: string): string {
  let a = 0x811c9dc5;
  let b = 0x01000193 ^ text.length;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193);
    b = Math.imul(b ^ c, 0x5bd1e995);
  }
  return (a >>> 0).toString(16).padStart(8, '0') + (b >>> 0).toString(16).padStart(8, '0');
}

/** Options of {@link loadSearchIndex}. */
export interface LoadSearchIndexOptions {
  /** the folder also holds a delta ({@link DELTA_FILE}, delta.ts) to lay over the saved index */
  delta?: boolean;
}

/**
 * Loads a saved index (flexsearch import: nothing is re-indexed), with its delta laid over it when
 * `options.delta` says there is one: the delta's pages are indexed into the loaded field indexes
 * after the base's records, the base pages it removes are never answered, and the vocabulary's
 * counts are those of the current pages.
 * @param read the bytes of a file of {@link SEARCH_INDEX_DIR} by name; rejects when it is missing
 * @throws Error when the files are missing, of another format, damaged, or not of one build (a delta of another base too)
 */
export async function loadSearchIndex(read: (name: string) => Promise<Buffer>, options: LoadSearchIndexOptions = {}): Promise<SearchIndex> {
  const [recordsBytes, termsBytes, deltaBytes] = await Promise.all([read(RECORDS_FILE), read(TERMS_FILE), options.delta ? read(DELTA_FILE) : undefined]);
  const stored = parseRecordsFile(recordsBytes.toString('utf8'));
  const text = termsBytes.toString('utf8');
  const lines = text.split('\n');
  const header = JSON.parse(lines[0] ?? '') as { format?: unknown; indexId?: unknown; records?: unknown };
  if (header.format !== SEARCH_INDEX_FORMAT) throw new Error(`search index: not an index of format ${SEARCH_INDEX_FORMAT}`);
  if (header.indexId !== stored.indexId) throw new Error('search index: the records and the term index are of different builds');
  const vocab = JSON.parse(lines[1] ?? '') as { terms?: unknown; df?: unknown };
  if (!Array.isArray(vocab.terms) || !Array.isArray(vocab.df) || vocab.terms.length !== vocab.df.length) throw new Error('search index: the vocabulary is damaged');
  // Queries hand the index single terms already cut: its encoder takes them as they are; a delta's adds hand it `prepared`.
  let prepared: string[] | undefined;
  const make = () => new Index({ tokenize: 'strict', resolution: RESOLUTION, encode: (term: string) => prepared ?? [term] });
  const fields: FieldIndexes = { title: make(), section: make(), body: make() };
  for (let i = 2; i < lines.length; i++) {
    const line = lines[i]!;
    if (!line) continue;
    const a = line.indexOf(' ');
    const b = line.indexOf(' ', a + 1);
    const field = line.slice(0, a) as Field;
    if (a < 0 || b < 0 || !FIELDS.includes(field)) throw new Error('search index: a line of the term index is damaged');
    fields[field].import(line.slice(a + 1, b), line.slice(b + 1));
  }
  let pages = stored.pages as StoredPage[];
  let vocabulary = new Vocabulary(vocab.terms as string[], vocab.df as number[]);
  const baseRecords = pages.reduce((n, p) => n + p.sections.length, 0);
  if (header.records !== baseRecords) throw new Error('search index: the record count does not match the records file');
  const removed = new Set<number>();
  if (deltaBytes) {
    const delta = parseDeltaFile(deltaBytes.toString('utf8'));
    if (delta.baseIndexId !== stored.indexId) throw new Error('search index: the delta is of another index');
    const gone = new Set(delta.removed);
    const counts = new TermCounts(vocabulary);
    let r = 0;
    pages.forEach((page, p) => {
      if (gone.has(page.path)) {
        removed.add(p);
        indexPage(page, p, r, counts, undefined, -1);
      }
      r += page.sections.length;
    });
    pages = [...pages];
    for (const page of delta.pages) {
      r = indexPage(page, pages.length, r, counts, (field, id, terms) => {
        prepared = terms;
        fields[field].add(id, ' ');
        prepared = undefined;
      });
      pages.push(page);
    }
    vocabulary = counts.vocabulary();
  }
  return new SearchEngine({
    pages,
    fields,
    vocabulary,
    bytes: recordsBytes.length + termsBytes.length + (deltaBytes?.length ?? 0),
    ...(removed.size ? { removed } : {}),
  });
}
