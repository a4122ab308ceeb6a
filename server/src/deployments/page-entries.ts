/**
 * Where each page sits in a deployment's index files (`llms.txt`, `llms-full.txt` and their
 * per-language copies, `sitemap.xml`): the byte ranges site hosting cuts out for a reader whom the
 * project's access rules or path-scoped IP allowlists refuse those pages (sites/page-filter.ts; decisions.md
 * sections 6 and 9). The builder writes them beside the files, in `_quire/page-entries.json`
 * ({@link PAGE_ENTRIES_FILE}, never served), and leaves the files themselves exactly as readers get
 * them: the marks are out of band, so no marker has to be stripped from every public answer, no
 * format (Markdown lists, XML) carries anything foreign, and no page's own text can forge or end a
 * mark early. The ranges are cut by the same byte-range cutter as the audience marks
 * (sites/audience-variants.ts `cutForVisitor`), in one pass with them.
 *
 * The file (version 1):
 *
 *     { "version": 1, "pages": ["guides/setup", ...],
 *       "files": { "llms.txt": { "bytes": 1234, "ranges": [[start, end, pageIndex, ...], ...] }, ... } }
 *
 * `bytes` is the file's length as written (a range list only applies to those bytes); each range
 * `[start, end)` is cut when the reader is refused EVERY page it names: a page's entry names one page,
 * a section of `llms.txt` (its `## heading` and its entries) names all of its pages, so a section
 * whose pages a reader cannot open goes with its heading.
 */

/** The entries file, relative to the deployment root (under `_quire/`, where no repository file is copied). */
export const PAGE_ENTRIES_FILE = '_quire/page-entries.json';

/** One cuttable range of an index file: bytes `[start, end)`, cut when every page in `pages` is refused. */
export interface PageRange {
  start: number;
  end: number;
  /** indexes into {@link PageEntries.pages} */
  pages: readonly number[];
}

/** The ranges of one index file. */
export interface FileEntries {
  /** the file's length in bytes as the builder wrote it */
  bytes: number;
  /** by `start` */
  ranges: readonly PageRange[];
  /** every page index the ranges name, each once, ascending */
  pages: readonly number[];
}

/** A deployment's page entries (see the module comment). */
export interface PageEntries {
  /** page paths (`guides/setup`) */
  pages: readonly string[];
  /** by deployment-relative file (`llms.txt`, `fr/llms-full.txt`, `sitemap.xml`) */
  files: ReadonlyMap<string, FileEntries>;
}

/**
 * Writes one index file's text while recording its page ranges in UTF-8 bytes. The builder adds
 * text with {@link add}, and wraps what belongs to pages in {@link entry}.
 */
export class ListingWriter {
  private readonly parts: string[] = [];
  private bytes = 0;
  /** `[start, end, ...page paths]` in the order the ranges closed */
  readonly ranges: { start: number; end: number; pages: string[] }[] = [];

  /** Appends text. */
  add(text: string): this {
    this.parts.push(text);
    this.bytes += Buffer.byteLength(text, 'utf8');
    return this;
  }

  /** Appends what `write` adds as one range belonging to `pages` (cut when a reader is refused all of them). */
  entry(pages: readonly string[], write: () => void): this {
    const start = this.bytes;
    write();
    if (this.bytes > start && pages.length > 0) this.ranges.push({ start, end: this.bytes, pages: [...pages] });
    return this;
  }

  /** The text written so far. */
  text(): string {
    return this.parts.join('');
  }
}

/** The text and page ranges of one written index file. */
export interface WrittenListing {
  content: string;
  ranges: { start: number; end: number; pages: string[] }[];
}

/** A written listing from a {@link ListingWriter}. */
export function writtenListing(writer: ListingWriter): WrittenListing {
  return { content: writer.text(), ranges: writer.ranges };
}

/**
 * The JSON text of {@link PAGE_ENTRIES_FILE} for the index files written.
 * @param files by deployment-relative path
 */
export function pageEntriesJson(files: ReadonlyMap<string, WrittenListing>): string {
  const pages: string[] = [];
  const indexOf = new Map<string, number>();
  const index = (path: string) => {
    let i = indexOf.get(path);
    if (i === undefined) indexOf.set(path, (i = pages.push(path) - 1));
    return i;
  };
  const out: Record<string, { bytes: number; ranges: number[][] }> = {};
  for (const [rel, file] of [...files].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    const ranges = [...file.ranges].sort((a, b) => a.start - b.start || b.end - a.end);
    out[rel] = { bytes: Buffer.byteLength(file.content, 'utf8'), ranges: ranges.map((r) => [r.start, r.end, ...r.pages.map(index)]) };
  }
  return JSON.stringify({ version: 1, pages, files: out });
}

/**
 * Parses {@link PAGE_ENTRIES_FILE}.
 * @throws Error when the text is not a version-1 entries file with well-formed ranges (ranges inside
 *   the file's bytes, page indexes inside `pages`)
 */
export function parsePageEntries(text: string): PageEntries {
  const data = JSON.parse(text) as { version?: unknown; pages?: unknown; files?: unknown };
  if (data?.version !== 1 || !Array.isArray(data.pages) || !data.pages.every((p) => typeof p === 'string') || typeof data.files !== 'object' || data.files === null) {
    throw new Error(`${PAGE_ENTRIES_FILE}: not a version 1 page entries file`);
  }
  const pages = data.pages as string[];
  const files = new Map<string, FileEntries>();
  for (const [rel, raw] of Object.entries(data.files as Record<string, unknown>)) {
    const { bytes, ranges } = (raw ?? {}) as { bytes?: unknown; ranges?: unknown };
    if (!Number.isSafeInteger(bytes) || (bytes as number) < 0 || !Array.isArray(ranges)) throw new Error(`${PAGE_ENTRIES_FILE}: ${rel} has no byte length or ranges`);
    const named = new Set<number>();
    const parsed: PageRange[] = ranges.map((r: unknown) => {
      const ok =
        Array.isArray(r) &&
        r.length >= 3 &&
        r.every((n) => Number.isSafeInteger(n) && (n as number) >= 0) &&
        (r[0] as number) < (r[1] as number) &&
        (r[1] as number) <= (bytes as number) &&
        r.slice(2).every((i) => (i as number) < pages.length);
      if (!ok) throw new Error(`${PAGE_ENTRIES_FILE}: ${rel} has a malformed range`);
      const list = r.slice(2) as number[];
      for (const i of list) named.add(i);
      return { start: r[0] as number, end: r[1] as number, pages: list };
    });
    parsed.sort((a, b) => a.start - b.start || b.end - a.end);
    files.set(rel, { bytes: bytes as number, ranges: parsed, pages: [...named].sort((a, b) => a - b) });
  }
  return { pages, files };
}
