/**
 * Words of the search index: how text is cut into terms, the same way when a deployment's index is
 * built (records.ts, index.ts), when a query is read (query.ts) and when a snippet marks the words a
 * query matched (snippet.ts). A term is a run of letters, digits and combining marks, lower-cased with
 * diacritics removed (`Éditer` → `editer`); camelCase words also give their parts (`maxAttempts` →
 * `maxattempts`, `max`, `attempts`); each Han, Hiragana or Katakana character is a term of its own
 * (those scripts put no spaces between words). A few English function words are not indexed.
 */

/** Longer runs (hashes, base64) are not terms. */
export const MAX_TERM_LENGTH = 40;

/** English function words left out of the index and of queries (a query of only these keeps them). */
export const STOP_WORDS: ReadonlySet<string> = new Set(
  'a an and are as at be by for from how i if in into is it its of on or our so that the their then there these this to was we what when where which who will with you your'.split(' '),
);

/**
 * Words of questions that carry no topic (besides {@link STOP_WORDS}): question words, auxiliaries, pronouns and everyday
 * verbs, adjectives and adverbs a reader wraps a question in. A query written as a sentence (search, {@link queryTerms}) and
 * the assistant's questions (server/src/chat/question-terms.ts) leave them out.
 */
export const QUESTION_WORDS: ReadonlySet<string> = new Set(
  ('about above after again against all almost along already also although always am among another any anybody anyone anything anyway anywhere ' +
    'around away back because become been before behind being below besides best better between both but can cannot could ' +
    'did do does doing done down during each easily easy either else enough even ever every everything exactly example far few ' +
    'find first fine following get gets getting give given gives go goes going gone good got great had happen happens has have having he her here ' +
    'herself him himself his how however instead just keep keeps kept know known last later least let lets like likely little look looking lot lots ' +
    'made main make makes making many may maybe me mean means might mine more most mostly much must my myself near need needed needs never next nice ' +
    'no nobody none nor not nothing now of off often ok okay once one ones only onto other others otherwise ought ourselves out over own ' +
    'part per perhaps place please possible pretty probably proper properly put puts quite rather really right same say says see seem seems ' +
    'several she should show simply since some somebody someone something sometimes somewhere soon still such sure take takes taking tell than thank thanks ' +
    'them themselves they thing things think those though through thus till together too took toward towards try trying turn turned turns ' +
    'under unless until up upon us use used uses using usually various very via want wanted wants way ways well went were whatever whenever ' +
    'whether while whole whom whose why within without work works would yes yet yourself yourselves').split(' '),
);

/** One word of a text: where it is and the terms it gives. */
export interface TokenSpan {
  /** UTF-16 offsets into the text: `text.slice(start, end)` is the word as written */
  start: number;
  end: number;
  /** the folded word first, then its camelCase parts (none for a plain word) */
  terms: string[];
}

const WORD_RE = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]|(?:(?![\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}])[\p{L}\p{N}\p{M}])+/gu;
const NON_ASCII_RE = /[\u0080-\uffff]/;
const MARKS_RE = /\p{M}+/gu;
const CAMEL_RE = /[a-z][A-Z]|[A-Z]{2}[a-z]|[a-zA-Z]\d|\d[a-zA-Z]/;
const CAMEL_PART_RE = /[A-Z]?[a-z]+|[A-Z]+(?![a-z])|\d+/g;

/** A word as a term: lower case, compatibility-decomposed, combining marks removed. */
export function foldTerm(word: string): string {
  const lower = word.toLowerCase();
  return NON_ASCII_RE.test(lower) ? lower.normalize('NFKD').replace(MARKS_RE, '') : lower;
}

/** The terms one written word gives (see the module comment); empty for a word too long to be a term. */
export function wordTerms(word: string): string[] {
  if (word.length > MAX_TERM_LENGTH) return [];
  const folded = foldTerm(word);
  if (!folded) return [];
  return folded === word || !CAMEL_RE.test(word) ? [folded] : withParts(word, folded);
}

/** `folded` and the camelCase parts of `word`. */
function withParts(word: string, folded: string): string[] {
  const out = [folded];
  for (const p of word.match(CAMEL_PART_RE) ?? []) {
    const t = foldTerm(p);
    if (t && t !== folded && !out.includes(t)) out.push(t);
  }
  return out;
}

