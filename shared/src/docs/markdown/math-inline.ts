/**
 * Inline math `$...$` and the text of `<Latex>` (Mintlify: "inline LaTeX with single dollar signs", and
 * the Latex component). Neither engine has a math parser, and in MDX the `{}` of TeX would be read as
 * JavaScript, so before parsing each formula is rewritten into an inline code span whose text starts with
 * a private-use mark ({@link INLINE_MATH_MARK} for `$x$`, another for `<Latex>` text); the renderers turn
 * such spans into KaTeX ({@link inlineMathSource}).
 *
 * Dollar signs are taken as math with pandoc's rule, so prices stay text: the opening `$` is followed by
 * a non-space (and not `{`, a template literal), the closing `$` is preceded by a non-space and not
 * followed by a letter or digit (`$5 and $10` is text). Code fences, inline code, tags (JSX attribute
 * strings) and `\$` are left alone; a formula stays on one line (a `<Latex>` block may span lines).
 */

import type { TextEdit } from './text-edits';

/** First character of the text of an inline code span that is really inline math `$x$` (private use). */
export const INLINE_MATH_MARK = '\uE002';
/** The same for the text of a `<Latex>` element. */
const LATEX_MARK = '\uE004';

const FENCE = /^ {0,3}(`{3,}|~{3,})/;
const INLINE = /\$(?![\s{$])((?:\\.|[^$\\\n])*?[^\s\\])\$(?![\p{L}\p{N}])/gu;
/** An inline code span or an HTML/JSX tag (its attribute strings are not prose) at the start of a text. */
const OPAQUE = /^(?:(`+)[^]*?[^`]\1(?!`)|`+|<\/?[A-Za-z][^<>]*>)/;
const LATEX_OPEN = /^<Latex(?:\s[^<>]*)?>$/;
const LATEX_CLOSE = '</Latex>';

/** `tex` as an inline code span whose text starts with `mark` (fence longer than any backtick run inside). */
function codeSpan(mark: string, tex: string): string {
  const longest = Math.max(0, ...(tex.match(/`+/g) ?? []).map((r) => r.length));
  const fence = '`'.repeat(longest + 1);
  return `${fence}${mark}${tex}${tex.endsWith('`') ? ' ' : ''}${fence}`;
}

/** Marks the `$tex$` of `text` (which starts at offset `at` of the body), recording each replacement in `edits`. */
function markText(text: string, at: number, edits: TextEdit[] | undefined): string {
  if (!text.includes('$')) return text;
  return text.replace(INLINE, (m, tex: string, offset: number) => {
    if (offset > 0 && text[offset - 1] === '\\') return m;
    const span = codeSpan(INLINE_MATH_MARK, tex);
    edits?.push({ from: at + offset, to: at + offset + m.length, text: span });
    return span;
  });
}

/** Per-body scanning state: inside a `<Latex>` element; where replacements are recorded, if anywhere. */
interface LineState {
  latex: boolean;
  edits?: TextEdit[];
}

/**
 * `<Latex>` text up to its closing tag (or the line's end) as a marked span; returns the characters consumed.
 * `at`: the offset of `rest` in the body.
 */
function markLatex(rest: string, at: number, state: LineState): { out: string; used: number } {
  const close = rest.indexOf(LATEX_CLOSE);
  const body = close < 0 ? rest : rest.slice(0, close);
  const tex = body.trim();
  const lead = body.slice(0, body.length - body.trimStart().length);
  const span = tex ? codeSpan(LATEX_MARK, tex) : '';
  if (tex) state.edits?.push({ from: at + lead.length, to: at + lead.length + tex.length, text: span });
  const out = tex ? `${lead}${span}${body.slice(lead.length + tex.length)}` : body;
  if (close < 0) return { out, used: rest.length };
  state.latex = false;
  return { out: out + LATEX_CLOSE, used: close + LATEX_CLOSE.length };
}

/**
 * Rewrites one line outside code fences: `$tex$` and `<Latex>` text → marked code spans; inline code
 * spans and tags kept as they are (`<Card title="$5 or $x$">` is not math). `at`: the line's offset in the body.
 */
function markLine(line: string, at: number, state: LineState): string {
  if (!state.latex && !line.includes('$') && !line.includes('<Latex')) return line;
  let out = '';
  let text = '';
  /** where `text` starts in the line */
  let textAt = 0;
  let i = 0;
  while (i < line.length) {
    if (text === '') textAt = i;
    if (state.latex) {
      const latex = markLatex(line.slice(i), at + i, state);
      out += latex.out;
      i += latex.used;
      continue;
    }
    const rest = line.slice(i);
    const next = rest.search(/`|<\/?[A-Za-z]/);
    if (next < 0) {
      text += rest;
      break;
    }
    text += rest.slice(0, next);
    const opaque = OPAQUE.exec(rest.slice(next))?.[0];
    if (opaque === undefined) {
      // `a<b` inside a formula is text, not a tag
      text += rest[next];
      i += next + 1;
      continue;
    }
    out += markText(text, at + textAt, state.edits) + opaque;
    text = '';
    i += next + opaque.length;
    if (LATEX_OPEN.test(opaque)) state.latex = true;
  }
  return out + markText(text, at + textAt, state.edits);
}

/**
 * Marks the inline math and `<Latex>` text of a page body (see the module doc); lines keep their numbers.
 * Run after `fenceDisplayMath` (math-block.ts), so `$$` blocks are already fences.
 * @param edits when given, receives every replacement (text-edits.ts), in the body's coordinates
 */
export function markInlineMath(body: string, edits?: TextEdit[]): string {
  if (!body.includes('$') && !body.includes('<Latex')) return body;
  let fence: string | undefined;
  const state: LineState = { latex: false, edits };
  let next = 0;
  return body
    .split('\n')
    .map((line) => {
      const at = next;
      next += line.length + 1;
      const f = FENCE.exec(line);
      if (fence) {
        if (f && f[1]![0] === fence[0] && f[1]!.length >= fence.length && line.trim() === f[1]) fence = undefined;
        return line;
      }
      if (f && !state.latex) {
        fence = f[1];
        return line;
      }
      return markLine(line, at, state);
    })
    .join('\n');
}

/** The TeX of an inline code span's text when it is marked math (`$x$` or `<Latex>` text), else undefined. */
export function inlineMathSource(code: string): string | undefined {
  return code.startsWith(INLINE_MATH_MARK) || code.startsWith(LATEX_MARK) ? code.slice(1).replace(/ $/, '') : undefined;
}

/** Undoes {@link markInlineMath} in Markdown text (the page's `.md` export shows `$tex$` and `<Latex>` text again). */
export function unmarkInlineMath(markdown: string): string {
  if (!markdown.includes(INLINE_MATH_MARK) && !markdown.includes(LATEX_MARK)) return markdown;
  return markdown.replace(/(`+)([\uE002\uE004])([^\n]*?) ?\1/g, (_m, _f: string, mark: string, tex: string) =>
    mark === INLINE_MATH_MARK ? `$${tex}$` : tex,
  );
}
