/**
 * The assistant's quality bar (decisions.md section 7 "default answerer"): over the fixed question
 * set of questions.ts, asked of the three shared corpora built as real projects, the default
 * answerer (no model) cites an expected page for at least 80% of the answerable questions and
 * answers "not in the docs" for every unanswerable one.
 *
 * Building the three corpora takes about 35 s of the run (trigger-dev ~24 s, agentops ~7 s, pezzo
 * ~1 s on 2 cores); answering the 80 questions takes milliseconds.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SearchIndex } from '@quire/shared/search/types';
import { builtCorpusRecords, closeBuilders, corpusIndex } from '../helpers/corpus';
import { ANSWERABLE, CORPORA, UNANSWERABLE, type CorpusName } from './questions';
import { formatMisses, formatTally, MIN_HIT_RATE, scoreAnswers, type QualityReport } from './quality-score';

let report: QualityReport;

beforeAll(async () => {
  const indexes = {} as Record<CorpusName, SearchIndex>;
  for (const name of CORPORA) indexes[name] = await corpusIndex((await builtCorpusRecords(name)).records);
  await closeBuilders();
  report = scoreAnswers(indexes);
}, 300_000);

afterAll(async () => {
  await closeBuilders();
});

describe('the assistant answers the fixed question set', () => {
  it('holds at least 45 answerable questions (15 per corpus) and 10 unanswerable ones', () => {
    expect(ANSWERABLE.length).toBeGreaterThanOrEqual(45);
    for (const c of CORPORA) expect(ANSWERABLE.filter((q) => q.corpus === c).length, c).toBeGreaterThanOrEqual(15);
    expect(UNANSWERABLE.length).toBeGreaterThanOrEqual(10);
  });

  it(`cites an expected page for at least ${MIN_HIT_RATE * 100}% of the answerable questions`, () => {
    const { right, total } = report.overall;
    const summary = `cited an expected page for ${formatTally(report.overall)} (${CORPORA.map((c) => `${c} ${formatTally(report.byCorpus[c])}`).join(', ')})`;
    if (right / total < MIN_HIT_RATE) console.log(`${summary}; misses:\n${formatMisses({ ...report, unanswerable: [] })}`);
    expect(right / total, summary).toBeGreaterThanOrEqual(MIN_HIT_RATE);
  });

  it('answers "not in the docs" to every unanswerable question', () => {
    const wrong = report.unanswerable.filter((x) => !x.ok);
    if (wrong.length) console.log(`answered questions the docs do not answer:\n${formatMisses({ ...report, answerable: [] })}`);
    expect(wrong.map((x) => x.question)).toEqual([]);
    for (const x of report.unanswerable) expect(x.text.length, x.question).toBeGreaterThan(0);
  });
});
