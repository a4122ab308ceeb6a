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
