/**
 * Heading case for the `capitalization` style rule (Vale's `$sentence` and `$title`). Words the
 * writer capitalized inside (GitHub, iOS), all-capital words (API, JSON) and the rule's exceptions
 * keep their spelling; everything else follows the style.
 */

/** Small words a title keeps in lower case unless first or last (Chicago-style short list). */
const SMALL_WORDS = new Set(['a', 'an', 'and', 'as', 'at', 'but', 'by', 'for', 'from', 'in', 'nor', 'of', 'on', 'or', 'the', 'to', 'vs', 'via', 'with']);

/** True for a word whose own spelling must stay: inner capitals, all capitals, digits, or an exception. */
function keepsSpelling(word: string, exceptions: ReadonlySet<string>): boolean {
  if (exceptions.has(word) || word === 'I') return true;
  if (/\d/.test(word)) return true;
  const letters = word.replace(/[^\p{L}]/gu, '');
  if (letters.length >= 2 && letters === letters.toUpperCase()) return true;
  return /\p{Ll}.*\p{Lu}/u.test(letters) || /^\p{Lu}{2,}/u.test(letters);
}

const upperFirst = (w: string) => w.replace(/\p{L}/u, (c) => c.toUpperCase());

/** `text` in sentence case: the first word capitalized, the others in lower case (kept spellings aside). */
export function toSentenceCase(text: string, exceptions: readonly string[] = []): string {
  const keep = new Set(exceptions);
  let first = true;
  return text.replace(/[\p{L}\p{N}][\p{L}\p{N}'’.-]*/gu, (word) => {
    const out = keepsSpelling(word, keep) ? word : first ? upperFirst(word.toLowerCase()) : word.toLowerCase();
    first = false;
    return out;
  });
}

/** `text` in title case: every word capitalized except small words inside the title (kept spellings aside). */
export function toTitleCase(text: string, exceptions: readonly string[] = []): string {
  const keep = new Set(exceptions);
  const words = [...text.matchAll(/[\p{L}\p{N}][\p{L}\p{N}'’.-]*/gu)];
  let i = 0;
  return text.replace(/[\p{L}\p{N}][\p{L}\p{N}'’.-]*/gu, (word) => {
    const edge = i === 0 || i === words.length - 1;
    i++;
    if (keepsSpelling(word, keep)) return word;
    const lower = word.toLowerCase();
    return !edge && SMALL_WORDS.has(lower) ? lower : upperFirst(lower);
  });
}
