/**
 * What a query's terms become before the index is asked: each term with the index terms it may
 * match and how much each counts. The term itself counts fully; completions of a term being typed
 * ("instal" → "install") and of longer words ("webhook" → "webhooks") a little less, more the
 * closer their length. For a word of four or more letters that the index does not hold, the terms
 * one edit away ("instlal" → "install", "authentcation" → "authentication") count about half; a word of {@link MIN_TWO_EDIT_LENGTH} or
 * more letters with none one edit away is matched by the terms two edits away
 * ("authenticaton" → "authentication"), counting less. (Porter stemming of query and index words was
 * tried as a further expansion and left out: it lowered search's right page in the top 5 on the
 * development question set, server/test/chat/questions.ts.)
 */
import { queryTerms } from './tokens';
import type { TermMatch, Vocabulary } from './vocabulary';

/** Shortest word typos are tolerated in. */
export const MIN_TYPO_LENGTH = 4;
/** Shortest complete word also matched as the prefix of longer words. */
const MIN_COMPLETION_LENGTH = 3;
/** Completions of the word being typed / of a complete word. */
const PARTIAL_COMPLETIONS = 12;
const WORD_COMPLETIONS = 4;
/** Typo candidates per word. */
const TYPO_CANDIDATES = 3;
const TYPO_WEIGHT = 0.55;
/** Shortest word matched by terms two edits away (a shorter one is too often another word), and what they count. */
export const MIN_TWO_EDIT_LENGTH = 8;
const TWO_EDIT_WEIGHT = 0.4;

/** One query term and what it matches. */
export interface TermPlan {
  /** the query's term */
  term: string;
  /** index term → weight (0..1] */
  expansions: Map<string, number>;
}

/** The plan of a query: one entry per term (a term matching nothing has no expansions). */
export function planQuery(q: string, vocabulary: Vocabulary): TermPlan[] {
  const { terms, lastIsPartial } = queryTerms(q);
  return terms.map((term, i) => {
    const partial = lastIsPartial && i === terms.length - 1;
    const expansions = new Map<string, number>();
    const known = vocabulary.frequency(term) > 0;
    if (known) expansions.set(term, 1);
    if (partial || term.length >= MIN_COMPLETION_LENGTH) {
      const base = partial ? 0.9 : 0.7;
      // a one- or two-letter prefix says little and would reach most of the index: its few most frequent words only
      const k = partial ? Math.min(PARTIAL_COMPLETIONS, 1 + 2 * term.length) : WORD_COMPLETIONS;
      for (const c of vocabulary.completions(term, k)) {
        const w = base * (0.5 + (0.5 * term.length) / c.term.length);
        if ((expansions.get(c.term) ?? 0) < w) expansions.set(c.term, w);
      }
    }
    if (!known) {
      const { near, edits } = typoMatches(term, vocabulary, TYPO_CANDIDATES);
      for (const c of near) if (!expansions.has(c.term)) expansions.set(c.term, edits === 1 ? TYPO_WEIGHT : TWO_EDIT_WEIGHT);
    }
    return { term, expansions };
  });
}

/**
 * The index terms a word the index does not hold may be a typo of (see the module comment): for a word of
 * {@link MIN_TYPO_LENGTH}+ letters the terms one edit away, or, when there are none and the word has
 * {@link MIN_TWO_EDIT_LENGTH}+ letters, two edits away; the `k` held by most records first, and how many edits away they are.
 */
export function typoMatches(term: string, vocabulary: Vocabulary, k: number): { near: TermMatch[]; edits: 1 | 2 } {
  if (term.length < MIN_TYPO_LENGTH) return { near: [], edits: 1 };
  const near = vocabulary.neighbours(term, k);
  if (near.length > 0 || term.length < MIN_TWO_EDIT_LENGTH) return { near, edits: 1 };
  return { near: vocabulary.neighbours(term, k, 2), edits: 2 };
}
