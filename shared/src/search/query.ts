/**
 * What a query's terms become before the index is asked: each term with the index terms it may
 * match and how much each counts. The term itself counts fully; completions of a term being typed
 * ("instal" → "install") and of longer words ("webhook" → "webhooks") a little less, more the
 * closer their length; for a word of four or more letters that is no term of the index, the terms
 * one edit away ("instlal" → "install", "authentcation" → "authentication") count about half.
 */
import { queryTerms } from './tokens';
import type { Vocabulary } from './vocabulary';

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
        expansions.set(c.term, base * (0.5 + (0.5 * term.length) / c.term.length));
      }
    }
    if (!known && term.length >= MIN_TYPO_LENGTH) {
      for (const c of vocabulary.neighbours(term, TYPO_CANDIDATES)) if (!expansions.has(c.term)) expansions.set(c.term, TYPO_WEIGHT);
    }
    return { term, expansions };
  });
}
