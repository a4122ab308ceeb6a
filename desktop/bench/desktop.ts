/**
 * `pnpm bench:desktop`: Quire Desktop's speed (benchmarks, not tests).
 *
 * 1. Edit to preview: a generated 2,000-line MDX page with code blocks and components, opened in a
 *    core (the local store filled directly: no Quire server needed) served by the web-mode server;
 *    each edit is saved (`files.write`) and previewed (`preview.render`) over HTTP through the tRPC
 *    client, as the renderer does. p50/p95 of edit → HTML, against the goal p95 < 100 ms. The
 *    renderer waits for an 80 ms pause in typing before it asks (PageEditor.tsx): add it for the
 *    time a writer sees after the last key.
 * 2. The renderer's JavaScript: the built bundle (desktop/dist/renderer), what the page loads at start
 *    and everything (language chunks and workers), raw and gzip.
 * 3. Cold start of `desktop:web`: a new process until it prints `Quire Desktop: <url>`, and until the
 *    app's HTML and its JavaScript and CSS are served (interactive), median of 3.
 *
 * 4. Visual mode's commit: on the same 2,000-line page, the main-thread work after a pause in typing in a
 *    visual block (visual/VisualEditor.tsx): the engine's `replaceBlockText`, the page read again around
 *    the edit (`updateVisualDocument`) and the block keys carried (block-keys.ts). A keystroke itself is the
 *    browser's contenteditable with no script beyond a timer; a keystroke typed during a commit waits for
 *    it. Measured in Node; the keystroke-to-paint time itself is section 5, measured in Chromium by
 *    e2e/bench/visual-typing.ts (the second half of `pnpm bench:desktop`).
 *
 * Options (environment): BENCH_EDITS (default 200), BENCH_VISUAL_EDITS (default 30).
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { createTRPCClient, httpLink } from '@trpc/client';
import { createCore } from '../src/core/compose';
import type { CoreRouter } from '../src/core/router';
import { fileTokenVault } from '../src/core/token-vault';
import { createWebServer, ensureRendererBuilt, RENDERER_DIR } from '../src/core/web-server';
import { generatePage } from './generate-page';
import { applyTextEdits, blockEditableHtml, parseVisualDocument, replaceBlockText, updateVisualDocument } from '@quire/shared/docs/visual/index';
import { carryKeys } from '../src/renderer/visual/block-keys';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '..', '..');
const EDITS = Number(process.env.BENCH_EDITS ?? 200);
const VISUAL_EDITS = Number(process.env.BENCH_VISUAL_EDITS ?? 30);
const VISUAL_GOAL_P95_MS = 50;
const GOAL_P95_MS = 100;
const TYPING_PAUSE_MS = 80; // PageEditor.tsx PREVIEW_DELAY_MS

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

const ms = (n: number) => `${n.toFixed(1)} ms`;
const kb = (n: number) => `${(n / 1024).toFixed(0)} KiB`;

async function editToPreview(): Promise<void> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-bench-desktop-'));
  const core = createCore({ dataDir, vault: fileTokenVault(dataDir) });
  const projectId = 'prj_bench';
  const page = generatePage();
  const files: Record<string, string> = {
    'docs.json': JSON.stringify({ name: 'Bench Docs', navigation: { groups: [{ group: 'Reference', pages: ['reference', 'guides/setup'] }] } }),
    'reference.mdx': page,
    'guides/setup.mdx': '---\ntitle: Setting up\n---\n\nInstall it.\n',
  };
  core.store.saveWorkspace(projectId, 'main', 'a'.repeat(40), Object.entries(files).map(([p, content]) => ({ path: p, size: content.length, content })));
  const server = createWebServer(core);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/trpc`;
  const client = createTRPCClient<CoreRouter>({ links: [httpLink({ url })] });
  try {
    const lines = page.split('\n');
    const path_ = 'reference.mdx';
    // warm up: the worker starts, loads the project and the highlighter's languages
    for (let i = 0; i < 5; i++) await client.preview.render.mutate({ projectId, path: path_, text: page, theme: 'light' });
    const times: number[] = [];
    let text = page;
    for (let i = 0; i < EDITS; i++) {
      // an edit somewhere in the page's prose: a word typed at the end of a paragraph line
      const at = 6 + ((i * 37) % (lines.length - 10));
      if (!lines[at]!.startsWith('This paragraph')) {
        const j = lines.findIndex((l, k) => k >= at && l.startsWith('This paragraph'));
        lines[j === -1 ? 6 : j] += ` word${i}`;
      } else lines[at] += ` word${i}`;
      text = lines.join('\n');
      const t0 = performance.now();
      await client.files.write.mutate({ projectId, path: path_, content: text });
      const r = await client.preview.render.mutate({ projectId, path: path_, text, theme: 'light' });
      times.push(performance.now() - t0);
      if (!r.ok || !r.html.includes(`word${i}`)) throw new Error(`edit ${i} did not reach the preview: ${r.ok ? 'missing text' : r.message}`);
    }
    times.sort((a, b) => a - b);
    const p50 = percentile(times, 50);
    const p95 = percentile(times, 95);
    console.log(`\nEdit to preview: ${lines.length - 1}-line MDX page (${(page.length / 1024).toFixed(0)} KiB, code blocks and components), ${EDITS} edits, save + render over HTTP`);
    console.log(`  p50 ${ms(p50)}   p95 ${ms(p95)}   goal p95 < ${GOAL_P95_MS} ms: ${p95 < GOAL_P95_MS ? 'met' : 'NOT met'}   (max ${ms(times.at(-1)!)})`);
    console.log(`  with the editor's ${TYPING_PAUSE_MS} ms typing pause: p50 ${ms(p50 + TYPING_PAUSE_MS)}   p95 ${ms(p95 + TYPING_PAUSE_MS)} after the last key`);
  } finally {
    server.close();
    await core.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

/** Section 4: the visual mode's work per commit (one paragraph edited) on the 2,000-line page. */
function visualCommit(): void {
  let text = generatePage();
  let n = 0;
  let doc = parseVisualDocument(text, 'reference.mdx');
  let keys = carryKeys(new Map(), null, doc.blocks, () => `k${++n}`);
  const times: number[] = [];
  for (let i = 0; i < VISUAL_EDITS + 3; i++) {
    const paragraphs = doc.blocks.filter((b) => b.kind === 'paragraph');
    const block = paragraphs[(i * 7) % paragraphs.length]!;
    const t0 = performance.now();
    const edit = replaceBlockText(text, block, `${blockEditableHtml(block)} word${i}`, doc.style);
    if (!edit) throw new Error(`visual edit ${i} changed nothing`);
    doc = updateVisualDocument(doc, text, edit, 'reference.mdx');
    text = applyTextEdits(text, [edit]);
    keys = carryKeys(keys, [{ offset: edit.from, length: edit.to - edit.from, text: edit.text }], doc.blocks, () => `k${++n}`);
    if (i >= 3) times.push(performance.now() - t0); // the first three warm the parser up
  }
  times.sort((a, b) => a - b);
  const p95 = percentile(times, 95);
  console.log(`\nVisual mode, one commit (replaceBlockText + read again around the edit + keys) on the same page, ${VISUAL_EDITS} edits, ${doc.blocks.length} blocks:`);
  console.log(`  p50 ${ms(percentile(times, 50))}   p95 ${ms(p95)}   goal keystroke-to-paint p95 < ${VISUAL_GOAL_P95_MS} ms: ${p95 < VISUAL_GOAL_P95_MS ? 'met' : 'NOT met'}`);
}

