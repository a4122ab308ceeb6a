/**
 * `pnpm bench:dev`: how quickly `quire-docs dev` shows an edit. Generates a site of `BENCH_DEV_PAGES`
 * pages (default 300; headings, a code block, links), starts the dev server on a free port, then saves
 * one page `BENCH_DEV_ROUNDS` times (default 10) and prints p50/max from the save to the `reload` event
 * and to the page served with the new text, beside the cold start (load and render every page).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { startDevServer } from '../src/dev/dev-server';

const PAGES = Number(process.env.BENCH_DEV_PAGES ?? 300);
const ROUNDS = Number(process.env.BENCH_DEV_ROUNDS ?? 10);

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-bench-dev-'));
const page = (i: number, word = 'first') =>
  `---\ntitle: Page ${i}\n---\n\n## Overview\n\nThe ${word} version of page ${i}. See [the next page](/pages/p${(i + 1) % PAGES}).\n\n` +
  '```ts\nconst answer: number = 42;\n```\n\n## Details\n\n' + 'Some words about the product. '.repeat(40) + '\n';
fs.mkdirSync(path.join(dir, 'pages'));
for (let i = 0; i < PAGES; i++) fs.writeFileSync(path.join(dir, 'pages', `p${i}.mdx`), page(i));
fs.writeFileSync(path.join(dir, 'docs.json'), JSON.stringify({
  name: 'Bench', theme: 'mint', colors: { primary: '#2255AA' },
  navigation: { groups: [{ group: 'Pages', pages: Array.from({ length: PAGES }, (_, i) => `pages/p${i}`) }] },
}));

const t0 = performance.now();
const server = await startDevServer({ dir, cwd: dir, port: 0, out: () => undefined, err: () => undefined });
const cold = performance.now() - t0;

const toEvent: number[] = [];
const toServed: number[] = [];
for (let r = 0; r < ROUNDS; r++) {
  const events = await fetch(new URL('/_quire/dev/events', server.url));
  const reader = events.body!.pipeThrough(new TextDecoderStream()).getReader();
  const word = `edit${r}`;
  const start = performance.now();
  fs.writeFileSync(path.join(dir, 'pages', 'p7.mdx'), page(7, word));
  let seen = '';
  while (!seen.includes('event: reload')) seen += (await reader.read()).value ?? '';
  toEvent.push(performance.now() - start);
  await reader.cancel();
  const html = await (await fetch(new URL('/pages/p7', server.url))).text();
  if (!html.includes(word)) throw new Error(`round ${r}: the page does not show the edit`);
  toServed.push(performance.now() - start);
}
await server.close();
fs.rmSync(dir, { recursive: true, force: true });

const stat = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return `p50 ${s[Math.floor(s.length / 2)]!.toFixed(0)} ms, max ${s[s.length - 1]!.toFixed(0)} ms`;
};
console.log(`quire-docs dev, ${PAGES} pages: cold start (load, render every page, listen) ${cold.toFixed(0)} ms`);
console.log(`save → reload event (100 ms gathering included): ${stat(toEvent)} over ${ROUNDS} edits`);
console.log(`save → page served with the new text: ${stat(toServed)}`);
