/**
 * The build step that gives every deployment its search index (decisions.md section 4): the records of
 * every visible page (hidden pages never; gated pages with their audience, filtered per reader at
 * query time) indexed and saved under `_quire/search/` of the deployment directory
 * (shared/src/search/index.ts). Site hosting never serves that folder (it holds gated pages' text).
 *
 * Incremental builds carry pages without rendering them again: their records come from the
 * previous deployment's records (`records.json` with its delta laid over it) when the page's Markdown
 * hash is the one they were made from, else from the previous deployment's `<path>.md` (the file the
 * carried page reuses). A build that changed few pages writes a delta instead ({@link writeSearchIndexDelta}).
 */
import fs from 'node:fs';
import path from 'node:path';
import { walkPages } from '@quire/shared/docs/nav/index';
import type { NavNode } from '@quire/shared/docs/types';
import { currentPages, DELTA_FILE, parseDeltaFile, serializeDelta } from '@quire/shared/search/delta';
import { buildSearchIndexAsync, SEARCH_INDEX_DIR, TERMS_FILE, type SerializedSearchIndex } from '@quire/shared/search/index';
import { groupRecords, pageRecords, parseRecordsFile, RECORDS_FILE, SEARCH_INDEX_FORMAT, type StoredPage } from '@quire/shared/search/records-file';
import { pageSearchRecords, tocFromMarkdown } from '@quire/shared/search/records';
import type { SearchRecord } from '@quire/shared/search/types';
import { throwIfAborted } from './errors';
import { safeJoin } from './output-files';
import type { PageOutputKeys, SitePage } from './site-writer';

/** A carried page's records could not be found in the previous deployment (the caller builds everything anew). */
export class CarriedRecordsError extends Error {}

/** What {@link writeSearchIndex} needs. */
export interface SearchIndexInput {
  /** the deployment directory being written */
  outDir: string;
  pages: readonly SitePage[];
  /** the site's navigation: a page's language is the `language` division it is listed under */
  nav: NavNode[];
  /** each page's keys as the site writer computed them (its `.md` hash) */
  pageKeys: ReadonlyMap<string, PageOutputKeys>;
  /** the previous deployment's directory (incremental builds: carried pages' records come from it) */
  previousDir?: string;
}

/** What {@link writeSearchIndex} did. */
export interface SearchIndexResult {
  pages: number;
  records: number;
  /** pages whose records came from the previous deployment's records file */
  reused: number;
  /** bytes of the files written */
  bytes: number;
}

/**
 * Builds and writes `_quire/search/` of a deployment (see the module comment).
 * @throws AbortError when `signal` fires; CarriedRecordsError when a carried page's records cannot
 *   be found; Error when the files cannot be written
 */
export async function writeSearchIndex(input: SearchIndexInput, signal?: AbortSignal): Promise<SearchIndexResult> {
  const languages = pageLanguages(input.nav);
  const previous = input.previousDir ? readPreviousRecords(input.previousDir) : new Map<string, StoredPage>();
  const records: SearchRecord[] = [];
  const hashes = new Map<string, string>();
  let reused = 0;
  let pages = 0;
  for (const p of input.pages) {
    if (p.hidden) continue;
    pages++;
    const hash = input.pageKeys.get(p.path)?.markdownHash ?? ('carried' in p.page ? p.page.carried.markdownHash : undefined);
    if (hash) hashes.set(p.path, hash);
    const meta = {
      path: p.path,
      title: p.page.title,
      ...(p.audience?.length ? { audience: p.audience } : {}),
      ...(languages.has(p.path) ? { language: languages.get(p.path)! } : {}),
    };
    if ('markdown' in p.page) {
      records.push(...pageSearchRecords({ ...meta, markdown: p.page.markdown, toc: p.page.toc }));
      continue;
    }
    const before = previous.get(p.path);
    if (before && hash && before.hash === hash) {
      records.push(...pageRecords({ ...meta, sections: before.sections }));
      reused++;
      continue;
    }
    const markdown = input.previousDir ? readText(safeJoin(input.previousDir, `${p.path}.md`)) : undefined;
    if (markdown === undefined) throw new CarriedRecordsError(`${p.path}: a page that was not rendered again has no search records or Markdown in the previous deployment`);
    records.push(...pageSearchRecords({ ...meta, markdown, toc: tocFromMarkdown(markdown) }));
  }
  throwIfAborted(signal);
  const built = await buildSearchIndexAsync(records, { hashes });
  throwIfAborted(signal);
  const bytes = writeSearchIndexDir(path.join(input.outDir, SEARCH_INDEX_DIR), built);
  return { pages, records: built.records, reused, bytes };
}

/** What {@link writeSearchIndexDelta} needs besides {@link SearchIndexInput}. */
export interface SearchDeltaInput extends SearchIndexInput {
  previousDir: string;
  /** the previous deployment's page paths (every page, hidden ones too) */
  previousPages: Iterable<string>;
}

/**
 * Pages a delta may hold before a build indexes every page again: a delta is laid over its base each
 * time the index is loaded, so it stays small (the larger of 64 pages and 5% of the site).
 */
export function maxDeltaPages(pages: number): number {
  return Math.max(64, Math.ceil(pages * 0.05));
}

