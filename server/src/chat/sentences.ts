/**
 * Sentences of a documentation section for the default answerer (answerer.ts): which of its
 * sentences answer a question best. Section text is the search
 * record's plain text (Markdown removed, code kept inline), so sentences that read as code are left
 * out of answers.
 */
import type { RetrievedSection } from './answerer';
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

/**
 * Up to `max` sentences of `section` that answer the question best, in their order in the section:
 * sentences holding more of its weighted words first, code-like and very short ones left out; the
 * section's first readable sentence when none holds a word (its title or heading matched).
 */
export function pickSentences(matcher: TermMatcher, section: RetrievedSection, max: number): string[] {
  const sentences = splitSentences(section.text);
  const readable = sentences.map((s, i) => ({ s, i })).filter(({ s }) => s.length >= MIN_SENTENCE && !looksLikeCode(s));
  const scored = readable.map(({ s, i }) => {
    const counts = matcher.count(s);
    let score = 0;
    matcher.terms.forEach((t, k) => {
      if (counts[k]! > 0) score += t.weight;
    });
    // earlier sentences of a section usually state what it is about; one ending in ':' introduces code left out
    return { s, i, score: score * (1 - Math.min(0.3, i * 0.03)) * (s.endsWith(':') ? 0.5 : 1) };
  });
  let chosen = scored.filter((x) => x.score > 0).sort((a, b) => b.score - a.score || a.i - b.i).slice(0, max);
  if (chosen.length === 0) chosen = readable.slice(0, 1).map(({ s, i }) => ({ s, i, score: 0 }));
  if (chosen.length === 0 && sentences.length > 0) chosen = [{ s: sentences[0]!, i: 0, score: 0 }];
  return chosen.sort((a, b) => a.i - b.i).map((x) => capped(x.s));
}
