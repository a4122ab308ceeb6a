/**
 * The default answerer (decisions.md section 7: "the default answerer needs no model and no
 * network: retrieval + extraction"). A question is answered from the documentation in two steps:
 *
 * 1. {@link retrieveSections}: the question's topic words (question-terms.ts) are searched in the
 *    deployment's index (the same index and reader filter as search), hits carrying their
 *    section's text, and the sections found are ranked by how much of the question they hold
 *    (retrieval.ts);
 * 2. {@link composeFromSections}: when none of the best ranked sections with text holds
 *    {@link MIN_COVERAGE} of the question's weighted topic words (rare words weigh most, words the
 *    docs never use and missing names more still), the answer says plainly that this is not in the
 *    docs ({@link NOT_IN_DOCS_ANSWER}, `answered: false`, a content gap for the caller to count).
 *    Otherwise the best passages of the best one to three sections (sentences.ts: sentences, list
 *    items, table rows, whole procedures, code blocks with the sentence introducing them) make the
 *    answer, each section's passages followed by its citation `[n]`.
 *
 * Retrieval and composition are synchronous and take a few milliseconds, so the first words of a
 * streamed answer leave at once. The LLM path (llm.ts) writes its answer from the same sections.
 */
import type { SearchIndex } from '@quire/shared/search/types';
import { questionTerms } from './question-terms';
import { findSections, matchSection, TermMatcher, type Candidate } from './retrieval';
import { pickPassages } from './sentences';

/** A retrieved section the answer may cite (retrieval.ts `Candidate`: the section's plain text and the index's score). */
export type RetrievedSection = Candidate;

/** What the default answerer composed. */
export interface ComposedAnswer {
  /** the answer with bracketed citations `[1]`, `[2]` naming `sources` by position (1-based) */
  text: string;
  /** the sections cited, in citation order */
  sources: RetrievedSection[];
  /** false when the docs held no answer (the text then says so plainly; a content gap is counted) */
  answered: boolean;
}

/** Options of {@link composeAnswer}. */
export interface ComposeOptions {
  /** whether the reader may read a record with these audience tags */
  canRead?: (audience: readonly string[]) => boolean;
  /** only sections of this language division (docs.json `navigation.languages` code); absent: every language */
  language?: string;
}

/** The answer to a question the documentation does not answer (the Ask AI panel shows it as is). */
export const NOT_IN_DOCS_ANSWER = 'That is not in the docs: I found no page that answers this question. Try rephrasing it, or search the documentation.';

/** Sections retrieved per question (before the reader's access filter of the caller). */
export const RETRIEVED_SECTIONS = 8;
/**
 * Share of the question's weighted topic words the best section must hold to count as an answer: the middle of the gap
 * between the best coverage of the development set's questions the docs do not answer (0.39) and the lowest of those they
 * do (0.49), over the three shared corpora (server/test/chat/questions.ts); never set from the held-out set.
 */
const MIN_COVERAGE = 0.44;
/** The best ranked sections looked at for one covering the question (the answer's first source). */
const DECIDING_SECTIONS = 4;
/** Sections cited at most. */
const MAX_CITED = 3;
/** A further section is cited when it ranks at least this share of the best one. */
const FOLLOWER_RANK = 0.75;

/**
 * The sections of `index` that best match `question` for a reader, best first, with their text
 * (retrieval.ts).
 * @param options.canRead the reader's audience filter (absent: public sections only)
 * @param options.limit sections wanted (default {@link RETRIEVED_SECTIONS})
 */
export function retrieveSections(question: string, index: SearchIndex, options: ComposeOptions & { limit?: number } = {}): RetrievedSection[] {
  return findSections(questionTerms(question, index), index, options.limit ?? RETRIEVED_SECTIONS, {
    canRead: options.canRead,
    language: options.language,
  }).map((c) => ({
    path: c.path,
    title: c.title,
    ...(c.section !== undefined ? { section: c.section } : {}),
    ...(c.anchor !== undefined ? { anchor: c.anchor } : {}),
    text: c.text,
    score: Math.round(c.rank * 1000) / 1000,
  }));
}

/**
 * Composes the answer to `question` from `sections` (already restricted to what the reader may
 * read, best first); `index` gives the words' weights. See the module comment.
 */
export function composeFromSections(question: string, sections: readonly RetrievedSection[], index: Pick<SearchIndex, 'size' | 'documentFrequency' | 'similarTerms'>): ComposedAnswer {
  const terms = questionTerms(question, index);
  const unanswered: ComposedAnswer = { text: NOT_IN_DOCS_ANSWER, sources: [], answered: false };
  if (terms.length === 0 || sections.length === 0) return unanswered;
  const matcher = new TermMatcher(terms);
  // a section with no sentence to quote (a reference page's bare title) answers nothing
  const ranked = sections
    .filter((section) => section.text.trim().length > 0)
    .map((section, i) => ({ section, ...matchSection(matcher, section), i }))
    .sort((a, b) => b.rank - a.rank || a.i - b.i);
  // the best ranked section that covers the question answers it: a section ranked first for its title may hold less of it
  const best = ranked.slice(0, DECIDING_SECTIONS).find((r) => r.coverage >= MIN_COVERAGE);
  if (!best) return unanswered;
  // further sources come from other pages: a second section of a cited page adds little the first did not say
  const cited = [best];
  for (const r of ranked) {
    if (cited.length >= MAX_CITED) break;
    if (r.rank >= FOLLOWER_RANK * best.rank && r.coverage >= MIN_COVERAGE && !cited.some((c) => c.section.path === r.section.path)) cited.push(r);
  }
  const parts: string[] = [];
  const sources: RetrievedSection[] = [];
  for (const { section } of cited) {
    sources.push(section);
    parts.push(withCitation(pickPassages(matcher, section, sources.length === 1 ? 3 : 1), sources.length));
  }
  return { text: parts.join('\n\n'), sources, answered: true };
}

/** `passages` (Markdown lines) with the citation `[n]` after their last line outside a code block. */
function withCitation(passages: string, n: number): string {
  const lines = passages.split('\n');
  let inCode = false;
  let last = -1;
  lines.forEach((line, i) => {
    if (/^\s*```/.test(line)) inCode = !inCode;
    else if (!inCode && line.trim()) last = i;
  });
  if (last < 0) return `${passages}\n\n[${n}]`;
  lines[last] += ` [${n}]`;
  return lines.join('\n');
}

/**
 * Answers `question` from `index` with no model and no network: retrieval + extraction (see the
 * module comment). Gated sections are used only when `options.canRead` opens them.
 */
export function composeAnswer(question: string, index: SearchIndex, options: ComposeOptions = {}): ComposedAnswer {
  return composeFromSections(question, retrieveSections(question, index, options), index);
}
