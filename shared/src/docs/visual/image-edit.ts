/**
 * Edits of an image block (`![alt](url "title")`, CommonMark 0.31 section 6.4): its alt text or its URL
 * changed in place, the title, the brackets' spacing and the rest of the line kept as written.
 */
import type { TextEdit } from '../markdown/text-edits';
import { minimalEdit } from './splice';
import type { VisualBlock } from './types';

/** Where the alt text and the destination of an inline image lie in `text` (offsets into it, end exclusive). */
interface ImageParts {
  alt: { from: number; to: number };
  url: { from: number; to: number; angled: boolean };
}

/** The parts of the first inline image of `text`, or null when `text` does not start (after blanks) with `![`. */
function imageParts(text: string): ImageParts | null {
  const start = text.search(/\S/);
  if (start < 0 || !text.startsWith('![', start)) return null;
  let i = start + 2;
  let depth = 0;
  for (; i < text.length; i++) {
    const c = text[i];
    if (c === '\\') i++;
    else if (c === '[') depth++;
    else if (c === ']' && depth-- === 0) break;
  }
  if (text[i] !== ']' || text[i + 1] !== '(') return null;
  const alt = { from: start + 2, to: i };
  let p = i + 2;
  while (p < text.length && /\s/.test(text[p]!)) p++;
  if (text[p] === '<') {
    const close = text.indexOf('>', p);
    if (close < 0) return null;
    return { alt, url: { from: p + 1, to: close, angled: true } };
  }
  let q = p;
  let parens = 0;
  for (; q < text.length; q++) {
    const c = text[q]!;
    if (c === '\\') q++;
    else if (c === '(') parens++;
    else if (c === ')' && parens-- === 0) break;
    else if (/\s/.test(c)) break;
  }
  return { alt, url: { from: p, to: q, angled: false } };
}

/** Alt text as Markdown: one line, with the characters that would end the label or start JSX (`[ ] \ { } <`) escaped. */
function altMarkdown(alt: string): string {
  return alt.replace(/\s+/g, ' ').trim().replace(/[[\]\\{}<]/g, (c) => `\\${c}`);
}

/** A URL as a link destination: bare when it can be, else in angle brackets (spaces, unbalanced parentheses). */
function urlMarkdown(url: string, angled: boolean): { text: string; angled: boolean } {
  const clean = url.trim().replace(/[\r\n]+/g, '');
  let depth = 0;
  let balanced = true;
  for (const c of clean) {
    if (c === '(') depth++;
    else if (c === ')' && --depth < 0) balanced = false;
  }
  if (angled || /[\s<>]/.test(clean) || depth !== 0 || !balanced || clean === '') return { text: clean.replace(/[<>]/g, encodeURIComponent), angled: true };
  return { text: clean, angled: false };
}

/**
 * The edit setting the alt text and/or the URL of an image block (a paragraph holding one Markdown image,
 * {@link VisualBlock.image}), changing only those characters: the title and anything else on the line stay.
 * The alt text is written on one line with `[ ] \ { } <` escaped (CommonMark backslash escapes, so MDX
 * reads no JSX in it); a URL with spaces or unbalanced parentheses goes in angle brackets.
 * Returns null when the block's source is not an inline image (a reference image is read-only).
 * @param change the new alt text and/or URL; a field left out is kept
 */
export function setImage(source: string, block: Pick<VisualBlock, 'from' | 'to'>, change: { src?: string; alt?: string }): TextEdit | null {
  const text = source.slice(block.from, block.to);
  const parts = imageParts(text);
  if (!parts) return null;
  let url = text.slice(parts.url.from, parts.url.to);
  let angled = parts.url.angled;
  if (change.src !== undefined) ({ text: url, angled } = urlMarkdown(change.src, parts.url.angled));
  const alt = change.alt !== undefined ? altMarkdown(change.alt) : text.slice(parts.alt.from, parts.alt.to);
  const urlFrom = parts.url.angled ? parts.url.from - 1 : parts.url.from;
  const urlTo = parts.url.angled ? parts.url.to + 1 : parts.url.to;
  const destination = angled ? `<${url}>` : url;
  const rest = text.slice(urlTo);
  const needsSpace = rest !== '' && !/^[\s)]/.test(rest);
  const rebuilt = text.slice(0, parts.alt.from) + alt + text.slice(parts.alt.to, urlFrom) + destination + (needsSpace ? ' ' : '') + rest;
  return minimalEdit(source, block.from, block.to, rebuilt);
}
