/**
 * Splicing Markdown into a file by position: only the characters of one block change, in the block's own
 * indentation and the file's line ends; every other byte stays as written.
 */
import type { TextEdit } from '../markdown/text-edits';
import { frontmatterRange } from './parse-source';
import type { VisualBlock } from './types';

/** The file's line end: CRLF when most of its line ends are CRLF. */
export function eolOf(source: string): '\n' | '\r\n' {
  const crlf = (source.match(/\r\n/g) ?? []).length;
  return crlf > (source.match(/\n/g) ?? []).length - crlf ? '\r\n' : '\n';
}

/** Applies non-overlapping edits (text-edits.ts shape, offsets in `source`); insertions at one offset land in the order given. */
export function applyTextEdits(source: string, edits: readonly TextEdit[]): string {
  const order = edits.map((e, i) => ({ e, i })).sort((a, b) => b.e.from - a.e.from || b.i - a.i);
  let out = source;
  for (const { e } of order) out = out.slice(0, e.from) + e.text + out.slice(e.to);
  return out;
}

/** The smallest edit turning `source.slice(from, to)` into `text` (common start and end left out). */
export function minimalEdit(source: string, from: number, to: number, text: string): TextEdit {
  const old = source.slice(from, to);
  let p = 0;
  while (p < old.length && p < text.length && old[p] === text[p]) p++;
  let s = 0;
  while (s < old.length - p && s < text.length - p && old[old.length - 1 - s] === text[text.length - 1 - s]) s++;
  return { from: from + p, to: to - s, text: text.slice(p, text.length - s) };
}

/** `markdown` (`\n` line ends, no indentation) as it is written at a place indented by `indent` in a file with `eol`. */
export function placeMarkdown(markdown: string, indent: string, eol: string): string {
  return markdown
    .replace(/\r\n/g, '\n')
    .split('\n')
    .map((line, i) => (i > 0 && line ? indent + line : line))
    .join(eol);
}

/**
 * The edit replacing `block`'s source by `markdown` (written with `\n`, unindented): lines after the first
 * get the block's indentation, line ends become the file's. The edit lies within `[block.from, block.to)`.
 */
export function replaceBlock(source: string, block: Pick<VisualBlock, 'from' | 'to' | 'indent'>, markdown: string): TextEdit {
  return minimalEdit(source, block.from, block.to, placeMarkdown(markdown, block.indent ?? '', eolOf(source)));
}

/**
 * The edit inserting `markdown` as a new block after `after` (null: before the first block of the body,
 * after any frontmatter), separated by one blank line, in the file's line ends and `after`'s indentation.
 * @param bodyStart where the body starts — used when `after` is null; default: after the frontmatter (and a BOM)
 */
export function insertBlock(
  source: string,
  after: Pick<VisualBlock, 'to' | 'indent'> | null,
  markdown: string,
  bodyStart = frontmatterRange(source)?.to ?? (source.startsWith('\uFEFF') ? 1 : 0),
): TextEdit {
  const eol = eolOf(source);
  const text = placeMarkdown(markdown.replace(/\s+$/, ''), after?.indent ?? '', eol);
  if (after) return { from: after.to, to: after.to, text: eol + eol + (after.indent ?? '') + text };
  const rest = source.slice(bodyStart);
  const skip = /^(?:[ \t]*\r?\n)*/.exec(rest)![0].length;
  const at = bodyStart + skip;
  const tail = at >= source.length ? eol : eol + eol;
  const head = bodyStart > 0 && skip === 0 && source[bodyStart - 1] === '\n' && source.slice(0, bodyStart).trim() !== '' ? eol : '';
  return { from: at, to: at, text: head + text + tail };
}

/**
 * The edit removing `block` with the blank lines that separated it from the next block (or, for the last
 * block, from the previous one), so that no run of extra blank lines is left behind.
 */
export function removeBlock(source: string, block: Pick<VisualBlock, 'from' | 'to' | 'indent'>): TextEdit {
  const after = /^[ \t]*(?:\r?\n[ \t]*)*/.exec(source.slice(block.to))![0];
  const lineStart = block.from - (block.indent ?? '').length;
  if (block.to + after.length < source.length) return { from: lineStart, to: block.to + after.length, text: '' };
  // the last block: keep the file's final line end, drop the blank lines before the block
  const before = /(?:\r?\n[ \t]*)*$/.exec(source.slice(0, lineStart))![0];
  const finalEol = /\r?\n/.exec(after)?.[0] ?? '';
  return { from: lineStart - before.length, to: source.length, text: lineStart - before.length > 0 ? finalEol : '' };
}
