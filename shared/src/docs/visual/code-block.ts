/** Edits of a fenced code block's opening line (CommonMark 0.31 section 4.5: the info string follows the fence). */
import type { TextEdit } from '../markdown/text-edits';
import { minimalEdit } from './splice';
import type { VisualBlock } from './types';

/**
 * The edit setting the language (first word of the info string) of a fenced code block, keeping its meta
 * (title, line highlights) and fence. An indented code block becomes nothing: null is returned for it.
 */
export function setCodeLanguage(source: string, block: Pick<VisualBlock, 'from' | 'to'>, lang: string): TextEdit | null {
  const m = /^(`{3,}|~{3,})[ \t]*([^\s`]*)/.exec(source.slice(block.from, block.to));
  if (!m) return null;
  const start = block.from + m[1]!.length;
  const end = block.from + m[0].length;
  const word = lang.trim().replace(/\s+/g, '-');
  return minimalEdit(source, start, end, word);
}

/**
 * The edit replacing the text of a fenced code block (the lines between its fences), in the file's line ends
 * and the block's indentation. Null for an indented code block, or when `code` holds a line that would
 * close the fence (CommonMark 0.31 section 4.5) — edit such a block in MDX mode.
 */
export function setCodeText(source: string, block: Pick<VisualBlock, 'from' | 'to' | 'indent'>, code: string): TextEdit | null {
  const text = source.slice(block.from, block.to);
  const fence = /^(`{3,}|~{3,})/.exec(text)?.[1];
  const open = text.indexOf('\n');
  if (!fence || open < 0) return null;
  const close = text.lastIndexOf('\n') + 1;
  const closed = new RegExp(`^[ \\t]*${fence[0] === '`' ? '`' : '~'}{${fence.length},}[ \\t]*\\r?$`).test(text.slice(close));
  const end = closed ? close : text.length;
  const lines = code.replace(/\r\n/g, '\n').split('\n');
  if (lines.some((l) => new RegExp(`^ {0,3}${fence[0] === '`' ? '`' : '~'}{${fence.length},}\\s*$`).test(l))) return null;
  const eol = text.includes('\r\n') ? '\r\n' : source.includes('\r\n') ? '\r\n' : '\n';
  const body = lines.map((l) => (l ? (block.indent ?? '') + l : l)).join(eol) + (closed ? eol : '');
  return minimalEdit(source, block.from + open + 1, block.from + end, body);
}
