/**
 * Benchmark (prints figures, asserts nothing): the visual engine's cost per keystroke on the desktop
 * benchmark's 2,000-line page — writing one paragraph's edited HTML back (replaceBlockText) and re-reading
 * the page into blocks, whole (parseVisualDocument) and around the edit (updateVisualDocument) — as median
 * and p95 over 60 rounds.
 * Run: npx tsx shared/test/docs/visual/bench-visual.ts
 */
import { applyTextEdits, blockEditableHtml, parseVisualDocument, replaceBlockText, updateVisualDocument } from '../../../src/docs/visual/index';

// the desktop benchmark's page generator (desktop/bench/generate-page.ts), loaded by URL: shared/ does not compile desktop/
const generator = new URL('../../../../desktop/bench/generate-page.ts', import.meta.url).href;
const { generatePage } = (await import(generator)) as { generatePage: (lines?: number) => string };

const ROUNDS = 60;
const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((xs.length * p) / 100))]!;

let source = generatePage(2000);
const splice: number[] = [];
const reparse: number[] = [];
const update: number[] = [];
let doc = parseVisualDocument(source);
for (let i = 0; i < ROUNDS; i++) {
  const para = doc.blocks.filter((b) => b.kind === 'paragraph')[i % 50]!;
  const html = `${blockEditableHtml(para)}x`;
  let t = performance.now();
  const edit = replaceBlockText(source, para, html, doc.style);
  splice.push(performance.now() - t);
  if (!edit) throw new Error('a typed character made no edit');
  t = performance.now();
  const next = updateVisualDocument(doc, source, edit);
  update.push(performance.now() - t);
  source = applyTextEdits(source, [edit]);
  t = performance.now();
  parseVisualDocument(source);
  reparse.push(performance.now() - t);
  doc = next;
}
const lines = source.split('\n').length;
console.log(`visual engine on a ${lines}-line page, ${ROUNDS} keystrokes:`);
console.log(`  replaceBlockText (HTML → Markdown → splice): median ${pct(splice, 50).toFixed(1)} ms, p95 ${pct(splice, 95).toFixed(1)} ms`);
console.log(`  parseVisualDocument (whole page):           median ${pct(reparse, 50).toFixed(1)} ms, p95 ${pct(reparse, 95).toFixed(1)} ms`);
console.log(`  updateVisualDocument (around the edit):     median ${pct(update, 50).toFixed(1)} ms, p95 ${pct(update, 95).toFixed(1)} ms`);
