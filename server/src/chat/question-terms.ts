/**
 * The words of a reader's question the assistant looks for (answerer.ts): the question's index
 * terms (shared/src/search/tokens.ts, so they match the search index's words) without the words
 * every question has ("how", "do", "can", "I"...), each with a crude stem so "retries", "retrying"
 * and "retry" count as one word ({@link stemOf}), its usual synonyms in documentation
 * (synonyms.ts), and a weight:
 * - rarer words in the documentation weigh more: the BM25 inverse document frequency from the
 *   index (`SearchIndex.documentFrequency`), so a word on most pages (the product's own name)
 *   weighs almost nothing, with the frequency of rare words smoothed ({@link RARE_SMOOTHING}) so an
 *   everyday word the docs happen to use once does not outweigh the rest of the question;
 * - names (`AWS`, `Kubernetes`) weigh more than plain words when a section lacks them;
 * - a word the documentation never uses weighs most (a name the docs never use, or the main verb of
 *   a how-question they never use, even more), so a question about it counts as not answered;
 * - an everyday English word ("yesterday", "people": SUBTLEX-US frequencies, english-frequency.ts) weighs less, and is
 *   not taken for a word the docs never use: it says little about which page answers;
 * - the common words of a multi-word name (`Step Functions`) count only where the whole name is.
 * A misspelt word is read as the index word one edit away ("diffrent" → "different"); the reader's own examples the docs
 * never hold (numbers, domains, possessive names: "since 2022", "docs.initech.io", "Initech's") are left out; a word the
 * docs never use is matched by the WordNet synonyms and derived forms they use (wordnet.ts). Phrases add hint words ("one at a time" →
 * `concurrency`) that raise a section holding them.
 */
import { QUESTION_WORDS, STOP_WORDS, tokenSpans } from '@quire/shared/search/tokens';
import type { SearchIndex } from '@quire/shared/search/types';
import { zipf } from './english-frequency';
import { phraseHints, synonymsOf } from './synonyms';
import { wordnetRelated } from './wordnet';

/** One word of a question. */
export interface QuestionTerm {
  /** the folded word as asked */
  term: string;
  /** its stem: what a document word must share with it ({@link stemOf}) */
  stem: string;
  /** how much it counts (idf; highest for a word the documentation never uses) */
  weight: number;
  /**
   * what the word counts when a section holds it, when less than {@link weight}: a name weighs more
   * missing than found (a section without it is about something else; one with it may only mention it)
   */
  foundWeight?: number;
  /** records holding the word or a word of its stem (0: the documentation never uses it) */
  df: number;
  /** the stems a document may hold it by: its own, then its synonyms' (synonyms.ts) */
  stems: string[];
  /** words to search the index with alone: the word and its synonyms that the index holds */
  searchAs: string[];
  /**
   * the positions (in the question's terms) of the words of the multi-word name this word belongs
   * to, in order (`Step Functions`): the word is a common one and counts only where the whole name
   * is written
   */
  phrase?: readonly number[];
  /** the word is written as a name (`AWS`, `GitHub`, `Kubernetes`, `9am`) */
  name?: boolean;
  /** a word a phrase of the question suggests (synonyms.ts `phraseHints`): it adds to a section's rank when found, and is never missed */
  hint?: boolean;
}

/**
 * Irregular English verb forms readers write and the base form documentation indexes them under
 * (`written` → `write`, `sent` → `send`): a question's "written in TypeScript" then finds pages
 * saying "write". General English, not one product's words.
 */
