/**
 * `pnpm bench:build`: builds the generated 1000-page corpus with Quire and with VitePress
 * in alternating rounds (each build a fresh process, Quire without its page cache), printing each
 * build's wall time and peak RSS and the Quire/VitePress ratios; then builds the trigger-dev corpus
 * cold and after a one-page change (same process, as the server does) and prints the ratio.
 * Goals: Quire at most 0.5x VitePress's time and memory; the rebuild under 0.1x the cold build.
 * Env: BENCH_ROUNDS (default 2), BENCH_PAGES (default 1000), BENCH_SKIP_VITEPRESS=1, BENCH_VERBOSE=1.
 * Absolute times swing on shared machines: compare the ratios of one run.
 */
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const work = path.join(here, '.work');
const rounds = Number(process.env.BENCH_ROUNDS ?? 2);
const pages = Number(process.env.BENCH_PAGES ?? 1000);
const triggerDev = process.env.BENCH_TRIGGER_DEV ?? path.resolve(here, '../fixtures/corpora/trigger-dev');

interface Sections {
  dir: string;
  pages: { slug: string; t: string }[];
}

/** Runs a child script under tsx and returns its last stdout line parsed as JSON, plus wall time. */
function runChild(script: string, args: string[]): Promise<{ wallMs: number; data: Record<string, unknown> }> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const child = spawn(process.execPath, ['--import', 'tsx', path.join(here, script), ...args], {
      cwd: here,
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
    child.on('error', reject);
    child.on('close', (code) => {
      const wallMs = Date.now() - started;
      const last = out.trim().split('\n').pop() ?? '';
      if (code !== 0) return reject(new Error(`${script} exited with ${code}: ${out.slice(-500)}`));
      try {
        resolve({ wallMs, data: JSON.parse(last) as Record<string, unknown> });
      } catch {
        reject(new Error(`${script} printed no result: ${out.slice(-500)}`));
      }
    });
  });
}

function git(cwd: string, args: string[]) {
  execFileSync('git', args, {
    cwd,
    stdio: 'ignore',
    env: { ...process.env, GIT_AUTHOR_NAME: 'bench', GIT_AUTHOR_EMAIL: 'b@b', GIT_COMMITTER_NAME: 'bench', GIT_COMMITTER_EMAIL: 'b@b' },
  });
}

/** A git repository holding `dir`'s files (plus `extra`), one commit on `main`. */
function makeRepo(dir: string, extra: Record<string, string> = {}) {
  for (const [rel, text] of Object.entries(extra)) fs.writeFileSync(path.join(dir, rel), text);
  git(dir, ['init', '-q', '--initial-branch=main']);
  git(dir, ['add', '--all']);
  git(dir, ['commit', '-q', '-m', 'corpus']);
}

const fmt = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = s.length / 2;
  return s.length === 0 ? NaN : s.length % 2 ? s[Math.floor(mid)]! : (s[mid - 1]! + s[mid]!) / 2;
};