function bundleSize(): void {
  const assets = path.join(RENDERER_DIR, 'assets');
  const html = fs.readFileSync(path.join(RENDERER_DIR, 'index.html'), 'utf8');
  const initialNames = new Set([...html.matchAll(/(?:src|href)="\.?\/?assets\/([^"]+\.js)"/g)].map((m) => m[1]!));
  let all = 0;
  let allGz = 0;
  let initial = 0;
  let initialGz = 0;
  let workers = 0;
  for (const name of fs.readdirSync(assets)) {
    if (!name.endsWith('.js')) continue;
    const buf = fs.readFileSync(path.join(assets, name));
    const gz = zlib.gzipSync(buf, { level: 9 }).length;
    all += buf.length;
    allGz += gz;
    if (initialNames.has(name)) {
      initial += buf.length;
      initialGz += gz;
    }
    if (name.includes('.worker')) workers += buf.length;
  }
  console.log(`\nRenderer JavaScript (${path.relative(root, RENDERER_DIR)}):`);
  console.log(`  loaded at start (${[...initialNames].join(', ')}): ${kb(initial)}, ${kb(initialGz)} gzip`);
  console.log(`  everything (language chunks on demand, Monaco workers ${kb(workers)}): ${kb(all)}, ${kb(allGz)} gzip`);
}

/** One cold start: ms until the `Quire Desktop:` line, and until the HTML, JS and CSS were served. */
async function coldStartOnce(): Promise<{ printed: number; interactive: number }> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-bench-desktop-web-'));
  const t0 = performance.now();
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'desktop', 'src', 'core', 'web.ts')], {
    cwd: root,
    env: { ...process.env, QUIRE_DESKTOP_PORT: '0', QUIRE_DESKTOP_DATA_DIR: dataDir },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  try {
    const url = await new Promise<string>((resolve, reject) => {
      let out = '';
      child.stdout!.on('data', (c: Buffer) => {
        out += c.toString();
        const m = /^Quire Desktop: (\S+)$/m.exec(out);
        if (m) resolve(m[1]!);
      });
      child.once('exit', (code) => reject(new Error(`desktop:web exited with ${code}: ${out}`)));
      setTimeout(() => reject(new Error('desktop:web did not start within 120 s')), 120_000).unref();
    });
    const printed = performance.now() - t0;
    const html = await (await fetch(url)).text();
    const assets = [...html.matchAll(/(?:src|href)="(\.?\/?assets\/[^"]+\.(?:js|css))"/g)].map((m) => new URL(m[1]!, url).href);
    await Promise.all(
      assets.map(async (a) => {
        const res = await fetch(a);
        if (!res.ok) throw new Error(`${a}: ${res.status}`);
        await res.arrayBuffer();
      }),
    );
    return { printed, interactive: performance.now() - t0 };
  } finally {
    child.kill('SIGTERM');
    await new Promise((r) => (child.exitCode !== null ? r(undefined) : child.once('exit', r)));
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

async function coldStart(): Promise<void> {
  const runs: { printed: number; interactive: number }[] = [];
  for (let i = 0; i < 3; i++) runs.push(await coldStartOnce());
  const median = (xs: number[]) => xs.sort((a, b) => a - b)[1]!;
  console.log('\nCold start of desktop:web (renderer already built; new process, median of 3):');
  console.log(`  until "Quire Desktop: <url>": ${ms(median(runs.map((r) => r.printed)))}   until the app's HTML, JS and CSS are served: ${ms(median(runs.map((r) => r.interactive)))}`);
  console.log(`  runs: ${runs.map((r) => `${r.printed.toFixed(0)}/${r.interactive.toFixed(0)} ms`).join(', ')}`);
}

const built = await ensureRendererBuilt();
if (built) console.log('(the renderer was built first)');
await editToPreview();
visualCommit();
bundleSize();
await coldStart();