const IRREGULAR: ReadonlyMap<string, string> = new Map(
  Object.entries({
    began: 'begin', begun: 'begin', broke: 'break', broken: 'break', brought: 'bring', built: 'build', bought: 'buy',
    caught: 'catch', chose: 'choose', chosen: 'choose', came: 'come', dealt: 'deal', drew: 'draw', drawn: 'draw',
    fed: 'feed', felt: 'feel', fought: 'fight', found: 'find', forgot: 'forget', forgotten: 'forget', froze: 'freeze', frozen: 'freeze',
    hid: 'hide', hidden: 'hide', held: 'hold', hung: 'hang', kept: 'keep', knew: 'know', known: 'know', led: 'lead',
    lost: 'lose', meant: 'mean', paid: 'pay', ran: 'run', rang: 'ring', rode: 'ride', rose: 'rise', risen: 'rise', sent: 'send',
    shook: 'shake', shown: 'show', sang: 'sing', sold: 'sell', sought: 'seek', spent: 'spend', spun: 'spin',
    stole: 'steal', stolen: 'steal', stood: 'stand', stuck: 'stick', struck: 'strike', swore: 'swear', taught: 'teach', thrown: 'throw',
    threw: 'throw', told: 'tell', understood: 'understand', woke: 'wake', woken: 'wake', won: 'win', wore: 'wear', worn: 'wear',
    wrote: 'write', written: 'write',
  }),
);

/**
 * A crude English stem (the plural and -ed/-ing steps of Porter's stemmer, simplified): plural
 * endings off (`retries` → `retri`, `caches` → `cach`, `runs` → `run`), -ed and -ing off with a
 * doubled last consonant undone (`stored` → `stor`, `logging` → `log`), a final `y` as `i` and a
 * final `e` dropped (`retry` → `retri`, `store` → `stor`); irregular verb forms to their base form
 * first (`written` → `write`). Words with digits and words of three letters or fewer are kept.
 */
export function stemOf(term: string): string {
  let t = IRREGULAR.get(term) ?? term;
  if (t.length <= 3 || /\d/.test(t)) return t;
  if (t.endsWith('ies') && t.length > 4) t = `${t.slice(0, -3)}i`;
  else if (/(?:ss|sh|ch|x|z)es$/.test(t)) t = t.slice(0, -2);
  else if (t.endsWith('s') && !/(?:ss|us|is)$/.test(t)) t = t.slice(0, -1);
  if (t.length >= 6 && t.endsWith('ing') && /[aeiouy]/.test(t.slice(0, -3))) t = undoubled(t.slice(0, -3));
  else if (t.length >= 6 && t.endsWith('ed') && /[aeiouy]/.test(t.slice(0, -2))) t = undoubled(t.slice(0, -2));
  if (t.length > 3 && t.endsWith('y')) t = `${t.slice(0, -1)}i`;
  if (t.length > 3 && t.endsWith('e')) t = t.slice(0, -1);
  return t;
}

/** `stopp` → `stop`, `logg` → `log` (not `l`, `s`, `z`: `install`, `pass`; not below three letters: `add`). */
function undoubled(t: string): string {
  return t.length >= 4 && t[t.length - 1] === t[t.length - 2] && /[^aeiouylsz]/.test(t[t.length - 1]!) ? t.slice(0, -1) : t;
}

/** Spellings of a stem looked up in the index for its document frequency. */
function spellings(term: string, stem: string): string[] {
  const base = stem.endsWith('i') ? stem.slice(0, -1) : stem;
  return [...new Set([term, stem, `${stem}s`, `${stem}e`, `${stem}es`, `${stem}ed`, `${stem}ing`, `${base}y`, `${base}ies`, `${base}ied`, `${stem}ation`, `${stem}er`])];
}

/** Whether `term` is only a question word (never a topic). */
export function isQuestionWord(term: string): boolean {
  const base = IRREGULAR.get(term) ?? term;
  return STOP_WORDS.has(term) || QUESTION_WORDS.has(term) || QUESTION_WORDS.has(base);
}

/** A name (`AWS`, `Kubernetes`, `GitHub`) counts this much more than a plain word: a section that does not name it rarely answers. */
const NAME_FACTOR = 1.6;
/**
 * A name held by more than this share of the records is the product's own (`Pezzo` on a Pezzo
 * site): it says nothing about which page answers, so it counts as a plain (and, being frequent,
 * light) word.
 */