async function main() {
  fs.rmSync(work, { recursive: true, force: true });
  fs.mkdirSync(work, { recursive: true });
  const corpus = path.join(work, `corpus-${pages}`);
  execFileSync(process.execPath, [path.join(here, 'gen-corpus.mjs'), String(pages), corpus], { stdio: 'ignore' });
  const sections = JSON.parse(fs.readFileSync(path.join(corpus, 'sections.json'), 'utf8')) as Sections[];

  // Quire: the corpus as a git repository with a docs.json whose navigation mirrors the sections.
  const quireRepo = path.join(work, 'quire-repo');
  fs.cpSync(corpus, quireRepo, { recursive: true });
  const docsJson = {
    name: 'Synthetic docs',
    theme: 'mint',
    colors: { primary: '#2563eb' },
    navigation: { groups: sections.map((s) => ({ group: s.dir, pages: s.pages.map((p) => `${s.dir}/${p.slug}`) })) },
  };
  makeRepo(quireRepo, { 'docs.json': JSON.stringify(docsJson, null, 2) });

  // VitePress: the same Markdown with a generated config whose sidebar mirrors the sections.
  const vpSrc = path.join(work, 'vitepress-src');
  fs.cpSync(corpus, vpSrc, { recursive: true });
  fs.mkdirSync(path.join(vpSrc, '.vitepress'));
  const vpConfig = {
    title: 'Synthetic docs',
    ignoreDeadLinks: true,
    themeConfig: { sidebar: sections.map((s) => ({ text: s.dir, items: s.pages.map((p) => ({ text: p.t, link: `/${s.dir}/${p.slug}` })) })) },
  };
  fs.writeFileSync(path.join(vpSrc, '.vitepress', 'config.mjs'), `export default ${JSON.stringify(vpConfig)};\n`);

  console.log(`bench:build — ${pages}-page corpus, ${rounds} alternating rounds (each build a fresh process)\n`);
  const q: { ms: number; rss: number }[] = [];
  const v: { ms: number; rss: number }[] = [];
  for (let r = 1; r <= rounds; r++) {
    const order = r % 2 === 1 ? ['quire', 'vitepress'] : ['vitepress', 'quire'];
    for (const tool of order) {
      if (tool === 'vitepress' && process.env.BENCH_SKIP_VITEPRESS) continue;
      if (tool === 'quire') {
        const dataDir = path.join(work, `quire-data-${r}`);
        const res = await runChild('quire-child.ts', [quireRepo, dataDir]);
        q.push({ ms: res.wallMs, rss: Number(res.data.maxRssMb) });
        console.log(`round ${r}  quire      ${fmt(res.wallMs).padStart(9)}  peak RSS ${String(res.data.maxRssMb).padStart(5)} MB  (${res.data.pages} pages, ${res.data.warnings} warnings)`);
        fs.rmSync(dataDir, { recursive: true, force: true });
      } else {
        fs.rmSync(path.join(vpSrc, '.vitepress', 'dist'), { recursive: true, force: true });
        fs.rmSync(path.join(vpSrc, '.vitepress', 'cache'), { recursive: true, force: true });
        const res = await runChild('vitepress-child.ts', [vpSrc]);
        v.push({ ms: res.wallMs, rss: Number(res.data.maxRssMb) });
        console.log(`round ${r}  vitepress  ${fmt(res.wallMs).padStart(9)}  peak RSS ${String(res.data.maxRssMb).padStart(5)} MB`);
      }
    }
  }
  if (v.length > 0) {
    const tq = median(q.map((x) => x.ms));
    const tv = median(v.map((x) => x.ms));
    const mq = median(q.map((x) => x.rss));
    const mv = median(v.map((x) => x.rss));
    console.log(`\nmedian     quire ${fmt(tq)} / ${Math.round(mq)} MB   vitepress ${fmt(tv)} / ${Math.round(mv)} MB`);
    const pairs = q.slice(0, v.length).map((x, i) => `${(x.ms / v[i]!.ms).toFixed(2)}x`);
    console.log(`per round  time ratio ${pairs.join(', ')}  (rounds alternate the order; the machine's load swings)`);
    console.log(`ratio      time ${(tq / tv).toFixed(2)}x   memory ${(mq / mv).toFixed(2)}x   (goal: <= 0.5x both)`);
  }

  if (fs.existsSync(triggerDev)) {
    const tdRepo = path.join(work, 'trigger-dev-repo');
    fs.cpSync(triggerDev, tdRepo, { recursive: true });
    execFileSync('chmod', ['-R', 'u+w', tdRepo]);
    makeRepo(tdRepo);
    const res = await runChild('quire-child.ts', [tdRepo, path.join(work, 'trigger-dev-data'), '--rebuild', 'introduction.mdx']);
    const cold = Number(res.data.coldMs);
    const re = Number(res.data.rebuildMs);
    console.log(`\ntrigger-dev (${res.data.pages} pages)  cold ${fmt(cold)}   one-page rebuild ${fmt(re)}   ratio ${(re / cold).toFixed(3)}x (goal: < 0.1x)`);
    console.log(`            ${res.data.rebuildRender}`);
  }
}

await main();
