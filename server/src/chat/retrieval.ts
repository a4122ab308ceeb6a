/**
 * Retrieval for the assistant (answerer.ts): the sections of a deployment's search index that best
 * match a reader's question. A question is longer and looser than a search query, so the search
 * index is asked several times — the whole question, then each rarer topic word and its usual
 * synonyms in documentation alone — and the sections found (those with text: a bare reference
 * title has nothing to answer with) are ranked again by how much of the question each one holds
 * ({@link matchSection}: every topic word weighted as question-terms.ts says, more when it is in
 * the page title or the section heading, a little more when the text repeats it).
 */
import type { SearchIndex } from '@quire/shared/search/types';
import { indexTerms } from '@quire/shared/search/tokens';
import { stemOf, type QuestionTerm } from './question-terms';

/** One candidate section as retrieval ranks it. */
export interface SectionMatch {
  /**
   * share (0..1) of the question's weight found anywhere in the section (title, heading, text); a name found counts its plain
   * weight (`QuestionTerm.foundWeight`)
   */
  coverage: number;
  /** ranking score: coverage, with title and heading matches and repeats counting more */
  rank: number;
}

/** What a word found only in a section's text counts (1 in the page title, 0.9 in the heading); repeats add a little. */
const TEXT_MATCH = 0.45;

/** Hits asked of the index for the whole question, and for each word alone. */
const WHOLE_QUESTION_HITS = 24;
const WORD_HITS = 8;
/** Words searched alone at most, and how rare they must be (share of the index's sections holding them). */
const MAX_WORD_SEARCHES = 6;
const RARE_SHARE = 0.1;

/** A synonym's occurrence counts this much of the word's own. */
const SYNONYM_SHARE = 0.8;
/** Shortest question stem that also matches longer words starting with it (`configur` → `configuration`). */
const MIN_PREFIX = 5;
/** Characters of a section's text read when ranking it. */
const MAX_TEXT = 2_000;

/**
 * Counts a question's words in texts, one pass over each text's words: a word counts for a
 * question word when its stem is the question word's stem (or a synonym's, counting
 * {@link SYNONYM_SHARE}), or starts with a stem of {@link MIN_PREFIX}+ letters. The common words of
 * a multi-word name (`QuestionTerm.phrase`) count only as often as the whole name is written (its
 * words in order, separated by spaces or punctuation, each maybe with an ending: `Step Function`,
 * `GitHub-Actions`).
 */
export class TermMatcher {
  private readonly byStem = new Map<string, { i: number; share: number }[]>();
  private readonly heads = new Set<string>();
  /** document words already looked at, and what they count for (one question's matcher: its sections share most words) */
  private readonly byWord = new Map<string, { i: number; share: number }[]>();
  /** the multi-word names: all their words' positions in `terms`, those counted by the whole name only, a pattern finding the whole name */
  private readonly phrases: { name: readonly number[]; terms: number[]; re: RegExp }[] = [];

  constructor(readonly terms: readonly QuestionTerm[]) {
    terms.forEach((t, i) => {
      t.stems.forEach((stem, j) => {
        const list = this.byStem.get(stem) ?? [];
        list.push({ i, share: j === 0 ? 1 : SYNONYM_SHARE });
        this.byStem.set(stem, list);
        if (stem.length >= MIN_PREFIX) this.heads.add(stem.slice(0, MIN_PREFIX));
      });
      if (t.phrase && !this.phrases.some((p) => p.name === t.phrase)) {
        const words = t.phrase.map((k) => terms[k]!.term.replace(/(?<=\w{3})(?:es|s)$/, ''));
        this.phrases.push({ name: t.phrase, terms: [], re: new RegExp(`\\b${words.join('[a-z]*[^a-z0-9]+')}`, 'gi') });
      }
      if (t.phrase) this.phrases.find((p) => p.name === t.phrase)!.terms.push(i);
    });
  }

  /** What a document word counts for: question word positions and shares (empty: nothing), memoised per word. */
  private hitsOf(word: string): readonly { i: number; share: number }[] {
    let found = this.byWord.get(word);
    if (found) return found;
    found = [];
    const stem = stemOf(word);
    const add = (s: string) => {
      const hits = this.byStem.get(s);
      if (hits) found!.push(...hits);
    };
    add(stem);
    if (stem.length > MIN_PREFIX && this.heads.has(stem.slice(0, MIN_PREFIX))) for (let l = MIN_PREFIX; l < stem.length; l++) add(stem.slice(0, l));
    this.byWord.set(word, found);
    return found;
  }

