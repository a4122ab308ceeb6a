import { AUDIENCE_ATTR, AUDIENCE_UNLESS_ATTR, decodeAudienceTags, opensAudience } from '@quire/shared/site/audience';

/**
 * Per-visitor variants of a built HTML file without rendering anything (decisions.md section 6:
 * gated pages never appear to visitors without access). The builder marks every piece of chrome
 * naming a gated page with the tags that open it (`data-audience`, and `data-audience-unless` for
 * the stand-ins shown to visitors who cannot open it; shared/src/site/audience.ts). When a file is
 * loaded, {@link findAudienceMarks} finds the byte range of each marked element once; a visitor's
 * variant is the file with the ranges their tags do not show cut out ({@link cutForVisitor}).
 *
 * Only the chrome is searched: the page body (from the first `<div class="q-prose">` to the last
 * `<footer class="q-page-footer">`, the only place repository content reaches) is skipped, so an
 * author's own `data-audience` attributes never cut anything, and everything else in a built file
 * is the theme's own markup with escaped text (no `<` inside attribute values or text).
 */

/** One marked element of a file: its bytes `[start, end)` and the condition showing it. */
export interface AudienceRange {
  start: number;
  end: number;
  /** shown only to visitors opening one of these (`data-audience`); null: no such condition */
  shownTo: string[] | null;
  /** hidden from visitors opening one of these (`data-audience-unless`); null: no such condition */
  hiddenFrom: string[] | null;
  /** byte spans `[start, end)` of the marking attributes (with their leading space), removed when the element is kept */
  attributes: [number, number][];
}

/** The marked elements of a file, in document order, and every tag they name. */
export interface AudienceMarks {
  ranges: AudienceRange[];
  tags: ReadonlySet<string>;
}

const PROSE_OPEN = '<div class="q-prose">';
const PAGE_FOOTER_OPEN = '<footer class="q-page-footer">';
const MARK = ` ${AUDIENCE_ATTR}`;
const ATTRIBUTE = new RegExp(` (${AUDIENCE_UNLESS_ATTR}|${AUDIENCE_ATTR})="([^"]*)"`, 'g');

/**
 * Finds the marked elements of a built HTML file.
 * @param html the file's bytes (UTF-8; searched through its latin1 view, which maps byte for byte,
 *   so offsets are byte offsets)
 * @returns null when the file has no marks (the common case: served as it is)
 */
export function findAudienceMarks(html: Buffer): AudienceMarks | null {
  const text = html.toString('latin1');
  if (!text.includes(MARK)) return null;
  const [proseStart, bodyEnd] = bodySpan(text);
  const inBody = (at: number) => at > proseStart && at < bodyEnd;
  const ranges: AudienceRange[] = [];
  const tags = new Set<string>();
  let from = 0;
  for (;;) {
    const at = text.indexOf(MARK, from);
    if (at === -1) break;
    if (inBody(at)) {
      from = bodyEnd;
      continue;
    }
    const tagStart = text.lastIndexOf('<', at);
    const tagEnd = text.indexOf('>', at);
    if (tagStart === -1 || tagEnd === -1 || text.lastIndexOf('>', at) > tagStart) {
      from = at + MARK.length;
      continue;
    }
    from = tagEnd + 1;
    const openTag = text.slice(tagStart, tagEnd + 1);
    const name = /^<([a-z][a-z0-9]*)/.exec(openTag)?.[1];
    if (!name) continue;
    const end = closingEnd(text, name, tagEnd + 1);
    if (end === -1) continue;
    let shownTo: string[] | null = null;
    let hiddenFrom: string[] | null = null;
    const attributes: [number, number][] = [];
    for (const m of openTag.matchAll(ATTRIBUTE)) {
      const list = decodeAudienceTags(Buffer.from(m[2]!, 'latin1').toString('utf8'));
      for (const t of list) tags.add(t);
      if (m[1] === AUDIENCE_ATTR) shownTo = list;
      else hiddenFrom = list;
      attributes.push([tagStart + m.index, tagStart + m.index + m[0].length]);
    }
    if (shownTo || hiddenFrom) ranges.push({ start: tagStart, end, shownTo, hiddenFrom, attributes });
  }
  return ranges.length > 0 ? { ranges, tags } : null;
}

