/**
 * `pnpm bench:incremental`: how long a push changing one page of a 5,000-page site takes to be
 * served, from the push webhook's arrival to the new text in the page the site answers (goal: a
 * p50 of at most 300 ms; aim 0.2 s; Mintlify and static site generators take 20-36 s).
 *
 * 1. Generates the corpus (bench/gen-corpus.mjs, BENCH_PAGES pages, a docs.json whose navigation
 *    lists them) into a git repository, and points `https://github.com/bench/docs` at it with git's
 *    `url.<path>.insteadOf` (GIT_CONFIG_COUNT/KEY_0/VALUE_0), as an operator's mirror would.
 * 2. Starts a real Quire server in this process (`buildApp`: temporary data dir, SQLite, build
 *    runner on, QUIRE_ALLOW_FILE_REPOS=1) listening on 127.0.0.1, creates a project with a webhook
 *    secret on that URL and runs the first (cold) build.
 * 3. BENCH_ROUNDS times: commits a one-page change, sends a signed GitHub push webhook
 *    (`POST /v1/webhooks/github`; while that receiver is not there, a `POST .../builds` trigger,
 *    said in the output) and polls the page over HTTP with the site's Host header until it shows
 *    the new text. Prints each round's time split into the webhook and queue, the build's steps
 *    (from its log; writing site runs alongside linting and checking links), the builder's work
 *    between steps, the build runner's own work (start, lint results, deploy) and the time from
 *    deployed to served; then the p50 and max beside the goal and the cold build.
 * Environment: BENCH_PAGES (default 5000), BENCH_ROUNDS (default 5), BENCH_TITLE_ROUND=1 (one more
 * round changing a page's title, which changes every page's sidebar), BENCH_VERBOSE=1 (build logs),
 * BENCH_KEEP=1 (keep the temporary folder).
 * Absolute times swing on a shared machine: compare the rounds of one run.
 */
import { execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import zlib from 'node:zlib';
import { sign } from '@octokit/webhooks-methods';
import { buildApp } from '../src/app';
import { loadConfig } from '../src/env';

const PAGES = Number(process.env.BENCH_PAGES ?? 5000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const VERBOSE = Boolean(process.env.BENCH_VERBOSE);
const GOAL_MS = 300;
const AIM_MS = 200;
const SECRET = 'bench-webhook-secret';
const REPO_URL = 'https://github.com/bench/docs';
const here = path.dirname(fileURLToPath(import.meta.url));
const GEN_CORPUS = path.resolve(here, '../../bench/gen-corpus.mjs');
const PUSH_EXAMPLE = path.resolve(here, '../node_modules/@octokit/webhooks-examples/api.github.com/index.json');

type App = Awaited<ReturnType<typeof buildApp>>;
interface Build {
  id: string;
  status: string;
  error: string | null;
  createdAt: string;
  deployedAt: string | null;
  /** ms from the start of building to its end */
  duration: number | null;
}
interface Step {
  name: string;
  ms: number;
}

const GIT_ENV = { ...process.env, GIT_AUTHOR_NAME: 'bench', GIT_AUTHOR_EMAIL: 'bench@quire.local', GIT_COMMITTER_NAME: 'bench', GIT_COMMITTER_EMAIL: 'bench@quire.local' };
const git = (cwd: string, args: string[]) => execFileSync('git', args, { cwd, env: GIT_ENV, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
};
const fmt = (ms: number) => (ms >= 10_000 ? `${(ms / 1000).toFixed(1)} s` : ms >= 1000 ? `${(ms / 1000).toFixed(2)} s` : `${Math.round(ms)} ms`);

/** The corpus as a git repository on `main` with a docs.json listing every page; returns its path and one page file. */
function makeCorpusRepo(work: string): { repo: string; page: string; urlPath: string } {
  const repo = path.join(work, 'docs-repo');
  execFileSync(process.execPath, [GEN_CORPUS, String(PAGES), repo], { stdio: 'ignore' });
  const sections = JSON.parse(fs.readFileSync(path.join(repo, 'sections.json'), 'utf8')) as { dir: string; pages: { slug: string }[] }[];
  fs.rmSync(path.join(repo, 'sections.json'));
  const docsJson = {
    name: 'Synthetic docs',
    theme: 'mint',
    colors: { primary: '#2563eb' },
    navigation: { groups: [{ group: 'Home', pages: ['index'] }, ...sections.map((s) => ({ group: s.dir, pages: s.pages.map((p) => `${s.dir}/${p.slug}`) }))] },
  };
  fs.writeFileSync(path.join(repo, 'docs.json'), JSON.stringify(docsJson, null, 2));
  git(repo, ['init', '--quiet', '--initial-branch=main']);
  git(repo, ['add', '--all']);
  git(repo, ['commit', '--quiet', '-m', `${PAGES}-page corpus`]);
  const s = sections[Math.min(3, sections.length - 1)]!;
  const slug = s.pages[0]!.slug;
  return { repo, page: `${s.dir}/${slug}.md`, urlPath: `/${s.dir}/${slug}` };
}

/** GET of a site path with the site's Host header; the body decoded (gzip asked for, as browsers do). */
function getSite(port: number, host: string, urlPath: string, agent: http.Agent): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.get({ host: '127.0.0.1', port, path: urlPath, agent, headers: { host, 'accept-encoding': 'gzip' } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const raw = Buffer.concat(chunks);
        const body = res.headers['content-encoding'] === 'gzip' ? zlib.gunzipSync(raw) : raw;
        resolve({ status: res.statusCode ?? 0, body: body.toString('utf8') });
      });
      res.on('error', reject);
    });
    req.on('error', reject);
  });
}