const PRODUCT_NAME_SHARE = 0.1;
/**
 * Pseudo-count added to a known word's document frequency, as a share of the records: a word in one
 * section of thousands is as likely an everyday word the docs happen to use once ("person", "mark")
 * as the question's topic, so rarity beyond this saturates (additive smoothing of the frequency).
 */
const RARE_SMOOTHING = 0.01;

/** Whether the word as written is a name: capitalised after the question's first word, or with inner capitals or digits. */
function isName(written: string, first: boolean): boolean {
  return /[A-Z].*[A-Z0-9]|[a-z][A-Z]|\d/.test(written) || (!first && /^[A-Z]/.test(written));
}

/**
 * Inverse document frequency of a word held by `df` of `n` records (the BM25 / Robertson–Spärck
 * Jones form, `ln(1 + (n − df + 0.5) / (df + 0.5))`, which falls to about 0 for a word on every
 * record), `smoothing` records added to `df` below.
 */
export function idf(df: number, n: number, smoothing = 0): number {
  return Math.log(1 + Math.max(0, n - df + 0.5) / (df + 0.5 + smoothing));
}

/** Zipf values (english-frequency.ts) from which a word counts as an everyday one, and from which it counts least. */
const EVERYDAY_ZIPF = 4;
const COMMONEST_ZIPF = 6;
/** What the commonest everyday word counts, as a share of its weight from the documentation alone. */
const COMMONEST_SHARE = 0.4;

/**
 * The share of its documentation weight a word keeps: 1 below {@link EVERYDAY_ZIPF} (rare and technical words), falling from
 * 1 at {@link EVERYDAY_ZIPF} to {@link COMMONEST_SHARE} at {@link COMMONEST_ZIPF} for everyday English words.
 */
function everydayShare(z: number): number {
  if (z < EVERYDAY_ZIPF) return 1;
  return Math.max(COMMONEST_SHARE, 1 - ((1 - COMMONEST_SHARE) * (z - EVERYDAY_ZIPF)) / (COMMONEST_ZIPF - EVERYDAY_ZIPF));
}

/** A WordNet synonym this common in everyday English or more ("take" for "remove") matches too much to stand for a word. */
const MAX_SYNONYM_ZIPF = 5;
/**
 * Stems of the words WordNet relates to a word the documentation never uses (wordnet.ts) that the documentation does use,
 * closest first: synonyms ("expiry" → `expir` of "expiration"), then derivationally related forms ("approves" →
 * "approval"); at most three, everyday words ({@link MAX_SYNONYM_ZIPF}) left out.
 */
function thesaurusStems(term: string, index: Pick<SearchIndex, 'documentFrequency'>): string[] {
  const out: string[] = [];
  const { synonyms, derived } = wordnetRelated(term);
  for (const w of [...synonyms, ...derived]) {
    if (out.length >= 3) break;
    if (zipf(w) < MAX_SYNONYM_ZIPF && (index.documentFrequency?.(w) ?? 0) > 0 && !out.includes(stemOf(w))) out.push(stemOf(w));
  }
  return out;
}

