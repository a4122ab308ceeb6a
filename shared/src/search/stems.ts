/**
 * English stems of index terms, by Porter's algorithm (M. F. Porter, "An algorithm for suffix stripping", 1980; the
 * `stemmer` package): `retries`, `retrying` and `retried` → `retri`; `configure`, `configuration` and `configured` →
 * `configur`. Search matches a query word with every index term of the same stem (query.ts, vocabulary.ts), so the
 * index stores words as written and a stem is worked out on both sides at query time.
 */
import { stemmer } from 'stemmer';

/** Shortest term stemmed (shorter ones — `js`, `id`, `ui` — are names more often than inflected words). */
const MIN_STEMMED = 3;
const ASCII_LETTERS_RE = /^[a-z]+$/;

/**
 * The Porter stem of a folded index term (tokens.ts `foldTerm`); a term with digits or non-ASCII letters, or shorter
 * than {@link MIN_STEMMED}, is its own stem (Porter's rules are for English words).
 */
export function stemTerm(term: string): string {
  return term.length < MIN_STEMMED || !ASCII_LETTERS_RE.test(term) ? term : stemmer(term);
}
