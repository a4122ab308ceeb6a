/**
 * `pnpm bench:serve`: how fast Quire serves a built documentation page, beside nginx serving the
 * same file (goals: at least 0.8x nginx's requests/second for a public page, 0.7x for a gated page with its cookie).
 *
 * 1. Starts Quire (temp data dir, build runner on) on 127.0.0.1:47750, creates a project on a
 *    temporary git copy of examples/demo-docs (or of a small generated docs fixture when the demo
 *    is absent), triggers a build and waits until it is deployed.
 * 2. Starts /usr/sbin/nginx (Debian package) with a temporary config on 127.0.0.1:47751 whose
 *    root is that deployment directory: one worker (Quire is one Node process), no access log,
 *    sendfile, long keep-alive, like a production static setup.
 * 3. Runs `wrk -t1 -c50 -d<seconds>s` against the home page of both, alternating, 3 rounds
 *    each (after a warm-up), and prints requests/second of every round, the medians and the ratio.
 * 4. The same for a gated page (frontmatter `audience: partners`, added to the docs before the
 *    build, listed in the navigation so every page's sidebar names it): Quire is asked with the
 *    `quire_audience` cookie of a valid token (the gate verifies it and serves the visitor's variant),
 *    nginx serves the same file ungated (decisions.md section 6).
 * Both answer (almost) the same bytes (identity encoding: wrk sends no Accept-Encoding; Quire's
 * variants leave out the marks of gated entries).
 * Environment: BENCH_SECONDS (default 5), BENCH_ROUNDS (default 3), BENCH_PROFILE (a file: the CPU profile
 * of Quire's rounds, the warm-up excluded, is written there for Chrome DevTools or `speedscope`).
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { Session } from 'node:inspector/promises';
import { buildApp } from '../src/app';
import { loadConfig } from '../src/env';
import { createFixtureRepo, type FixtureRepo } from '../test/helpers/git-repo';

const QUIRE_PORT = 47750;
const NGINX_PORT = 47751;
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const NGINX = '/usr/sbin/nginx';
const WRK = '/usr/bin/wrk';
const PROFILE = process.env.BENCH_PROFILE;
/** Goals of the ratio Quire/nginx: a public page, a gated page with its cookie. */
const PUBLIC_GOAL = 0.8;
const GATED_GOAL = 0.7;

const here = path.dirname(fileURLToPath(import.meta.url));
const DEMO_DIR = path.resolve(here, '../../examples/demo-docs');

/** A small docs fixture used when the demo site is not in the checkout. */
const FALLBACK_DOCS: Record<string, string> = {
  'docs.json': JSON.stringify({ name: 'Bench Docs', navigation: { groups: [{ group: 'Start', pages: ['index', 'guide'] }] } }),
  'index.mdx': `---\ntitle: Welcome\n---\n\n# Welcome\n\n${'Quire serves documentation sites from memory. '.repeat(60)}\n\n## Next\n\nSee the [guide](/guide).\n`,
  'guide.mdx': `---\ntitle: Guide\n---\n\n${'A paragraph of guide text. '.repeat(40)}\n`,
};

const run = promisify(execFile);

/** The gated page the bench adds to the docs (its path, without extension). */
const GATED_PAGE = 'partners-guide';

/**
 * Adds {@link GATED_PAGE} to a docs repository: the home page's body under `audience: partners`,
 * listed after the first page of the navigation's first `pages` list.
 */
function addGatedPage(repo: FixtureRepo): void {
  const config = JSON.parse(fs.readFileSync(path.join(repo.path, 'docs.json'), 'utf8')) as Record<string, unknown>;
  const firstPages = (node: unknown): unknown[] | undefined => {
    if (Array.isArray(node)) {
      for (const n of node) {
        const found = firstPages(n);
        if (found) return found;
      }
      return undefined;
    }
    if (node && typeof node === 'object') {
      const pages = (node as { pages?: unknown }).pages;
      if (Array.isArray(pages)) return pages;
      for (const v of Object.values(node)) {
        const found = firstPages(v);
        if (found) return found;
      }
    }
    return undefined;
  };
  const pages = firstPages(config.navigation);
  if (!pages) throw new Error('docs.json has no navigation pages to add the gated page to');
  pages.splice(1, 0, GATED_PAGE);
  const home = fs.readFileSync(path.join(repo.path, 'index.mdx'), 'utf8').replace(/^---\n[^]*?\n---\n/, '');
  repo.commit({ 'docs.json': JSON.stringify(config, null, 2), [`${GATED_PAGE}.mdx`]: `---\ntitle: Partner guide\naudience: partners\n---\n${home}` }, 'bench: a gated page');
}

