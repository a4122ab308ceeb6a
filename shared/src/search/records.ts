/**
 * A page's search records: one per section, so a hit lands on the heading it matched (a hit's `section`,
 * decisions.md section 7). The page's Markdown export is cut at its h2 and h3 headings, each matched to
 * the renderer's table of contents for its anchor (the `<h2 id>`), and made plain text (markdown-text.ts).
 */
import { splitCustomHeadingId } from '../docs/markdown/custom-heading-ids';
import { HeadingIds } from '../docs/markdown/heading-ids';
import type { TocEntry } from '../docs/types';
import { closesFence, fenceOf, headingOf, inlineText, markdownToText } from './markdown-text';
import { foldTerm } from './tokens';
import type { SearchRecord } from './types';

/**
 * Characters of text kept per record (indexed and shown in snippets): a section is rarely longer;
 * past this, its text is cut at a word boundary. Bounds the index of a page that is one huge section.
 */
export const MAX_RECORD_TEXT = 5000;

/** What {@link pageSearchRecords} reads of a page. */
export interface SearchPageInput {
  /** page path as served (`guides/setup`) */
  path: string;
  title: string;
  /** the page's Markdown export (`RenderedPage.markdown`, the deployed `<path>.md`) */
  markdown: string;
  /** the rendered page's h2/h3 entries (`RenderedPage.toc`); {@link tocFromMarkdown} when only the Markdown is known */
  toc: readonly TocEntry[];
  /** frontmatter `audience` tags (gated page) */
  audience?: readonly string[];
  /** the page's language division */
  language?: string;
}

/**
 * One record for the page's introduction (the text before its first h2/h3, the page title's `# `
 * line left out; always present, even empty, so a title match has somewhere to land) and one per
 * h2/h3 heading found in `toc` (anchor = the toc id, depth = its level). A heading of the Markdown
 * that is not in the toc (e.g. one the renderer did not make a heading) stays in the text of the
 * section it is in; a toc entry not found in the Markdown (a component's heading) gets no record.
 * Headings inside fenced code are not headings. Text is capped at {@link MAX_RECORD_TEXT}.
 * Hidden pages are the caller's to leave out.
 */
export function pageSearchRecords(page: SearchPageInput): SearchRecord[] {
  const base = {
    path: page.path,
    title: page.title,
    ...(page.audience?.length ? { audience: [...page.audience] } : {}),
    ...(page.language ? { language: page.language } : {}),
  };
  const toc = page.toc;
  let next = 0;
  let current: { entry?: TocEntry; lines: string[] } = { lines: [] };
  const sections = [current];
  let fence: string | null = null;
  let titleSkipped = false;
  for (const line of page.markdown.split('\n')) {
    if (fence) {
      if (closesFence(line, fence)) fence = null;
      current.lines.push(line);
      continue;
    }
    const open = fenceOf(line);
    if (open) {
      fence = open;
      current.lines.push(line);
      continue;
    }
    const h = headingOf(line);
    if (h && h.depth === 1 && !titleSkipped && sections.length === 1 && current.lines.every((l) => !l.trim())) {
      titleSkipped = true;
      continue;
    }
    if (h && (h.depth === 2 || h.depth === 3)) {
      const at = findTocEntry(toc, next, inlineText(h.raw));
      if (at >= 0) {
        next = at + 1;
        current = { entry: toc[at], lines: [] };
        sections.push(current);
        continue;
      }
    }
    current.lines.push(line);
  }
  return sections.map(({ entry, lines }) => ({
    ...base,
    ...(entry ? { section: entry.text, anchor: entry.id, depth: entry.depth } : {}),
    text: capText(markdownToText(lines)),
  }));
}

/** Toc entries looked at past the expected one for a heading (entries the Markdown does not have). */
const TOC_LOOKAHEAD = 8;

/** Index in `toc` (from `from`, a few entries ahead) of the entry whose text is `text`; -1 when none. */
function findTocEntry(toc: readonly TocEntry[], from: number, text: string): number {
  const want = comparable(text);
  for (let i = from; i < toc.length && i <= from + TOC_LOOKAHEAD; i++) if (comparable(toc[i]!.text) === want) return i;
  return -1;
}

const comparable = (s: string) => foldTerm(s).replace(/[^\p{L}\p{N}]+/gu, '');

/** `text` cut to {@link MAX_RECORD_TEXT} characters at a word boundary. */
function capText(text: string): string {
  if (text.length <= MAX_RECORD_TEXT) return text;
  const cut = text.lastIndexOf(' ', MAX_RECORD_TEXT);
  return text.slice(0, cut > MAX_RECORD_TEXT / 2 ? cut : MAX_RECORD_TEXT);
}

/**
 * The h2/h3 entries of a page known only by its Markdown export (a reindex from deployed `.md`
 * files): heading text as plain text, ids by the rule the renderer names headings with
 * (shared/src/docs/markdown/heading-ids.ts). The renderer's ids can differ when a page's components
 * take ids of their own (steps, accordions), so a build passes the rendered toc instead.
 */
export function tocFromMarkdown(markdown: string): TocEntry[] {
  const ids = new HeadingIds();
  const toc: TocEntry[] = [];
  let fence: string | null = null;
  for (const line of markdown.split('\n')) {
    if (fence) {
      if (closesFence(line, fence)) fence = null;
      continue;
    }
    fence = fenceOf(line);
    if (fence) continue;
    const h = headingOf(line);
    if (!h) continue;
    const custom = splitCustomHeadingId(h.raw);
    const text = inlineText(custom.text).replace(/\s+/g, ' ').trim();
    const id = custom.id ? ids.take(custom.id) : ids.next(text).id;
    if (h.depth === 2 || h.depth === 3) toc.push({ depth: h.depth, id, text });
  }
  return toc;
}