/** The weighted term of one word (see {@link QuestionTerm}). */
function weighed(term: string, stem: string, index: Pick<SearchIndex, 'size' | 'documentFrequency'>, name: boolean, hint: boolean): QuestionTerm {
  const n = Math.max(1, index.size);
  const frequency = (word: string, root: string) => {
    let df = 0;
    if (index.documentFrequency) for (const s of spellings(word, root)) df = Math.max(df, index.documentFrequency(s));
    return df;
  };
  const df = frequency(term, stem);
  const synonyms = synonymsOf(stem).length > 0 || df > 0 || name || hint ? synonymsOf(stem) : thesaurusStems(term, index);
  const searchAs = df > 0 ? [term] : [];
  for (const syn of synonyms) {
    if (searchAs.length >= 3) break;
    const word = [syn, `${syn}e`, `${syn}s`, `${syn.replace(/i$/, 'y')}`, `${syn}ing`].find((w) => (index.documentFrequency?.(w) ?? 0) > 0);
    if (word && !searchAs.includes(word)) searchAs.push(word);
  }
  // a word the docs never use but whose synonyms they do counts as a common word, not an unknown one
  const known = df > 0 ? df : searchAs.length > 0 ? Math.max(...searchAs.map((w) => frequency(w, stemOf(w)))) : 0;
  // a word the docs never use is not smoothed: it is what most often makes a question one the docs do not answer, unless it is
  // an everyday word ("yesterday", "employees"), which says little about the topic whether the docs use it or not
  const everyday = !name && !hint && zipf(term) >= EVERYDAY_ZIPF;
  const share = everyday ? everydayShare(zipf(term)) : 1;
  const weight = share * (known === 0 && !everyday ? idf(0, n) : idf(known, n, RARE_SMOOTHING * n));
  const factor = name && known <= PRODUCT_NAME_SHARE * n ? NAME_FACTOR : 1;
  return {
    term,
    stem,
    df: known,
    weight: factor * weight,
    ...(factor !== 1 ? { foundWeight: weight } : {}),
    stems: [stem, ...synonyms],
    searchAs,
    ...(name ? { name } : {}),
    ...(hint ? { hint } : {}),
  };
}

/** Words before a name that make it an example of the reader's own ("at Initech", "from Globex"; not "for": "an app for iOS" asks about iOS). */
const EXAMPLE_BEFORE: ReadonlySet<string> = new Set(['at', 'from', 'called', 'named']);

/**
 * Whether a word the documentation never uses is the reader's own example rather than the topic: a number or a word with
 * digits ("2022", "Q3", "8am"), a part of a domain, address or path ("docs.initech.io", "initech.com/docs"), a possessive
 * name ("Initech's"), or a name after {@link EXAMPLE_BEFORE} ("at Initech"). Other names the docs never use stay: they are
 * what a question the docs do not answer is usually about ("deploy to Netlify").
 */