/** A GitHub push payload (the example of @octokit/webhooks-examples, with our repository, branch, commits). */
function pushPayload(before: string, after: string, changed: string, message: string): string {
  const examples = JSON.parse(fs.readFileSync(PUSH_EXAMPLE, 'utf8')) as { name: string; examples: Record<string, unknown>[] }[];
  const example = structuredClone(examples.find((e) => e.name === 'push')!.examples[0]!) as Record<string, unknown> & {
    repository: Record<string, unknown> & { owner: Record<string, unknown> };
  };
  const commit = {
    id: after,
    tree_id: after,
    distinct: true,
    message,
    timestamp: new Date().toISOString(),
    url: `${REPO_URL}/commit/${after}`,
    author: { name: 'bench', email: 'bench@quire.local', username: 'bench' },
    committer: { name: 'bench', email: 'bench@quire.local', username: 'bench' },
    added: [],
    removed: [],
    modified: [changed],
  };
  Object.assign(example.repository, {
    name: 'docs',
    full_name: 'bench/docs',
    html_url: 'https://github.com/bench/docs',
    url: 'https://github.com/bench/docs',
    clone_url: `${REPO_URL}.git`,
    git_url: 'git://github.com/bench/docs.git',
    ssh_url: 'git@github.com:bench/docs.git',
    default_branch: 'main',
    master_branch: 'main',
  });
  Object.assign(example.repository.owner, { login: 'bench', name: 'bench' });
  Object.assign(example, { ref: 'refs/heads/main', before, after, created: false, deleted: false, forced: false, base_ref: null, compare: `${REPO_URL}/compare/${before.slice(0, 12)}...${after.slice(0, 12)}`, commits: [commit], head_commit: commit });
  return JSON.stringify(example);
}

/** The `✓ step (detail) N ms` lines of a build log. */
function stepsOf(log: string): Step[] {
  const steps: Step[] = [];
  for (const line of log.split('\n')) {
    const m = /^✓ (.+?)(?: \(.*\))? (\d+) ms$/.exec(line);
    if (m && !m[1]!.startsWith('deployed')) steps.push({ name: m[1]!, ms: Number(m[2]) });
  }
  return steps;
}

