/**
 * The build step that gives every deployment its search index (decisions.md section 4): the records of
 * every visible page (hidden pages never; gated pages with their audience, filtered per reader at
 * query time) indexed and saved under `_quire/search/` of the deployment directory
 * (shared/src/search/index.ts). Site hosting never serves that folder (it holds gated pages' text).
 *
 * Incremental builds carry pages without rendering them again: their records come from the
 * previous deployment's `records.json` when the page's Markdown hash is the one they were made
 * from, else from the previous deployment's `<path>.md` (the file the carried page reuses).
 */
import fs from 'node:fs';
import path from 'node:path';
import { walkPages } from '@quire/shared/docs/nav/index';
import type { NavNode } from '@quire/shared/docs/types';
import { buildSearchIndexAsync, SEARCH_INDEX_DIR, type SerializedSearchIndex } from '@quire/shared/search/index';
import { pageRecords, parseRecordsFile, RECORDS_FILE, type StoredPage } from '@quire/shared/search/records-file';
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

/**
 * Gives a new deployment the search index of the deployment it replaces, as it is: every file
 * directly in the previous `_quire/search/` (not its reindex generations) hard-linked (copied
 * across file systems). An incremental build does this instead of {@link writeSearchIndex}, whose
 * full rebuild of the index costs about a third of a millisecond a page, so the new text goes live
 * at once; the caller then asks for an incremental reindex (jobs/reindex-runner.ts), which brings
 * the index up to date seconds later (its records file names each page's old hash, so only changed
 * pages are extracted again).
 * @returns the files shared, or null when the previous deployment has no index (build one instead)
 * @throws Error when a file cannot be linked or copied
 */
export function carryPreviousSearchIndex(previousDir: string, outDir: string): number | null {
  const from = path.join(previousDir, SEARCH_INDEX_DIR);
  if (!fs.existsSync(path.join(from, RECORDS_FILE))) return null;
  const to = path.join(outDir, SEARCH_INDEX_DIR);
  fs.mkdirSync(to, { recursive: true });
  let count = 0;
  for (const entry of fs.readdirSync(from, { withFileTypes: true })) {
    if (!entry.isFile()) continue;
    try {
      fs.linkSync(path.join(from, entry.name), path.join(to, entry.name));
    } catch {
      fs.copyFileSync(path.join(from, entry.name), path.join(to, entry.name));
    }
    count++;
  }
  return count;
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

/** The previous deployment's records by page path; empty when it has none (or an unreadable file). */
function readPreviousRecords(dir: string): Map<string, StoredPage> {
  try {
    const stored = parseRecordsFile(fs.readFileSync(path.join(dir, SEARCH_INDEX_DIR, RECORDS_FILE), 'utf8'));
    return new Map(stored.pages.map((p) => [p.path, p]));
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