function isExample(text: string, span: { start: number; end: number }, before: string | undefined, name: boolean): boolean {
  const word = text.slice(span.start, span.end);
  if (/\d/.test(word)) return true;
  if (/[\w-][.@/]$/.test(text.slice(Math.max(0, span.start - 2), span.start)) || /^[.@/][\w-]/.test(text.slice(span.end, span.end + 2))) return true;
  if (!name) return false;
  return /^['\u2019]s\b/.test(text.slice(span.end, span.end + 3)) || (before !== undefined && EXAMPLE_BEFORE.has(before));
}

/** Shortest question word corrected as a typo; shortest correction taken. */
const MIN_TYPO = 5;
const MIN_CORRECTION = 4;

/**
 * The index's word a misspelt question word most likely means ("diffrent" → "different", "measurment" → "measurement"): of
 * the terms one edit away (the search engine's own typo tolerance, `SearchIndex.similarTerms`), the one most records hold
 * that is not a question word; undefined for a short word or when none is near.
 */
function corrected(term: string, index: Pick<SearchIndex, 'similarTerms'>): string | undefined {
  if (term.length < MIN_TYPO || /\d/.test(term) || !index.similarTerms) return undefined;
  return index.similarTerms(term, 6).find((c) => c.term.length >= MIN_CORRECTION && !isQuestionWord(c.term))?.term;
}

/** Words after which a how-question's next word is its main verb ("how do I …", "how can we …", "how to …"). */
const HOW_AUXILIARIES: ReadonlySet<string> = new Set(['do', 'does', 'can', 'could', 'should', 'would', 'will', 'shall', 'may', 'might', 'must', 'to']);
const SUBJECTS: ReadonlySet<string> = new Set(['i', 'we', 'you', 'one', 'they']);

/**
 * The main verb of a how-question ("How do I *rotate* …", "How can we *cancel* …", "How to
 * *deploy* …"): the task the reader asks about. The word's position among `spans`, or -1.
 */
function mainVerbAt(words: readonly string[]): number {
  if (words[0] !== 'how' || !HOW_AUXILIARIES.has(words[1] ?? '')) return -1;
  const at = SUBJECTS.has(words[2] ?? '') ? 3 : 2;
  return at < words.length ? at : -1;
}

/**
 * A main verb the documentation never uses counts this much more: the docs do not name the task
 * asked about ("How do I *rotate* my API key?"), which a section holding the rest of the question
 * does not answer.
 */
const UNKNOWN_TASK_FACTOR = 2;

/** A word of a multi-word name held by more than this share of the records counts only where the whole name is written. */
const COMMON_IN_NAME_SHARE = 0.05;

/** Whether a word as written may start or continue a multi-word name (`Step Functions`, `GitHub Actions`): capitalised, not an all-capitals acronym. */
function isNameWord(written: string): boolean {
  return /^[A-Z][a-z]/.test(written);
}

/**
 * The topic words of `question` with their weights in `index` (distinct stems, in order; at most
 * 12), then the hints its phrases give (synonyms.ts `phraseHints`). Empty when the question has
 * no topic word (only question words). Adjacent capitalised words after the first word form a
 * multi-word name (`AWS Step Functions` → `step functions`): its words the docs use often count only
 * where the name is written whole ({@link QuestionTerm.phrase}).
 */
export function questionTerms(question: string, index: Pick<SearchIndex, 'size' | 'documentFrequency' | 'similarTerms'>): QuestionTerm[] {
  const out: QuestionTerm[] = [];
  const seen = new Set<string>();
  const text = question.slice(0, 500);
  // each word as written (`OpenAI` → `openai`), not its camelCase parts: those help documents, not questions
  const spans = [...tokenSpans(text)];
  const words = spans.map((s) => s.terms[0]!);
  const verbAt = mainVerbAt(words);
  /** the terms (positions in `out`) of the multi-word name being read, and where its last word ended */
  let name: { terms: number[]; end: number } | undefined;
  const closeName = () => {
    // a word of the name the docs use often ("step", "functions") is only part of the name; a rare one ("Gemini") names it alone
    if (name && name.terms.length >= 2) {
      for (const i of name.terms) if (out[i]!.df > COMMON_IN_NAME_SHARE * index.size) out[i] = { ...out[i]!, phrase: name.terms };
    }
    name = undefined;
  };
  for (let k = 0; k < spans.length && out.length < 12; k++) {
    const span = spans[k]!;
    const term = words[k]!;
    const written = text.slice(span.start, span.end);
    const topical = !isQuestionWord(term) && term.length >= 2;
    const stem = stemOf(term);
    const nameWord = k > 0 && topical && isNameWord(written) && !seen.has(stem);
    if (!nameWord || !name || !/^\s+$/.test(text.slice(name.end, span.start))) closeName();
    if (!topical || seen.has(stem)) continue;
    seen.add(stem);
    let t = weighed(term, stem, index, isName(written, k === 0), false);
    if (t.df === 0) {
      // an example the docs cannot hold ("since 2022", "for Initech", "docs.initech.io") says nothing about which page answers
      if (isExample(text, span, words[k - 1], t.name === true)) continue;
      const fixed = t.name ? undefined : corrected(term, index);
      if (fixed) {
        const fixedStem = stemOf(fixed);
        if (seen.has(fixedStem)) continue;
        seen.add(fixedStem);
        t = weighed(fixed, fixedStem, index, false, false);
      }
    }
    out.push(k === verbAt && t.df === 0 && !t.name ? { ...t, weight: t.weight * UNKNOWN_TASK_FACTOR } : t);
    if (nameWord) {
      name ??= { terms: [], end: span.end };
      name.terms.push(out.length - 1);
      name.end = span.end;
    }
  }
  closeName();
  if (out.length === 0) return out;
  for (const hint of phraseHints(text)) {
    const stem = stemOf(hint);
    if (seen.has(stem)) continue;
    seen.add(stem);
    out.push(weighed(hint, stem, index, false, true));
  }
  return out;
}