/** The time the steps of a build took, counting once what writing site spends alongside linting and checking links. */
function stepTime(steps: Step[]): number {
  const ms = (name: string) => steps.find((s) => s.name === name)?.ms ?? 0;
  const alongside = Math.min(ms('writing site'), ms('linting pages') + ms('checking links'));
  return steps.reduce((n, s) => n + s.ms, 0) - alongside;
}

async function main(): Promise<void> {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-bench-incremental-'));
  console.log(`bench:incremental — ${PAGES}-page corpus, ${ROUNDS} one-page pushes (goal ${fmt(GOAL_MS)} from webhook to served page; aim ${fmt(AIM_MS)})`);
  const corpus = makeCorpusRepo(work);
  // The operator's mirror: git fetches https://github.com/bench/docs from the local repository.
  Object.assign(process.env, { GIT_CONFIG_COUNT: '1', GIT_CONFIG_KEY_0: `url.${corpus.repo}.insteadOf`, GIT_CONFIG_VALUE_0: REPO_URL });
  const config = loadConfig({ QUIRE_DATA_DIR: path.join(work, 'data'), QUIRE_LOG_LEVEL: 'warn', QUIRE_ALLOW_FILE_REPOS: '1', HOST: '127.0.0.1', PORT: '0' });
  const app: App = await buildApp(config);
  const agent = new http.Agent({ keepAlive: true, maxSockets: 4 });
  try {
    await app.listen({ port: 0, host: '127.0.0.1' });
    const port = (app.server.address() as { port: number }).port;
    const auth = { authorization: `Bearer ${app.bootstrap.adminKey!}` };
    const api = async (method: 'GET' | 'POST', url: string, payload?: unknown) => app.inject({ method, url, headers: auth, ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }) });
    const created = await api('POST', '/v1/projects', { name: 'Bench docs', slug: 'bench', repoUrl: REPO_URL, repoBranch: 'main', webhookSecret: SECRET });
    if (created.statusCode !== 201) throw new Error(`creating the project failed: ${created.statusCode} ${created.body}`);
    const projectId = (created.json().data as { id: string }).id;
    const host = `bench-docs.localhost:${port}`;

    const waitForBuild = async (buildId: string, timeoutMs: number, everyMs = 50): Promise<Build> => {
      const until = Date.now() + timeoutMs;
      for (;;) {
        const res = await api('GET', `/v1/projects/${projectId}/builds/${buildId}`);
        if (res.statusCode === 429) {
          await sleep(1000); // the key's rate limit (QUIRE_DEFAULT_PLAN)
          continue;
        }
        const b = res.json().data as Build;
        if (b.status === 'deployed') return b;
        if (b.status === 'failed' || b.status === 'cancelled') throw new Error(`build ${buildId} ${b.status}: ${b.error ?? ''}\n${(await api('GET', `/v1/projects/${projectId}/builds/${buildId}/logs`)).body.split('\n').filter((l) => !l.startsWith('warning')).slice(-30).join('\n')}`);
        if (Date.now() > until) throw new Error(`build ${buildId} did not finish within ${timeoutMs / 1000} s`);
        await sleep(everyMs);
      }
    };
    const logOf = async (buildId: string) => (await api('GET', `/v1/projects/${projectId}/builds/${buildId}/logs`)).body;
    const printLog = (log: string) => {
      if (!VERBOSE) return;
      for (const l of log.split('\n')) if (l && !l.startsWith('warning') && !l.startsWith('  lint')) console.log(`      ${l}`);
    };

    console.log(`cold build of ${PAGES + 1} pages...`);
    const coldStarted = Date.now();
    const cold = await api('POST', `/v1/projects/${projectId}/builds`, {});
    if (cold.statusCode !== 202) throw new Error(`triggering the cold build failed: ${cold.statusCode} ${cold.body}`);
    const coldId = (cold.json().data as { id: string }).id;
    await waitForBuild(coldId, 60 * 60_000, 1000);
    const coldMs = Date.now() - coldStarted;
    const coldSteps = stepsOf(await logOf(coldId));
    printLog(await logOf(coldId));
    const first = await getSite(port, host, corpus.urlPath, agent);
    if (first.status !== 200) throw new Error(`the site answers ${first.status} for ${corpus.urlPath}`);
    console.log(`cold build: ${fmt(coldMs)}  (${coldSteps.map((s) => `${s.name} ${fmt(s.ms)}`).join(', ')})\n`);

    let usedWebhook: boolean | undefined;
    let fallbackReason = '';
    const rounds: { ms: number; buildMs: number; steps: Step[]; toBuilding: number; toServed: number; builderMs: number }[] = [];
    const runRound = async (label: string, change: (text: string, nonce: string) => string, expected: (nonce: string) => string) => {
      const before = git(corpus.repo, ['rev-parse', 'HEAD']);
      const nonce = crypto.randomBytes(6).toString('hex');
      const file = path.join(corpus.repo, corpus.page);
      fs.writeFileSync(file, change(fs.readFileSync(file, 'utf8'), nonce));
      git(corpus.repo, ['commit', '--quiet', '-am', `${label} ${nonce}`]);
      const after = git(corpus.repo, ['rev-parse', 'HEAD']);
      const body = pushPayload(before, after, corpus.page, `${label} ${nonce}`);
      const signature = await sign(SECRET, body);

      const started = performance.now();
      const sentAt = Date.now();
      let buildId: string | undefined;
      if (usedWebhook !== false) {
        const res = await app.inject({
          method: 'POST',
          url: '/v1/webhooks/github',
          headers: { 'content-type': 'application/json', 'x-github-event': 'push', 'x-github-delivery': crypto.randomUUID(), 'x-hub-signature-256': signature },
          payload: body,
        });
        if (res.statusCode === 200) {
          usedWebhook = true;
          buildId = (res.json().data as { builds: string[] }).builds[0];
          if (!buildId) throw new Error(`the webhook queued no build: ${res.body}`);
        } else {
          usedWebhook = false;
          fallbackReason = `POST /v1/webhooks/github answered ${res.statusCode}${res.statusCode === 404 ? ' (the receiver is not there yet)' : `: ${res.body.slice(0, 200)}`}`;
        }
      }
      if (!buildId) {
        const res = await api('POST', `/v1/projects/${projectId}/builds`, {});
        if (res.statusCode !== 202) throw new Error(`triggering a build failed: ${res.statusCode} ${res.body}`);
        buildId = (res.json().data as { id: string }).id;
      }
      const want = expected(nonce);
      const until = Date.now() + 10 * 60_000;
      for (let polls = 1; ; polls++) {
        const page = await getSite(port, host, corpus.urlPath, agent);
        if (page.status === 200 && page.body.includes(want)) break;
        if (Date.now() > until) throw new Error(`the new text was not served within 10 minutes (build ${buildId})`);
        if (polls % 40 === 0) {
          const b = (await api('GET', `/v1/projects/${projectId}/builds/${buildId}`)).json().data as Build | undefined;
          if (b?.status === 'failed' || b?.status === 'cancelled') throw new Error(`build ${buildId} ${b.status}: ${b.error ?? ''}`);
        }
        await sleep(5);
      }
      const ms = performance.now() - started;
      const build = await waitForBuild(buildId, 60_000);
      const log = await logOf(buildId);
      const steps = stepsOf(log);
      const buildMs = build.duration ?? NaN;
      const deployedAt = build.deployedAt ? Date.parse(build.deployedAt) : NaN;
      // received → building (the receiver's work and the queue), building → deployed, deployed → served
      const toBuilding = deployedAt - buildMs - sentAt;
      const toServed = sentAt + ms - deployedAt;
      const summary = log.split('\n').find((l) => /^(incremental|full) build: \d+ of/.test(l)) ?? '';
      console.log(`${label.padEnd(12)} ${fmt(ms).padStart(8)}  = webhook and queue ${fmt(toBuilding)} + build ${fmt(buildMs)} + until served ${fmt(toServed)}`);
      const builderMs = Number(/; (\d+) ms in the builder$/.exec(summary)?.[1] ?? NaN);
      const stepsMs = stepTime(steps);
      console.log(`${''.padEnd(23)}build: ${steps.map((s) => `${s.name} ${fmt(s.ms)}`).join(', ')}; builder between steps ${fmt(builderMs - stepsMs)}; runner ${fmt(buildMs - builderMs)}`);
      if (summary) console.log(`${''.padEnd(23)}${summary}`);
      printLog(log);
      return { ms, buildMs, steps, toBuilding, toServed, builderMs };
    };

    for (let r = 1; r <= ROUNDS; r++) {
      rounds.push(await runRound(`round ${r}`, (text, nonce) => `${text}\n\nBench change ${nonce}.\n`, (nonce) => `Bench change ${nonce}.`));
    }
    let titleRound: { ms: number } | undefined;
    if (process.env.BENCH_TITLE_ROUND) {
      titleRound = await runRound('title change', (text, nonce) => text.replace(/^# .*$/m, `# Renamed ${nonce}`), (nonce) => `Renamed ${nonce}`);
    }

    const times = rounds.map((r) => r.ms);
    const builds = rounds.map((r) => r.buildMs).filter((x) => Number.isFinite(x));
    console.log(`\ntrigger: ${usedWebhook ? 'signed GitHub push webhook (POST /v1/webhooks/github)' : `POST /v1/projects/{id}/builds, because ${fallbackReason}`}`);
    console.log('                     webhook → new text served    build alone');
    console.log(`one-page push p50    ${fmt(median(times)).padStart(10)}                 ${fmt(median(builds)).padStart(8)}`);
    console.log(`one-page push max    ${fmt(Math.max(...times)).padStart(10)}                 ${fmt(Math.max(...builds)).padStart(8)}`);
    if (titleRound) console.log(`title change         ${fmt(titleRound.ms).padStart(10)}   (every page's sidebar changes: all documents rewritten)`);
    console.log(`goal                 ${fmt(GOAL_MS).padStart(10)}   (aim ${fmt(AIM_MS)}; Mintlify and static site generators: 20-36 s)`);
    console.log(`cold build           ${fmt(coldMs).padStart(10)}   (${PAGES + 1} pages; ratio p50/cold ${(median(times) / coldMs).toFixed(4)})`);
    const names = [...new Set(rounds.flatMap((r) => r.steps.map((s) => s.name)))];
    const row = (name: string, xs: number[]) => console.log(`  ${name.padEnd(28)} ${fmt(median(xs)).padStart(8)} / ${fmt(Math.max(...xs)).padStart(8)}`);
    console.log('\nwhere the time of a one-page push goes (p50 / max):');
    row('webhook, queue', rounds.map((r) => r.toBuilding));
    for (const name of names) row(`build: ${name}`, rounds.map((r) => r.steps.find((s) => s.name === name)?.ms).filter((x): x is number => x !== undefined));
    row('build: builder between steps', rounds.map((r) => r.builderMs - stepTime(r.steps)));
    row('build: runner (start, deploy)', rounds.map((r) => r.buildMs - r.builderMs));
    row('deployed → served', rounds.map((r) => r.toServed));
  } finally {
    agent.destroy();
    await app.close();
    if (!process.env.BENCH_KEEP) fs.rmSync(work, { recursive: true, force: true });
    else console.log(`kept ${work}`);
  }
}

await main();
