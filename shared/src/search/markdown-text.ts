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
 * Markdown lines (one section of a page) to one line of plain text: block markers (lists, quotes,
 * table pipes, rules, heading marks) and inline markup removed, code lines kept as they are, tags
 * spanning several lines handled, whitespace collapsed.
 */
export function markdownToText(lines: readonly string[]): string {
  const parts: string[] = [];
  let fence: string | null = null;
  let prose: string[] = [];
  const flush = () => {
    if (prose.length) parts.push(inlineText(prose.join('\n')));
    prose = [];
  };
  for (const line of lines) {
    if (fence) {
      if (closesFence(line, fence)) fence = null;
      else parts.push(line);
      continue;
    }
    const open = fenceOf(line);
    if (open) {
      flush();
      fence = open;
      continue;
    }
    if ((line.includes('---') || line.includes('***') || line.includes('___')) && /^ {0,3}(?:\|?\s*:?-{3,}:?\s*(\|\s*:?-{3,}:?\s*)*\|?|([-*_])(\s*\2){2,})\s*$/.test(line)) continue;
    prose.push(BLOCK_MARK_RE.test(line) ? line.replace(BLOCK_MARK_RE, '') : line);
  }
  flush();
  return parts.join(' ').replace(/\|/g, ' ').replace(/\s+/g, ' ').trim();
}