/**
 * Gives an incremental build's deployment a current search index in the same deploy without
 * indexing every page (shared/src/search/delta.ts): the previous deployment's base index files
 * (`records.json`, `index.txt`) hard-linked as they are (copied across file systems), and a new
 * `changes.json` holding the records of every page rendered again (and of the pages the previous
 * delta held that this build carries) and naming every base page that is no longer current.
 * @returns null when the previous deployment has no index, or the delta would hold more than
 *   {@link maxDeltaPages} pages, or a carried page's records cannot be found (build the whole index instead)
 * @throws Error when a file cannot be read, linked or written
 */
export function writeSearchIndexDelta(input: SearchDeltaInput): SearchIndexResult | null {
  const from = path.join(input.previousDir, SEARCH_INDEX_DIR);
  const baseIndexId = readIndexId(path.join(from, TERMS_FILE));
  if (baseIndexId === undefined || !fs.existsSync(path.join(from, RECORDS_FILE))) return null;
  const deltaText = readText(path.join(from, DELTA_FILE));
  const before = deltaText === undefined ? undefined : parseDeltaFile(deltaText);
  if (before && before.baseIndexId !== baseIndexId) return null;
  const languages = pageLanguages(input.nav);
  const removed = new Set(before?.removed ?? []);
  const held = new Map((before?.pages ?? []).map((p) => [p.path, p]));
  const pages: StoredPage[] = [];
  const current = new Set<string>();
  let visible = 0;
  for (const p of input.pages) {
    if (p.hidden) continue;
    visible++;
    if ('carried' in p.page) {
      current.add(p.path);
      const kept = held.get(p.path);
      if (kept) pages.push(kept);
      else if (removed.has(p.path)) return null;
      continue;
    }
    const hash = input.pageKeys.get(p.path)?.markdownHash;
    const records = pageSearchRecords({
      path: p.path,
      title: p.page.title,
      ...(p.audience?.length ? { audience: p.audience } : {}),
      ...(languages.has(p.path) ? { language: languages.get(p.path)! } : {}),
      markdown: p.page.markdown,
      toc: p.page.toc,
    });
    pages.push(...groupRecords(records, hash ? new Map([[p.path, hash]]) : undefined));
    removed.add(p.path);
  }
  if (pages.length > maxDeltaPages(visible)) return null;
  // base pages that are neither carried as they were nor in the delta: gone (deleted or hidden)
  for (const path of input.previousPages) if (!current.has(path)) removed.add(path);
  const to = path.join(input.outDir, SEARCH_INDEX_DIR);
  fs.mkdirSync(to, { recursive: true });
  for (const name of [RECORDS_FILE, TERMS_FILE]) {
    try {
      fs.linkSync(path.join(from, name), path.join(to, name));
    } catch {
      fs.copyFileSync(path.join(from, name), path.join(to, name));
    }
  }
  const text = serializeDelta({ format: SEARCH_INDEX_FORMAT, baseIndexId, removed: [...removed].sort(), pages });
  fs.writeFileSync(path.join(to, DELTA_FILE), text);
  return { pages: visible, records: pages.reduce((n, p) => n + p.sections.length, 0), reused: visible - pages.length, bytes: Buffer.byteLength(text) };
}

/** The `indexId` in the header line of a term index file; undefined when it cannot be read. */
function readIndexId(file: string): string | undefined {
  let fd: number | undefined;
  try {
    fd = fs.openSync(file, 'r');
    const head = Buffer.alloc(1024);
    const n = fs.readSync(fd, head, 0, head.length, 0);
    const line = head.subarray(0, n).toString('utf8').split('\n')[0]!;
    const id = (JSON.parse(line) as { indexId?: unknown }).indexId;
    return typeof id === 'string' ? id : undefined;
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) fs.closeSync(fd);
  }
}

/**
 * Writes a built index's files into `dir` (created when missing): each through a temporary name
 * then renamed, so a reader never sees half a file. @returns the bytes written
 */
export function writeSearchIndexDir(dir: string, built: SerializedSearchIndex): number {
  fs.mkdirSync(dir, { recursive: true });
  let bytes = 0;
  for (const [name, content] of Object.entries(built.files)) {
    const target = safeJoin(dir, name);
    const tmp = `${target}.${process.pid}.tmp`;
    fs.writeFileSync(tmp, content);
    fs.renameSync(tmp, target);
    bytes += Buffer.byteLength(content);
  }
  return bytes;
}

/** The language division each page is listed under first (`language` divisions' titles are their codes). */
export function pageLanguages(nav: NavNode[]): Map<string, string> {
  const out = new Map<string, string>();
  for (const { node, ancestors } of walkPages(nav)) {
    if (out.has(node.path)) continue;
    const division = [...ancestors].reverse().find((a) => a.type === 'division' && a.kind === 'language');
    if (division && division.type === 'division' && division.title) out.set(node.path, division.title);
  }
  return out;
}

/** The previous deployment's current records by page path (its delta laid over its base); empty when it has none (or an unreadable file). */
function readPreviousRecords(dir: string): Map<string, StoredPage> {
  try {
    const stored = parseRecordsFile(fs.readFileSync(path.join(dir, SEARCH_INDEX_DIR, RECORDS_FILE), 'utf8'));
    const deltaText = readText(path.join(dir, SEARCH_INDEX_DIR, DELTA_FILE));
    const delta = deltaText === undefined ? undefined : parseDeltaFile(deltaText);
    return currentPages(stored.pages, delta && delta.baseIndexId === stored.indexId ? delta : undefined);
  } catch {
    return new Map();
  }
}

function readText(file: string): string | undefined {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
}