/** Words of ASCII-only text: for such text the same words as {@link WORD_RE}, found several times faster. */
const ASCII_WORD_SOURCE = '[A-Za-z0-9]+';

/**
 * Every word of `text` in order, with its position and terms (stop words included). Text without
 * non-ASCII characters (most documentation) is cut by an ASCII pattern that finds the same words as
 * the Unicode one.
 */
export function* tokenSpans(text: string, from = 0): Generator<TokenSpan> {
  const re = NON_ASCII_RE.test(text) ? new RegExp(WORD_RE.source, 'gu') : new RegExp(ASCII_WORD_SOURCE, 'g');
  re.lastIndex = from;
  let m: RegExpExecArray | null;
  while ((m = re.exec(text))) {
    const terms = wordTerms(m[0]);
    if (terms.length) yield { start: m.index, end: m.index + m[0].length, terms };
  }
}

/**
 * The terms of `text` to index, in order, repeats kept (the index ranks a term by where it first
 * appears), stop words left out unless `withStopWords` (a caller that looks every term up anyway
 * drops them itself).
 */
export function indexTerms(text: string, withStopWords = false): string[] {
  const stop = withStopWords ? NO_WORDS : STOP_WORDS;
  const out: string[] = [];
  if (NON_ASCII_RE.test(text)) {
    const re = new RegExp(WORD_RE.source, 'gu');
    let m: RegExpExecArray | null;
    while ((m = re.exec(text))) pushTerms(m[0], foldTerm(m[0]), out, stop);
    return out;
  }
  // ASCII text (most docs): words are runs of letters and digits, scanned by hand (faster than a RegExp)
  let start = -1;
  let upper = false;
  for (let i = 0; i <= text.length; i++) {
    const c = i < text.length ? text.charCodeAt(i) : 32;
    const lower = c >= 97 && c <= 122;
    const isUpper = c >= 65 && c <= 90;
    if (lower || isUpper || (c >= 48 && c <= 57)) {
      if (start < 0) {
        start = i;
        upper = false;
      }
      if (isUpper) upper = true;
    } else if (start >= 0) {
      const word = text.slice(start, i);
      pushTerms(word, upper ? word.toLowerCase() : word, out, stop);
      start = -1;
    }
  }
  return out;
}

const NO_WORDS: ReadonlySet<string> = new Set();

/** Appends the terms of `word` (folded: `folded`) that are not in `stop` to `out`. */
function pushTerms(word: string, folded: string, out: string[], stop: ReadonlySet<string>): void {
  if (word.length > MAX_TERM_LENGTH || !folded) return;
  if (folded === word || !CAMEL_RE.test(word)) {
    if (!stop.has(folded)) out.push(folded);
  } else for (const t of withParts(word, folded)) if (!stop.has(t)) out.push(t);
}

/** The terms of a query (see {@link indexTerms}). */
export interface QueryTerms {
  /** distinct terms in order, stop words removed unless the query has nothing else */
  terms: string[];
  /** the query ends inside its last word (no space after it): that word is being typed, match it as a prefix */
  lastIsPartial: boolean;
}

/** Content terms from which a query reads as a sentence, whose {@link QUESTION_WORDS} are then left out (when two terms remain). */
const SENTENCE_TERMS = 5;

/**
 * Reads a query's text: at most `maxChars` characters and `maxTerms` terms are considered; stop words are left out, and
 * question words too when the query is a sentence ({@link SENTENCE_TERMS}).
 */
export function queryTerms(q: string, maxChars = 200, maxTerms = 10): QueryTerms {
  const text = q.slice(0, maxChars);
  const all: string[] = [];
  for (const span of tokenSpans(text)) {
    // a camelCase query word is searched as written (its parts only help documents that split it)
    const t = span.terms[0]!;
    if (!all.includes(t)) all.push(t);
  }
  const content = all.filter((t) => !STOP_WORDS.has(t));
  // a query written as a sentence ("how do I keep my key out of the image?") is searched by its topic words only
  const topical = content.length >= SENTENCE_TERMS ? content.filter((t) => !QUESTION_WORDS.has(t)) : content;
  const kept = topical.length >= 2 ? topical : content;
  const terms = (kept.length ? kept : all).slice(0, maxTerms);
  const lastWord = all[all.length - 1];
  const lastIsPartial = lastWord !== undefined && terms[terms.length - 1] === lastWord && /[\p{L}\p{N}\p{M}]$/u.test(text);
  return { terms, lastIsPartial };
}