/**
 * Where the page body of a built file lies (see the module comment): `[start, end)`, the offsets of
 * the first `<div class="q-prose">` and of the last `<footer class="q-page-footer">` after it (the
 * file's end without one); `[-1, -1]` when the file has no body (nothing is skipped).
 * @param text the file's latin1 view
 */
export function bodySpan(text: string): [number, number] {
  const proseStart = text.indexOf(PROSE_OPEN);
  if (proseStart === -1) return [-1, -1];
  const footerStart = text.lastIndexOf(PAGE_FOOTER_OPEN);
  return [proseStart, footerStart > proseStart ? footerStart : text.length];
}

/** The offset just past the `</name>` closing the element opened before `from` (same-name elements nest); -1 when unclosed. */
export function closingEnd(text: string, name: string, from: number): number {
  const open = `<${name}`;
  const close = `</${name}>`;
  let depth = 1;
  let at = from;
  while (depth > 0) {
    const nextClose = text.indexOf(close, at);
    if (nextClose === -1) return -1;
    let nextOpen = text.indexOf(open, at);
    // `<a` must not match `<abbr`: the name ends at white space or `>`
    while (nextOpen !== -1 && nextOpen < nextClose && !/[\s>]/.test(text.charAt(nextOpen + open.length))) nextOpen = text.indexOf(open, nextOpen + 1);
    if (nextOpen !== -1 && nextOpen < nextClose) {
      depth++;
      at = nextOpen + open.length;
    } else {
      depth--;
      at = nextClose + close.length;
    }
  }
  return at;
}

/** Whether a range shows for a visitor with `tags`. */
function shows(range: AudienceRange, tags: ReadonlySet<string>): boolean {
  if (range.shownTo && !opensAudience(tags, range.shownTo)) return false;
  if (range.hiddenFrom && opensAudience(tags, range.hiddenFrom)) return false;
  return true;
}

/**
 * The key of a visitor's variant of a file: the visitor's tags that the file names, sorted and
 * joined by NUL (`''` for a visitor whose tags the file never names: the same bytes as an anonymous
 * visitor's). Two visitors with the same key get the same bytes. Tags never hold NUL (the database
 * refuses it), so the key is unambiguous.
 */
export function variantKey(marks: AudienceMarks, visitorTags: readonly string[]): string {
  let relevant: string[] | undefined;
  for (const t of visitorTags) if (marks.tags.has(t)) (relevant ??= []).push(t);
  if (!relevant) return '';
  if (relevant.length === 1) return relevant[0]!;
  return [...new Set(relevant)].sort().join('\u0000');
}

/**
 * The file as a visitor with `visitorTags` sees it: every marked element whose condition they do
 * not meet is cut out (with everything inside it; an element inside a kept one is decided on its
 * own), and the marking attributes of the kept ones are removed, so no variant names the tags of
 * pages (not even the visitor's own).
 * @param marks the file's audience marks; null when it has none
 * @param cuts further byte ranges `[start, end)` to cut in the same pass (the entries of pages the
 *   reader's access rules refuse: page-entries.ts, page-filter.ts); they may enclose marked elements
 */
export function cutForVisitor(
  html: Buffer,
  marks: AudienceMarks | null,
  visitorTags: readonly string[],
  cuts: readonly (readonly [number, number])[] = [],
): Buffer {
  const tags = new Set(visitorTags);
  const spans: (readonly [number, number])[] = [];
  if (marks) {
    for (const range of marks.ranges) {
      if (shows(range, tags)) spans.push(...range.attributes);
      else spans.push([range.start, range.end]);
    }
  }
  if (cuts.length > 0) {
    spans.push(...cuts);
    spans.sort((a, b) => a[0] - b[0] || b[1] - a[1]);
  }
  const parts: Buffer[] = [];
  let copied = 0;
  for (const [start, end] of spans) {
    if (end <= copied) continue; // inside what is already cut
    if (start > copied) parts.push(html.subarray(copied, start));
    copied = end;
  }
  parts.push(html.subarray(copied));
  return Buffer.concat(parts);
}
