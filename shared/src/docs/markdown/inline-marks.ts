/**
 * Inline Markdown in component attributes written as plain strings (`<Step title="Run `init`">`,
 * `<Card title="The **fast** path">`): Mintlify shows such titles with their marks, so Quire renders
 * the inline marks only — code spans, strong and emphasis (CommonMark's delimiters `` ` ``, `**`/`__`,
 * `*`/`_`). Everything else is text: the input is HTML-escaped first, so no tag or entity the author
 * wrote survives as markup, and no link, image or HTML is ever produced.
 */
import { escapeHtml } from './html';

const STRONG = /(\*\*|__)(?=\S)([\s\S]*?\S)\1/g;
/** `*x*` anywhere, `_x_` only between word boundaries (snake_case names stay as written) */
const EMPHASIS = /\*(?=[^\s*])([^*]*?[^\s*])\*|(?<![\p{L}\p{N}_])_(?=[^\s_])([^_]*?[^\s_])_(?![\p{L}\p{N}_])/gu;

/** Strong and emphasis in an escaped text segment without code spans. */
function marks(escaped: string): string {
  return escaped
    .replace(STRONG, (_m, _d: string, inner: string) => `<strong>${inner}</strong>`)
    .replace(EMPHASIS, (_m, star: string | undefined, under: string | undefined) => `<em>${star ?? under}</em>`);
}

/**
 * HTML of a one-line text with inline Markdown marks: `` `code` `` → `<code>`, `**strong**` →
 * `<strong>`, `*em*` → `<em>`; the rest escaped. Unclosed delimiters stay as literal characters.
 * Code spans follow CommonMark: a run of N backticks closes at the next run of exactly N, and one
 * space on each side is stripped when both are there.
 */
export function inlineMarksHtml(text: string): string {
  let out = '';
  let plain = '';
  let i = 0;
  while (i < text.length) {
    if (text[i] !== '`') {
      plain += text[i++];
      continue;
    }
    let n = 0;
    while (text[i + n] === '`') n++;
    const fence = '`'.repeat(n);
    let close = text.indexOf(fence, i + n);
    while (close >= 0 && text[close + n] === '`') {
      let m = close;
      while (text[m] === '`') m++;
      close = text.indexOf(fence, m);
    }
    if (close < 0) {
      plain += fence;
      i += n;
      continue;
    }
    let code = text.slice(i + n, close);
    if (code.length > 2 && code.startsWith(' ') && code.endsWith(' ') && code.trim()) code = code.slice(1, -1);
    out += `${marks(escapeHtml(plain))}<code>${escapeHtml(code)}</code>`;
    plain = '';
    i = close + n;
  }
  return out + marks(escapeHtml(plain));
}

/** The text of {@link inlineMarksHtml}'s input without its marks (for ids and accessible labels). */
export function inlineMarksText(text: string): string {
  return text.replace(/`+([^`]*)`+/g, '$1').replace(STRONG, '$2').replace(EMPHASIS, (_m, a: string | undefined, b: string | undefined) => a ?? b ?? '');
}