  /** Occurrences of each question word (by position in `terms`) in `text`. */
  count(text: string): Float64Array {
    const out = new Float64Array(this.terms.length);
    const read = text.length > MAX_TEXT ? text.slice(0, MAX_TEXT) : text;
    for (const word of indexTerms(read)) for (const h of this.hitsOf(word)) out[h.i]! += h.share;
    for (const p of this.phrases) {
      const n = read.match(p.re)?.length ?? 0;
      for (const i of p.terms) out[i] = n;
    }
    return out;
  }
}

/** A section to match: its page title, heading and text. */
export interface MatchableSection {
  title: string;
  section?: string;
  text: string;
}

/** How well a section holds the question's words (see {@link SectionMatch}). */
export function matchSection(matcher: TermMatcher, section: MatchableSection): SectionMatch {
  const { terms } = matcher;
  const title = matcher.count(section.title);
  const heading = matcher.count(section.section ?? '');
  const text = matcher.count(section.text);
  let total = 0;
  let found = 0;
  let rank = 0;
  terms.forEach((t, i) => {
    if (!t.hint) total += t.weight;
    const inTitle = title[i]! > 0;
    const inHeading = heading[i]! > 0;
    const inText = text[i]!;
    if (!t.hint && (inTitle || inHeading || inText > 0)) found += t.foundWeight ?? t.weight;
    const m = Math.max(inTitle ? 1 : 0, inHeading ? 0.9 : 0, inText > 0 ? TEXT_MATCH + 0.08 * Math.min(3, inText - 1) : 0);
    rank += t.weight * m;
  });
  if (total === 0) return { coverage: 0, rank: 0 };
  return { coverage: found / total, rank: rank / total };
}

/** A section the index returned, with what ranking needs. */
export interface Candidate {
  path: string;
  title: string;
  section?: string;
  anchor?: string;
  /** the section's plain text */
  text: string;
  /** the index's score of the hit that found it first */
  score: number;
}

/**
 * The sections `index` finds for `terms`, best first by {@link matchSection} (ties: the order the
 * index found them in), at most `limit`.
 * @param filter.canRead the reader's audience filter (absent: public sections only)
 * @param filter.language only sections of this language division (absent: every language)
 */
export function findSections(
  terms: readonly QuestionTerm[],
  index: SearchIndex,
  limit: number,
  filter: { canRead?: ((audience: readonly string[]) => boolean) | undefined; language?: string | undefined } = {},
): (Candidate & SectionMatch)[] {
  const { canRead, language } = filter;
  if (terms.length === 0) return [];
  const found = new Map<string, Candidate>();
  const ask = (q: string, hits: number) => {
    for (const h of index.search({ q: `${q} `, limit: hits, withText: true, ...(canRead ? { canRead } : {}), ...(language !== undefined ? { language } : {}) })) {
      const key = `${h.path}#${h.anchor ?? ''}`;
      // a section with no text (a reference page's bare title) has nothing to answer with
      if (!found.has(key) && h.text?.trim()) found.set(key, { path: h.path, title: h.title, ...(h.section !== undefined ? { section: h.section } : {}), ...(h.anchor !== undefined ? { anchor: h.anchor } : {}), text: h.text ?? '', score: h.score });
    }
  };
  ask(terms.filter((t) => !t.hint).map((t) => t.term).join(' '), WHOLE_QUESTION_HITS);
  // words alone: the rarer ones (a common word alone finds nothing the whole question did not)
  const rare = terms.filter((t) => t.hint || t.df <= RARE_SHARE * index.size).sort((a, b) => b.weight - a.weight).slice(0, MAX_WORD_SEARCHES);
  for (const t of rare) for (const spelling of t.searchAs) ask(spelling, WORD_HITS);
  const matcher = new TermMatcher(terms);
  const ranked = [...found.values()].map((c, i) => ({ ...c, ...matchSection(matcher, c), i }));
  ranked.sort((a, b) => b.rank - a.rank || a.i - b.i);
  return ranked.slice(0, limit).map(({ i: _i, ...rest }) => rest);
}