/** Runs wrk once (asynchronously: Quire answers from this very process) and returns requests/second. */
async function wrk(url: string, host?: string, headers: string[] = []): Promise<number> {
  const args = ['-t1', '-c50', `-d${SECONDS}s`, ...(host ? ['-H', `Host: ${host}`] : []), ...headers.flatMap((h) => ['-H', h]), url];
  const { stdout: out } = await run(WRK, args, { encoding: 'utf8' });
  const m = /Requests\/sec:\s+([\d.]+)/.exec(out);
  if (!m) throw new Error(`cannot read wrk output:\n${out}`);
  const errors = /Non-2xx or 3xx responses:\s+(\d+)/.exec(out);
  if (errors) throw new Error(`${url}: ${errors[1]} non-2xx answers during the run`);
  return Number(m[1]);
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function waitForDeployed(app: Awaited<ReturnType<typeof buildApp>>, key: string, projectId: string, buildId: string): Promise<void> {
  const until = Date.now() + 300_000;
  for (;;) {
    const res = await app.inject({ url: `/v1/projects/${projectId}/builds/${buildId}`, headers: { authorization: `Bearer ${key}` } });
    const build = res.json().data as { status: string; error: string | null };
    if (build.status === 'deployed') return;
    if (build.status === 'failed' || build.status === 'cancelled') throw new Error(`demo build ${build.status}: ${build.error ?? ''}`);
    if (Date.now() > until) throw new Error('demo build did not finish within 5 minutes');
    await new Promise((r) => setTimeout(r, 250));
  }
}

async function main(): Promise<void> {
  if (!fs.existsSync(NGINX)) throw new Error(`${NGINX} is missing: apt-get install nginx`);
  if (!fs.existsSync(WRK)) throw new Error(`${WRK} is missing: apt-get install wrk`);

  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-bench-serve-'));
  fs.chmodSync(work, 0o755); // nginx workers run as an unprivileged user and must read the deployment
  const usingDemo = fs.existsSync(DEMO_DIR);
  const repo = usingDemo ? createFixtureRepo(DEMO_DIR) : createFixtureRepo(undefined, { extraFiles: FALLBACK_DOCS });
  addGatedPage(repo);
  const config = loadConfig({
    QUIRE_DATA_DIR: path.join(work, 'data'),
    QUIRE_LOG_LEVEL: 'warn',
    QUIRE_ALLOW_FILE_REPOS: '1',
    PORT: String(QUIRE_PORT),
    HOST: '127.0.0.1',
  });
  const app = await buildApp(config);
  let nginx: ChildProcess | undefined;
  try {
    await app.listen({ port: QUIRE_PORT, host: '127.0.0.1' });
    const key = app.bootstrap.adminKey!;
    const auth = { authorization: `Bearer ${key}` };
    const project = (await app.inject({ method: 'POST', url: '/v1/projects', headers: auth, payload: { name: 'Bench', slug: 'bench', repoUrl: repo.path, repoBranch: repo.branch } })).json().data as { id: string };
    const build = (await app.inject({ method: 'POST', url: `/v1/projects/${project.id}/builds`, headers: auth })).json().data as { id: string };
    console.log(`building ${usingDemo ? 'the demo site (examples/demo-docs)' : 'a small docs fixture'}...`);
    await waitForDeployed(app, key, project.id, build.id);

    const deployDir = path.join(config.dataDir, 'sites', project.id, build.id);
    const manifest = JSON.parse(fs.readFileSync(path.join(deployDir, 'manifest.json'), 'utf8')) as { home: string; pages: { path: string; file: string }[] };
    const page = manifest.pages.find((p) => p.path === manifest.home)!;
    const urlPath = `/${page.path === 'index' ? '' : page.path}`;
    const bytes = fs.statSync(path.join(deployDir, page.file)).size;

    const prefix = path.join(work, 'nginx');
    fs.mkdirSync(path.join(prefix, 'logs'), { recursive: true });
    const conf = path.join(prefix, 'nginx.conf');
    fs.writeFileSync(
      conf,
      `worker_processes 1;
pid ${prefix}/nginx.pid;
error_log ${prefix}/logs/error.log warn;
events { worker_connections 1024; }
http {
  include /etc/nginx/mime.types;
  access_log off;
  sendfile on;
  tcp_nopush on;
  keepalive_requests 1000000;
  client_body_temp_path ${prefix}/body; proxy_temp_path ${prefix}/proxy; fastcgi_temp_path ${prefix}/fastcgi;
  uwsgi_temp_path ${prefix}/uwsgi; scgi_temp_path ${prefix}/scgi;
  server {
    listen 127.0.0.1:${NGINX_PORT};
    root ${deployDir};
    location = / { try_files /${page.file} =404; }
    location / { try_files $uri $uri.html =404; }
  }
}
`,
    );
    nginx = spawn(NGINX, ['-p', prefix, '-c', conf, '-g', 'daemon off;'], { stdio: ['ignore', 'inherit', 'inherit'] });
    await new Promise((r) => setTimeout(r, 500));
    if (nginx.exitCode !== null) throw new Error('nginx did not start (see its error above)');

    const quireHost = `bench-docs.${config.sitesDomain}:${QUIRE_PORT}`;
    const viaInject = await app.inject({ url: urlPath, headers: { host: quireHost } });
    if (viaInject.statusCode !== 200) throw new Error(`Quire answered ${viaInject.statusCode} for ${urlPath}`);

    // a token of a profile whose tags open the gated page
    const profile = (await app.inject({ method: 'POST', url: `/v1/projects/${project.id}/audiences`, headers: auth, payload: { name: 'Partners', slug: 'partners', audiences: ['partners'] } })).json() as { id: string };
    const { token } = (await app.inject({ method: 'POST', url: `/v1/projects/${project.id}/audiences/${profile.id}/token`, headers: auth, payload: {} })).json() as { token: string };
    const cookie = `Cookie: quire_audience=${token}`;
    const gatedPath = `/${GATED_PAGE}`;
    const gatedBytes = fs.statSync(path.join(deployDir, `${GATED_PAGE}.html`)).size;
    const anonymous = await app.inject({ url: gatedPath, headers: { host: quireHost } });
    const withCookie = await app.inject({ url: gatedPath, headers: { host: quireHost, cookie: cookie.slice('Cookie: '.length) } });
    if (anonymous.statusCode !== 401 || withCookie.statusCode !== 200) throw new Error(`the gated page answered ${anonymous.statusCode} without and ${withCookie.statusCode} with its cookie`);

    const profiler = PROFILE ? new Session() : undefined;
    profiler?.connect();
    /** Quire's round under wrk, profiled when BENCH_PROFILE names a file (`<file>.<name>.cpuprofile`). */
    const quireRound = async (name: string, url: string, headers: string[]): Promise<number> => {
      if (!profiler) return wrk(url, quireHost, headers);
      await profiler.post('Profiler.enable');
      await profiler.post('Profiler.start');
      try {
        return await wrk(url, quireHost, headers);
      } finally {
        const { profile } = await profiler.post('Profiler.stop');
        fs.writeFileSync(`${PROFILE}.${name}.cpuprofile`, JSON.stringify(profile));
      }
    };
    const measure = async (label: string, name: string, goal: number, quirePath: string, nginxPath: string, headers: string[] = []) => {
      const qUrl = `http://127.0.0.1:${QUIRE_PORT}${quirePath}`;
      const nUrl = `http://127.0.0.1:${NGINX_PORT}${nginxPath}`;
      console.log(`\n${label}`);
      await wrk(qUrl, quireHost, headers);
      await wrk(nUrl);
      const q: number[] = [];
      const n: number[] = [];
      for (let i = 0; i < ROUNDS; i++) {
        q.push(await quireRound(`${name}-${i + 1}`, qUrl, headers));
        n.push(await wrk(nUrl));
        console.log(`round ${i + 1}: quire ${q[i]!.toFixed(0)} req/s   nginx ${n[i]!.toFixed(0)} req/s   ratio ${(q[i]! / n[i]!).toFixed(2)}`);
      }
      const ratio = median(q) / median(n);
      console.log(`median: quire ${median(q).toFixed(0)} req/s, nginx ${median(n).toFixed(0)} req/s`);
      console.log(`ratio quire/nginx: ${ratio.toFixed(2)} (goal >= ${goal.toFixed(2)}) ${ratio >= goal ? 'MET' : 'NOT MET'}`);
      return ratio;
    };

    console.log(`wrk -t1 -c50 -d${SECONDS}s, ${ROUNDS} rounds each, alternating`);
    const publicRatio = await measure(`public page ${urlPath} (${page.file}, ${bytes} bytes)`, 'public', PUBLIC_GOAL, urlPath, urlPath);
    const gatedLabel = `gated page ${gatedPath} with a valid quire_audience cookie (${GATED_PAGE}.html, ${gatedBytes} bytes; nginx serves it ungated)`;
    const gatedRatio = await measure(gatedLabel, 'gated', GATED_GOAL, gatedPath, gatedPath, [cookie]);
    const load = os.loadavg().map((l) => l.toFixed(1)).join(' ');
    console.log(`\nsummary: public page ${publicRatio.toFixed(2)}x nginx, gated page with cookie ${gatedRatio.toFixed(2)}x nginx`);
    console.log(`goals: >= ${PUBLIC_GOAL} public, >= ${GATED_GOAL} gated; load average ${load}`);
  } finally {
    if (nginx && nginx.exitCode === null) nginx.kill('SIGTERM');
    await app.close();
    repo.cleanup();
    fs.rmSync(work, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exitCode = 1;
});
