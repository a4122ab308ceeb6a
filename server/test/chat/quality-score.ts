/**
 * Scores the default answerer (server/src/chat/answerer.ts `composeAnswer`) on the fixed question
 * set (questions.ts) — the quality bar stated there, shared by answer-quality.test.ts and
 * `pnpm bench:chat`:
 * - an answerable question is right when the answer is given (`answered: true`) and one of its
 *   expected pages is among the cited `sources`;
 * - an unanswerable question is right when the answer is "not in the docs" (`answered: false`).
 */
import type { SearchIndex } from '@quire/shared/search/types';
import { composeAnswer, type ComposedAnswer } from '../../src/chat/answerer';
import { ANSWERABLE, CORPORA, UNANSWERABLE, type CorpusName } from './questions';

/** Share of answerable questions that must cite an expected page (the quality bar of questions.ts). */
export const MIN_HIT_RATE = 0.8;

/** One question's outcome. */
export interface QuestionOutcome {
  /** the corpus asked (a development corpus of questions.ts or a held-out one of heldout-questions.ts) */
  corpus: string;
  question: string;
  /** expected page paths; absent for an unanswerable question */
  expected?: readonly string[];
  /** paths of the cited sources, in citation order */
  cited: string[];
  answered: boolean;
  /** the answer's text (to show a miss) */
  text: string;
  ok: boolean;
  /** wall time of `composeAnswer`, ms */
  ms: number;
}

/** Right over asked, for one group of questions. */
export interface Tally {
  right: number;
  total: number;
}

/** The score of a run over the question set. */
export interface QualityReport {
  answerable: QuestionOutcome[];
  unanswerable: QuestionOutcome[];
  /** answerable questions citing an expected page, per corpus */
  byCorpus: Record<string, Tally>;
  /** answerable questions citing an expected page, over all corpora */
  overall: Tally;
  /** unanswerable questions answered "not in the docs" */
  notInDocs: Tally;
  /** whether the bar is met: overall share >= {@link MIN_HIT_RATE} and every unanswerable one refused */
  passed: boolean;
}

/** The answerer's signature (composeAnswer by default; the bench and test pass nothing else). */
export type Answerer = (question: string, index: SearchIndex) => ComposedAnswer;

/** A question set over some corpora: answerable questions with their right pages, unanswerable ones. */
export interface QuestionSet {
  corpora: readonly string[];
  answerable: readonly { corpus: string; question: string; expected: readonly string[] }[];
  unanswerable: readonly { corpus: string; question: string }[];
}

/** The development set (questions.ts). */
export const DEVELOPMENT_SET: QuestionSet = { corpora: CORPORA, answerable: ANSWERABLE, unanswerable: UNANSWERABLE };

/**
 * Asks every question of questions.ts of the index of its corpus.
 * @param indexes the loaded index of each corpus (test/helpers/corpus.ts `corpusIndex`)
 */
export function scoreAnswers(indexes: Record<CorpusName, SearchIndex>, answer: Answerer = (q, index) => composeAnswer(q, index)): QualityReport {
  return scoreQuestionSet(DEVELOPMENT_SET, indexes, answer);
}

/**
 * Asks every question of `set` of the index of its corpus (the rules of the module comment).
 * @param indexes the loaded index of each corpus of `set` (test/helpers/corpus.ts `corpusIndex`); a missing one throws
 */
export function scoreQuestionSet(
  set: QuestionSet,
  indexes: Record<string, SearchIndex>,
  answer: Answerer = (q, index) => composeAnswer(q, index),
): QualityReport {
  const ask = (corpus: string, question: string) => {
    const index = indexes[corpus];
    if (!index) throw new Error(`no index for the corpus ${corpus}`);
    const t = performance.now();
    const a = answer(question, index);
    return { a, ms: performance.now() - t };
  };
  const answerable = set.answerable.map(({ corpus, question, expected }): QuestionOutcome => {
    const { a, ms } = ask(corpus, question);
    const cited = a.sources.map((s) => s.path);
    return { corpus, question, expected, cited, answered: a.answered, text: a.text, ok: a.answered && cited.some((p) => expected.includes(p)), ms };
  });
  const unanswerable = set.unanswerable.map(({ corpus, question }): QuestionOutcome => {
    const { a, ms } = ask(corpus, question);
    return { corpus, question, cited: a.sources.map((s) => s.path), answered: a.answered, text: a.text, ok: !a.answered, ms };
  });
  const tally = (xs: QuestionOutcome[]): Tally => ({ right: xs.filter((x) => x.ok).length, total: xs.length });
  const byCorpus = Object.fromEntries(set.corpora.map((c) => [c, tally(answerable.filter((x) => x.corpus === c))]));
  const overall = tally(answerable);
  const notInDocs = tally(unanswerable);
  const passed = overall.total > 0 && overall.right / overall.total >= MIN_HIT_RATE && notInDocs.right === notInDocs.total;
  return { answerable, unanswerable, byCorpus, overall, notInDocs, passed };
}

/**
 * Site search on the answerable questions of `set`: each question sent as the search query (as a reader types it into
 * the search box or `GET /v1/projects/{id}/search`), right when one of its expected pages is among the first `top` pages hit.
 */
export function scoreSearch(set: QuestionSet, indexes: Record<string, SearchIndex>, top = 5): Tally & { misses: string[] } {
  let right = 0;
  const misses: string[] = [];
  for (const { corpus, question, expected } of set.answerable) {
    const pages: string[] = [];
    for (const h of indexes[corpus]!.search({ q: question, limit: 20 })) if (!pages.includes(h.path)) pages.push(h.path);
    if (pages.slice(0, top).some((p) => expected.includes(p))) right++;
    else misses.push(`  [${corpus}] ${question}\n    top ${top}: ${pages.slice(0, top).join(', ') || '(nothing)'}\n    expected one of: ${expected.join(', ')}`);
  }
  return { right, total: set.answerable.length, misses };
}

/** `right/total (pp%)` (`0/0 (0%)` for none). */
export const formatTally = (t: Tally | undefined = { right: 0, total: 0 }): string => `${t.right}/${t.total} (${t.total ? ((100 * t.right) / t.total).toFixed(0) : '0'}%)`;

/** The misses of a report, one block each: question, what was cited (or "not in the docs"), what was expected. */
export function formatMisses(report: QualityReport): string {
  const lines: string[] = [];
  for (const m of report.answerable.filter((x) => !x.ok)) {
    lines.push(`  [${m.corpus}] ${m.question}\n    cited: ${m.answered ? m.cited.join(', ') || '(nothing)' : `not answered ("${m.text.slice(0, 80)}")`}\n    expected one of: ${m.expected!.join(', ')}`);
  }
  for (const m of report.unanswerable.filter((x) => !x.ok)) {
    lines.push(`  [${m.corpus}] ${m.question}\n    answered (should be "not in the docs"), citing: ${m.cited.join(', ') || '(nothing)'}\n    answer: ${m.text.slice(0, 160).replace(/\s+/g, ' ')}`);
  }
  return lines.join('\n');
}
