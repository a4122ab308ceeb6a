/**
 * `npx tsx server/bench/chat-passages.ts [out.md]`: for a second reader's judgement, every answerable held-out question
 * (test/chat/heldout-questions.ts) that the default answerer answers citing a right page, with the answer's text (the
 * passages quoted and their citations) and the cited sections, written as a Markdown table with an empty
 * "answers the question?" column to fill in. Builds the held-out corpora as bench:chat does.
 */
import fs from 'node:fs';
import type { SearchIndex } from '@quire/shared/search/types';
import { composeAnswer } from '../src/chat/answerer';
import { builtCorpusRecords, closeBuilders, corpusIndex, HELDOUT_CORPUS_DIR } from '../test/helpers/corpus';
import { HELDOUT_ANSWERABLE, HELDOUT_CORPORA } from '../test/chat/heldout-questions';

const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\s*\n\s*/g, ' <br> ').slice(0, 700);

async function main(): Promise<void> {
  const indexes: Record<string, SearchIndex> = {};
  for (const name of HELDOUT_CORPORA) indexes[name] = await corpusIndex((await builtCorpusRecords(name, HELDOUT_CORPUS_DIR)).records);
  await closeBuilders();
  const rows = ['| # | corpus | question | cited | answer (passages quoted) | answers the question? |', '| --- | --- | --- | --- | --- | --- |'];
  let n = 0;
  for (const q of HELDOUT_ANSWERABLE) {
    const a = composeAnswer(q.question, indexes[q.corpus]!);
    if (!a.answered || !a.sources.some((s) => q.expected.includes(s.path))) continue;
    const cited = a.sources.map((s) => `${s.path}${s.anchor ? `#${s.anchor}` : ''}`).join(', ');
    rows.push(`| ${++n} | ${q.corpus} | ${cell(q.question)} | ${cited} | ${cell(a.text)} | |`);
  }
  const out = rows.join('\n');
  if (process.argv[2]) fs.writeFileSync(process.argv[2], `${out}\n`);
  else console.log(out);
}

main().catch((err: unknown) => {
  console.error(err);
  process.exitCode = 1;
});
