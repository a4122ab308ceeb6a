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
  corpus: CorpusName;
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
  byCorpus: Record<CorpusName, Tally>;
  /** answerable questions citing an expected page, over all corpora */
  overall: Tally;
  /** unanswerable questions answered "not in the docs" */
  notInDocs: Tally;
  /** whether the bar is met: overall share >= {@link MIN_HIT_RATE} and every unanswerable one refused */
  passed: boolean;
}

/** The answerer's signature (composeAnswer by default; the bench and test pass nothing else). */
export type Answerer = (question: string, index: SearchIndex) => ComposedAnswer;

/**
 * Asks every question of questions.ts of the index of its corpus.
 * @param indexes the loaded index of each corpus (test/helpers/corpus.ts `corpusIndex`)
 */
export function scoreAnswers(indexes: Record<CorpusName, SearchIndex>, answer: Answerer = (q, index) => composeAnswer(q, index)): QualityReport {
  const ask = (corpus: CorpusName, question: string) => {
    const t = performance.now();
    const a = answer(question, indexes[corpus]);
    return { a, ms: performance.now() - t };
  };
  const answerable = ANSWERABLE.map(({ corpus, question, expected }): QuestionOutcome => {
    const { a, ms } = ask(corpus, question);
    const cited = a.sources.map((s) => s.path);
    return { corpus, question, expected, cited, answered: a.answered, text: a.text, ok: a.answered && cited.some((p) => expected.includes(p)), ms };
  });
  const unanswerable = UNANSWERABLE.map(({ corpus, question }): QuestionOutcome => {
    const { a, ms } = ask(corpus, question);
    return { corpus, question, cited: a.sources.map((s) => s.path), answered: a.answered, text: a.text, ok: !a.answered, ms };
  });
  const tally = (xs: QuestionOutcome[]): Tally => ({ right: xs.filter((x) => x.ok).length, total: xs.length });
  const byCorpus = Object.fromEntries(CORPORA.map((c) => [c, tally(answerable.filter((x) => x.corpus === c))])) as Record<CorpusName, Tally>;
  const overall = tally(answerable);
  const notInDocs = tally(unanswerable);
  const passed = overall.total > 0 && overall.right / overall.total >= MIN_HIT_RATE && notInDocs.right === notInDocs.total;
  return { answerable, unanswerable, byCorpus, overall, notInDocs, passed };
}

/** `right/total (pp%)`. */
export const formatTally = (t: Tally): string => `${t.right}/${t.total} (${t.total ? ((100 * t.right) / t.total).toFixed(0) : '0'}%)`;

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
