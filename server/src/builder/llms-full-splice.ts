/**
 * `llms-full.txt` of an incremental build whose site shell is unchanged (site-writer.ts): the previous
 * deployment's files with the blocks of the pages rendered again replaced, using the byte ranges of its
 * `_quire/page-entries.json` (deployments/page-entries.ts), instead of reading every carried page's
 * `.md` and writing the whole text again. The result is byte for byte what llms-full.ts writes for the
 * same pages; whenever that cannot be known (a page without a block, a block that is not one page's,
 * another wrapper name, another site URL), it gives up and the caller writes the files anew.
 */
import fs from 'node:fs';
import { parsePageEntries, PAGE_ENTRIES_FILE, type PageEntries } from '../deployments/page-entries';
import { CUTTER_MARKUP, LLMS_FULL_FILE, pageBlock, WRAPPER } from './llms-full';
import type { LlmsFile } from './llms-languages';
import { safeJoin } from './output-files';
import type { SitePage } from './site-writer';

/** A spliced file; `unchanged`: its bytes are the previous deployment's (it can be shared with it). */
export interface SplicedFile extends LlmsFile {
  unchanged: boolean;
}

/**
 * The llms-full files of `pages` made from those of the deployment in `previousDir` (see the module comment).
 * @param pages the site's pages: carried ones are taken from the previous files, rendered ones get a new block
 * @param siteUrl absolute base URL of the site, no trailing slash
 * @returns the files with their ranges, or undefined when the previous files cannot be reused
 */
export function spliceLlmsFull(pages: readonly SitePage[], siteUrl: string, previousDir: string): SplicedFile[] | undefined {
  let entries: PageEntries;
  try {
    entries = parsePageEntries(fs.readFileSync(safeJoin(previousDir, PAGE_ENTRIES_FILE), 'utf8'));
  } catch {
    return undefined;
  }
  const visible = pages.filter((p) => !p.hidden);
  const fresh = new Map<string, Buffer>();
  for (const p of visible) {
    if (!('markdown' in p.page)) continue;
    const md = p.page.markdown;
    // a page llms-full.ts would leave out, or one that would change the wrapper's name: written anew
    if (CUTTER_MARKUP.some((m) => md.includes(m)) || md.includes(WRAPPER)) return undefined;
    fresh.set(p.path, Buffer.from(pageBlock(p, md, siteUrl, WRAPPER), 'utf8'));
  }
  const gated = visible.some((p) => p.audience?.length);
  const placed = new Set<string>();
  const files: SplicedFile[] = [];
  for (const [rel, file] of entries.files) {
    if (rel !== LLMS_FULL_FILE && !rel.endsWith(`/${LLMS_FULL_FILE}`)) continue;
    let before: Buffer;
    try {
      before = fs.readFileSync(safeJoin(previousDir, rel));
    } catch {
      return undefined;
    }
    if (before.length !== file.bytes) return undefined;
    // the wrapper's name: llms-full.ts chose `quiregated` when no page held it (checked above for the new texts)
    if (gated && before.includes(`<${WRAPPER}2`)) return undefined;
    // unchanged runs of blocks are taken as one slice of the previous file
    const parts: Buffer[] = [];
    const ranges: LlmsFile['ranges'] = [];
    let cursor = 0;
    let copiedFrom = 0;
    let shift = 0;
    let changed = false;
    for (const range of file.ranges) {
      const path = range.pages.length === 1 ? entries.pages[range.pages[0]!] : undefined;
      if (path === undefined || range.start !== cursor || placed.has(path)) return undefined;
      placed.add(path);
      const block = fresh.get(path);
      if (block) {
        if (!block.equals(before.subarray(range.start, range.end))) changed = true;
        parts.push(before.subarray(copiedFrom, range.start), block);
        copiedFrom = range.end;
        ranges.push({ start: range.start + shift, end: range.start + shift + block.length, pages: [path] });
        shift += block.length - (range.end - range.start);
      } else {
        ranges.push({ start: range.start + shift, end: range.end + shift, pages: [path] });
      }
      cursor = range.end;
    }
    if (cursor !== before.length) return undefined;
    // the site URL of the blocks taken over (the first one stands for all: one build wrote them)
    const first = file.ranges.find((r) => !fresh.has(entries.pages[r.pages[0]!]!));
    if (first && !before.subarray(first.start, first.end).includes(`\nSource: ${siteUrl}/`)) return undefined;
    parts.push(before.subarray(copiedFrom));
    files.push({ rel, content: changed ? Buffer.concat(parts).toString('utf8') : before.toString('utf8'), ranges, unchanged: !changed });
  }
  // every visible page has exactly its one block, and no block is of a page no longer visible
  if (placed.size !== visible.length || visible.some((p) => !placed.has(p.path))) return undefined;
  if (!files.some((f) => f.rel === LLMS_FULL_FILE)) return undefined;
  return files.sort((a, b) => Number(b.rel === LLMS_FULL_FILE) - Number(a.rel === LLMS_FULL_FILE));
}
