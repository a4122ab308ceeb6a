/**
 * Passages of a documentation section for the default answerer (answerer.ts): which of its
 * sentences, list items, table rows or procedures answer a question best. Section text is the search
 * record's plain text, one block a line (shared/src/search/markdown-text.ts: paragraphs, items, numbered
 * steps, table rows, code blocks), so a procedure is quoted whole, a table row with its header, a code
 * block with the sentence introducing it, and prose sentences that read as code are left out.
 */
import type { RetrievedSection } from './answerer';
import { textBlocks } from '@quire/shared/search/markdown-text';
import type { TermMatcher } from './retrieval';

/** Longest sentence quoted, in characters (longer ones are cut at a word). */
const MAX_SENTENCE = 320;
/** Shortest sentence worth quoting on its own, in characters. */
const MIN_SENTENCE = 25;

/** The sentences of `text`, in order: split after `.`, `!` or `?` before a capital or a digit, at line breaks, and before code (`import`, `const`, `//`...). */
export function splitSentences(text: string): string[] {
  return text
    .split(/(?<=[.!?])\s+(?=["'(`[]?[A-Z0-9])|\n+|\s(?=(?:import|export|const|let|await|return|function|npx|npm|pnpm|yarn)\s)|\s(?=\/\/)/)
    .map((s) => s.replace(/\s+/g, ' ').trim())
    .filter((s) => s.length > 0);
}

/** Share of a sentence's characters that are code punctuation. */
function codeShare(sentence: string): number {
  const code = sentence.match(/[{}();=<>[\]|&$]/g)?.length ?? 0;
  return code / Math.max(1, sentence.length);
}

/** Whether a sentence reads as code rather than prose (braces, statement ends, comments, much punctuation). */
function looksLikeCode(sentence: string): boolean {
  return /[{};]|^\/\/|=>/.test(sentence) || codeShare(sentence) >= 0.04;
}

/** A sentence cut to {@link MAX_SENTENCE} characters at a word, with an ellipsis. */
function capped(sentence: string): string {
  if (sentence.length <= MAX_SENTENCE) return sentence;
  const cut = sentence.slice(0, MAX_SENTENCE);
  const space = cut.lastIndexOf(' ');
  return `${cut.slice(0, space > MAX_SENTENCE / 2 ? space : MAX_SENTENCE)}…`;
}

/** A line of code that reads as a Markdown fence. */
const FENCE_LINE = /^\s*```/m;
/** A procedure (numbered steps) quoted whole has at most this many steps. */
const MAX_STEPS = 10;
/** Lines of a code block quoted at most. */
const MAX_CODE_LINES = 20;
/** Characters of one section's quoted passages, past the first one. */
const MAX_PASSAGES_CHARS = 1_400;

/** One thing an answer can quote: a sentence, a list item, a table row or a whole procedure, with the code block that follows. */
interface Passage {
  /** position in the section (block order, then sentence order) */
  at: number;
  /** the last block it holds */
  end: number;
  /** Markdown lines quoted (a sentence, `- item`, `1. step` lines); sentences of one paragraph are joined with a space */
  lines: string[];
  /** the text its score is read from */
  scored: string;
  /** the code block following it (kept whole), if any */
  code?: string;
  /** a sentence: consecutive chosen sentences of one paragraph read as one */
  paragraph?: number;
  /** readable enough to quote (not code-like, not a fragment) */
  quotable: boolean;
}

/** A table row as a list item: `Header: cell — Header: cell` when the table has a header, else the cells. */
function rowLine(cells: string[], header: string[] | undefined): string {
  const parts = cells.map((c, k) => (header?.[k] && c ? `${header[k]}: ${c}` : c)).filter((c) => c);
  return `- ${capped(parts.join(' — '))}`;
}

/** The passages of a section's text (shared markdown-text.ts blocks), in order. */
function passagesOf(text: string): Passage[] {
  const blocks = textBlocks(text);
  const out: Passage[] = [];
  let header: string[] | undefined;
  for (let b = 0; b < blocks.length; b++) {
    const block = blocks[b]!;
    const at = b * 100;
    if (block.kind === 'code') {
      const prev = out.at(-1);
      // code holding fence lines of its own (a page's mismatched fences) cannot be quoted as one block
      if (prev && prev.code === undefined && prev.end === b - 1 && !FENCE_LINE.test(block.text)) prev.code = block.text;
      continue;
    }
    if (block.kind === 'paragraph') {
      splitSentences(block.text).forEach((sentence, k) => {
        const quotable = sentence.length >= MIN_SENTENCE && !looksLikeCode(sentence);
        out.push({ at: at + k, end: b, lines: [capped(sentence)], scored: sentence, paragraph: b, quotable });
      });
      continue;
    }
    if (block.kind === 'item') {
      out.push({ at, end: b, lines: [`- ${capped(block.text)}`], scored: block.text, quotable: block.text.length >= 10 && !looksLikeCode(block.text) });
      continue;
    }
    if (block.kind === 'row') {
      const cells = block.text.split('\t');
      if (block.header) {
        header = cells;
        continue;
      }
      out.push({ at, end: b, lines: [rowLine(cells, header)], scored: block.text, quotable: cells.some((c) => c.length >= 3) });
      continue;
    }
    // a procedure: its steps and what they hold (paragraphs and code between steps) quoted whole
    const lines: string[] = [];
    const scored: string[] = [];
    let n = 0;
    let end = b;
    for (let k = b; k < blocks.length; k++) {
      const x = blocks[k]!;
      if (x.kind === 'step') {
        n++;
        if (n <= MAX_STEPS) lines.push(`${n}. ${capped(x.text)}`);
        scored.push(x.text);
        end = k;
      } else if (x.kind === 'code' || x.kind === 'paragraph') {
        // held by the procedure only when another step follows
        if (!blocks.slice(k + 1).some((y) => y.kind === 'step') || blocks.slice(k + 1).findIndex((y) => y.kind === 'step') > 1) break;
        const quotable = !(x.kind === 'code' && FENCE_LINE.test(x.text));
        if (n <= MAX_STEPS && quotable) lines.push(x.kind === 'code' ? codeFence(x.text, '   ') : `   ${capped(x.text)}`);
        scored.push(x.text);
        end = k;
      } else break;
    }
    out.push({ at, end, lines, scored: scored.join(' '), quotable: true });
    b = end;
  }
  return out;
}

/** A code block as a fenced Markdown block, cut at {@link MAX_CODE_LINES} lines, each line after `indent`. */
function codeFence(code: string, indent = ''): string {
  const lines = code.split('\n');
  const kept = lines.length > MAX_CODE_LINES ? [...lines.slice(0, MAX_CODE_LINES), '…'] : lines;
  return [`${indent}\`\`\``, ...kept.map((l) => indent + l), `${indent}\`\`\``].join('\n');
}

/** The weight of the question's words found in `text`. */
function scoreOf(matcher: TermMatcher, text: string): number {
  const counts = matcher.count(text);
  let score = 0;
  matcher.terms.forEach((t, k) => {
    if (counts[k]! > 0) score += t.weight;
  });
  return score;
}

/**
 * What of `section` answers the question best, as Markdown: up to `max` passages (sentences, list items, table rows as
 * items, or a procedure's numbered steps kept whole), the ones holding more of the question's weighted words first, in
 * their order in the section; a passage introducing a code block (a sentence ending in `:`) brings the block whole; code-
 * like and very short sentences are left out. The section's first readable passage when none holds a word (its title or
 * heading matched). Sentences of one paragraph are joined by a space, other passages put on lines of their own.
 */
export function pickPassages(matcher: TermMatcher, section: Pick<RetrievedSection, 'text'>, max: number): string {
  const passages = passagesOf(section.text);
  const readable = passages.filter((p) => p.quotable);
  const scored = readable.map((p, i) => {
    const own = scoreOf(matcher, p.scored);
    // the code it introduces counts a little: an identifier the question names
    const code = p.code ? 0.3 * scoreOf(matcher, p.code) : 0;
    // earlier passages of a section usually state what it is about; one ending in ':' without its code says little
    const intro = p.lines[0]!.endsWith(':') && !p.code ? 0.5 : 1;
    return { p, i, score: (own + code) * (1 - Math.min(0.3, i * 0.03)) * intro };
  });
  let chosen = scored.filter((x) => x.score > 0).sort((a, b) => b.score - a.score || a.i - b.i);
  if (chosen.length === 0) chosen = scored.slice(0, 1);
  if (chosen.length === 0 && passages.length > 0) chosen = [{ p: passages[0]!, i: 0, score: 0 }];
  const kept: Passage[] = [];
  let chars = 0;
  for (const { p } of chosen) {
    if (kept.length >= max) break;
    const size = p.lines.join('\n').length + (p.code?.length ?? 0);
    if (kept.length > 0 && chars + size > MAX_PASSAGES_CHARS) continue;
    kept.push(p);
    chars += size;
  }
  kept.sort((a, b) => a.at - b.at);
  const out: string[] = [];
  let last: Passage | undefined;
  for (const p of kept) {
    const text = p.lines.join('\n');
    if (last && last.paragraph !== undefined && last.paragraph === p.paragraph && !last.code) out[out.length - 1] += ` ${text}`;
    else out.push(text);
    if (p.code) out.push(codeFence(p.code));
    last = p;
  }
  return out.join('\n');
}
