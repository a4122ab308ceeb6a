/**
 * Plain text out of a page's Markdown export (`RenderedPage.markdown`, the deployed `<path>.md`:
 * Markdown with MDX component tags left in), for the search index. A line-based pass, not a parser:
 * it has to keep up with 10,000 pages in a build.
 *
 * Kept: prose, list and table cell text, code block contents, link and image texts, the text of
 * component attributes readers see as titles or names (`<Card title>`, `<ParamField path>`,
 * `<ResponseField name>`, ...). Dropped: Markdown punctuation, tags, URLs of links and images,
 * comments, MDX expressions' comment blocks.
 */
import { decodeEntities } from '../docs/markdown/html';

/** Attributes of component tags whose value is text a reader sees (Mintlify's components). */
const TEXT_ATTRS = 'title|label|name|description|query|path|body|header|param|alt|tab';
const TAG_RE = /<\/?([A-Za-z][\w.:-]*)((?:\s+[^<>]*?)?)\s*\/?>/g;
const ATTR_RE = new RegExp(`(?:^|\\s)(?:${TEXT_ATTRS})\\s*=\\s*(?:"([^"]*)"|'([^']*)'|\\{\\s*["'\`]([^"'\`]*)["'\`]\\s*\\})`, 'g');

/** Block markers at the start of a line: heading marks, quotes, list bullets and numbers, task boxes. */
const BLOCK_MARK_RE = /^(?: {0,3}#{1,6}[ \t]+|\s*(?:>\s*)+|\s*(?:[-*+]|\d{1,9}[.)])\s+(?:\[[ xX]\]\s+)?)/;

/** An ATX heading line (`## Setup ##`), outside code: depth and raw text. */
export interface MarkdownHeading {
  depth: number;
  /** the heading's Markdown text (inline markup kept; see {@link inlineText}) */
  raw: string;
}

/** `## Title` → depth and text; null for any other line. */
export function headingOf(line: string): MarkdownHeading | null {
  const m = /^ {0,3}(#{1,6})[ \t]+(.*?)(?:[ \t]+#+)?[ \t]*$/.exec(line) ?? /^ {0,3}(#{1,6})[ \t]*$/.exec(line);
  return m ? { depth: m[1]!.length, raw: m[2] ?? '' } : null;
}

/** A line opening or closing a fenced code block: its fence (``` or ~~~, at least three). */
export function fenceOf(line: string): string | null {
  const m = /^ {0,3}(`{3,}|~{3,})/.exec(line);
  return m ? m[1]! : null;
}

/** Whether `line` closes a block opened by `open` (same character, at least as long, nothing after). */
export function closesFence(line: string, open: string): boolean {
  const m = /^ {0,3}(`{3,}|~{3,})[ \t]*$/.exec(line);
  return m !== null && m[1]![0] === open[0] && m[1]!.length >= open.length;
}

/** Inline Markdown to text: links, images, code spans, emphasis, tags and entities removed; code spans' text kept as written. */
export function inlineText(text: string): string {
  // links first: their text often holds a code span (`[\`run()\`](/runs)`)
  const s = text.includes('](') || text.includes('][') ? text.replace(/!\[([^\]]*)\]\([^)]*\)/g, '$1').replace(/\[([^\]]*)\](?:\([^)]*\)|\[[^\]]*\])/g, '$1') : text;
  if (!s.includes('`')) return proseText(s);
  let out = '';
  let last = 0;
  for (const m of s.matchAll(/(`+)([^`]|[^`][^]*?[^`])\1(?!`)/g)) {
    out += proseText(s.slice(last, m.index)) + m[2]!.trim();
    last = m.index + m[0].length;
  }
  return out + proseText(s.slice(last));
}

/** {@link inlineText} of text without code spans. */
function proseText(text: string): string {
  let s = text;
  if (s.includes('<')) s = s.replace(/<!--[^]*?-->/g, ' ').replace(TAG_RE, (_, _name: string, attrs: string) => ` ${attrText(attrs)} `);
  if (s.includes('{/*')) s = s.replace(/\{\/\*[^]*?\*\/\}/g, ' ');
  if (s.includes('*') || s.includes('~')) s = s.replace(/\*\*|~~|\*/g, '');
  if (s.includes('_')) s = s.replace(/__/g, '').replace(/(^|[\s(])_([^_\n]+)_(?=[\s).,;:!?]|$)/g, '$1$2');
  if (s.includes('\\')) s = s.replace(/\\([\\`*_{}[\]()#+\-.!|<>~])/g, '$1');
  return s.includes('&') ? decodeEntities(s) : s;
}

/** The readable attribute values of a tag's attribute text, space separated. */
function attrText(attrs: string | undefined): string {
  if (!attrs) return '';
  let out = '';
  for (const m of attrs.matchAll(ATTR_RE)) {
    const v = m[1] ?? m[2] ?? m[3] ?? '';
    if (v && !/^(?:https?:|\/|#|\.)/.test(v)) out += ` ${v}`;
  }
  return out;
}

/**
 * How the plain text of a section keeps its blocks (so the assistant can quote a list item, a table row, a whole procedure
 * or a code block, not only sentences), at almost no cost in size: one block a line, a line's first characters saying
 * what it is. `- ` a bulleted list item; `#. ` a numbered list item or an MDX `<Step>` (reStructuredText's auto-numbered
 * list mark, no digits so the index gains no terms); a line holding tabs a table row, one cell between tabs (the first
 * row of a table is its header); a line ```` ``` ```` opens and the next such line closes a code block, its lines kept as
 * written; any other line a paragraph or a heading the toc does not list. The marks are punctuation and whitespace, so
 * they are not terms of the index; {@link displayText} hides them in snippets.
 */
export const TEXT_BLOCK_MARKS = { item: '- ', step: '#. ', code: '```', cell: '\t' } as const;

/** One block of a section's text ({@link textBlocks}). */
export interface TextBlock {
  /** paragraph (or an unlisted heading), bulleted list item, numbered item or `<Step>`, table row, code block */
  kind: 'paragraph' | 'item' | 'step' | 'row' | 'code';
  /** the block's text without its mark; a row's cells are tab-separated, a code block's lines newline-separated */
  text: string;
  /** rows: whether this row is its table's header (the first row of a run of rows) */
  header?: boolean;
}

const LIST_ITEM_RE = /^\s*(?:([-*+])|\d{1,9}[.)])\s+(?:\[[ xX]\]\s+)?/;
const TABLE_ROW_RE = /^\s*\|.*\|\s*$/;
const STEP_OPEN_RE = /^\s*<Step[\s>]/;
const STEP_CLOSE_RE = /^\s*<\/Steps?>\s*$/;

/**
 * Markdown lines (one section of a page) to plain text, one block a line as {@link TEXT_BLOCK_MARKS} describes: block
 * markers (list bullets and numbers, quotes, table pipes, rules, heading marks) and inline markup removed, code lines kept
 * as they are, tags spanning several lines of a paragraph handled, whitespace inside a block collapsed.
 */
export function markdownToText(lines: readonly string[]): string {
  const out: string[] = [];
  let fence: string | null = null;
  let code: string[] = [];
  let prose: string[] = [];
  let mark = '';
  const flush = () => {
    if (prose.length) {
      const text = inlineText(prose.join('\n')).replace(/\|/g, ' ').replace(/\s+/g, ' ').trim();
      if (text) out.push(mark + text);
    }
    prose = [];
    mark = '';
  };
  for (const line of lines) {
    if (fence) {
      if (closesFence(line, fence)) {
        fence = null;
        out.push(...codeBlock(code));
        code = [];
      } else if (line.trim()) code.push(line.replace(/\s+$/, '').replace(/\t/g, '  '));
      continue;
    }
    const open = fenceOf(line);
    if (open) {
      flush();
      fence = open;
      continue;
    }
    if (!line.trim() || STEP_CLOSE_RE.test(line)) {
      flush();
      continue;
    }
    if ((line.includes('---') || line.includes('***') || line.includes('___')) && /^ {0,3}(?:\|?\s*:?-{3,}:?\s*(\|\s*:?-{3,}:?\s*)*\|?|([-*_])(\s*\2){2,})\s*$/.test(line)) continue;
    if (TABLE_ROW_RE.test(line)) {
      flush();
      const cells = line.trim().slice(1, -1).split(/(?<!\\)\|/).map((c) => inlineText(c).replace(/\s+/g, ' ').trim());
      if (cells.some((c) => c)) out.push(cells.join(TEXT_BLOCK_MARKS.cell));
      continue;
    }
    const item = LIST_ITEM_RE.exec(line);
    if (item) {
      flush();
      mark = item[1] ? TEXT_BLOCK_MARKS.item : TEXT_BLOCK_MARKS.step;
      prose.push(line.slice(item[0].length));
      continue;
    }
    if (STEP_OPEN_RE.test(line)) {
      flush();
      mark = TEXT_BLOCK_MARKS.step;
      prose.push(line);
      continue;
    }
    const heading = headingOf(line);
    if (heading) {
      flush();
      prose.push(heading.raw);
      flush();
      continue;
    }
    // a `>` alone ends a tag whose attributes span lines (`<Card\n  title="..."\n>`), not a quote
    prose.push(/^\s*\/?>\s*$/.test(line) ? line : line.replace(BLOCK_MARK_RE, ''));
  }
  flush();
  out.push(...codeBlock(code));
  return out.join('\n').trim();
}

/** A code block's lines between its marks, the indentation all its lines share removed (none for an empty block). */
function codeBlock(code: readonly string[]): string[] {
  if (code.length === 0) return [];
  const indent = Math.min(...code.map((l) => /^ */.exec(l)![0].length));
  return [TEXT_BLOCK_MARKS.code, ...code.map((l) => l.slice(indent)), TEXT_BLOCK_MARKS.code];
}

/**
 * The blocks of a section's text as {@link markdownToText} writes it ({@link TEXT_BLOCK_MARKS}), in order; text written
 * before blocks were kept (one line) is one paragraph.
 */
export function textBlocks(text: string): TextBlock[] {
  const blocks: TextBlock[] = [];
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (line === TEXT_BLOCK_MARKS.code) {
      const code: string[] = [];
      while (++i < lines.length && lines[i] !== TEXT_BLOCK_MARKS.code) code.push(lines[i]!);
      if (code.length) blocks.push({ kind: 'code', text: code.join('\n') });
    } else if (line.includes(TEXT_BLOCK_MARKS.cell)) {
      blocks.push({ kind: 'row', text: line, header: blocks.at(-1)?.kind !== 'row' });
    } else if (line.startsWith(TEXT_BLOCK_MARKS.step)) blocks.push({ kind: 'step', text: line.slice(TEXT_BLOCK_MARKS.step.length) });
    else if (line.startsWith(TEXT_BLOCK_MARKS.item)) blocks.push({ kind: 'item', text: line.slice(TEXT_BLOCK_MARKS.item.length) });
    else if (line.trim()) blocks.push({ kind: 'paragraph', text: line });
  }
  return blocks;
}

/**
 * A section's text as one line for display (a search hit's snippet): block marks and line breaks become spaces of the
 * same length, so offsets into the text stay valid.
 */
export function displayText(text: string): string {
  if (!text.includes('\n') && !text.includes('\t')) return text;
  return text.replace(/^(?:```|#\.|-)(?= |$)/gm, (m) => ' '.repeat(m.length)).replace(/[\n\t]/g, ' ');
}
