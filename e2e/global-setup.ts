import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { E2E_PORT } from './playwright.config';
import { makeGitRepo } from './fixtures/git-repo';
import { API_URL } from './fixtures/sites';
import { makeVersionedRepo, VERSIONS_SLUG, waitForVersionBuilds } from './fixtures/versioned-site';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '..');
/** The vendored real Mintlify projects (fixtures/corpora, each with its SOURCE.md). */
const corpus = process.env.QUIRE_E2E_CORPUS ?? path.join(root, 'fixtures', 'corpora');
/** Where the server log and the build logs of the run are written. */
const artifacts = path.join(here, 'artifacts');
/** What the API answers: an envelope with data or error (typed loosely: the spec is the contract). */
type ApiAnswer = { data?: { id: string; status?: string; error?: string }; error?: { code: string; message: string } } | undefined;

const ADMIN_KEY = `quire_e2eadmin_${'x'.repeat(40)}`;
/** How long the three builds may take together (the corpora take a while on a loaded machine). */
const BUILD_TIMEOUT_MS = 240_000;

/** The sites the specs read, built through the public API before any spec runs. */
const SITES = [
  { slug: 'demo', name: 'Quire demo', dir: path.join(root, 'examples', 'demo-docs') },
  { slug: 'pezzo', name: 'Pezzo', dir: path.join(corpus, 'pezzo') },
  { slug: 'agentops', name: 'AgentOps', dir: path.join(corpus, 'agentops') },
  // languages -> products -> tabs, menus, dropdowns, OpenAPI per language (specs/navigation.spec.ts)
  { slug: 'nested', name: 'Nested Docs', dir: path.join(root, 'server', 'test', 'fixtures', 'nested-divisions') },
  // documentation versions (tags and branches, specs/versions.spec.ts): its repository is made by the fixture
  { slug: VERSIONS_SLUG, name: 'Versioned Docs', dir: '', makeRepo: makeVersionedRepo },
] as { slug: string; name: string; dir: string; makeRepo?: () => string }[];

async function api(method: string, url: string, body?: unknown): Promise<{ status: number; json: ApiAnswer; text: string }> {
  const res = await fetch(`${API_URL}${url}`, {
    method,
    headers: { Authorization: `Bearer ${ADMIN_KEY}`, ...(body ? { 'Content-Type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const text = await res.text();
  const json = (res.headers.get('content-type') ?? '').includes('json') && text ? (JSON.parse(text) as ApiAnswer) : undefined;
  return { status: res.status, json, text };
}

/** True when something answers HTTP on the e2e port. */
async function serverAnswers(): Promise<boolean> {
  try {
    await fetch(`${API_URL}/v1/openapi.json`);
    return true;
  } catch {
    return false;
  }
}

async function waitForServer(child: ChildProcess, deadline: number): Promise<void> {
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the Quire server exited with code ${child.exitCode} (see e2e/artifacts/server.log)`);
    if (await serverAnswers()) return;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error('the Quire server did not start within 60 s (see e2e/artifacts/server.log)');
}

/** Saves a build's log (GET …/builds/{id}/logs) under e2e/artifacts/builds/ and returns its last lines. */
async function saveBuildLog(slug: string, projectId: string, buildId: string): Promise<string> {
  const { status, text } = await api('GET', `/v1/projects/${projectId}/builds/${buildId}/logs`);
  if (status !== 200) return `(build log unavailable: HTTP ${status})`;
  fs.mkdirSync(path.join(artifacts, 'builds'), { recursive: true });
  fs.writeFileSync(path.join(artifacts, 'builds', `${slug}.log`), text);
  return text.trimEnd().split('\n').slice(-15).join('\n');
}

/** Creates one project per site from a temp git copy, triggers the builds, and waits until all are deployed. */
async function buildSites(): Promise<void> {
  const builds: { slug: string; projectId: string; buildId: string }[] = [];
  for (const site of SITES) {
    const repo = site.makeRepo ? site.makeRepo() : makeGitRepo(site.dir, site.slug);
    const project = await api('POST', '/v1/projects', { name: site.name, slug: site.slug, repoUrl: repo, repoBranch: 'main' });
    if (project.status !== 201) throw new Error(`creating ${site.slug}: ${project.status} ${project.text}`);
    if (site.slug === 'demo') {
      // A glossary term the demo uses, for the tooltip specs (components.spec.ts "Glossary").
      const term = await api('POST', `/v1/projects/${project.json!.data!.id}/glossary`, { term: 'preview build', definition: 'A build of a branch, served at its own address; the production site does not change.' });
      if (term.status !== 201) throw new Error(`glossary of ${site.slug}: ${term.status} ${term.text}`);
    }
    const build = await api('POST', `/v1/projects/${project.json!.data!.id}/builds`, {});
    if (build.status !== 202) throw new Error(`building ${site.slug}: ${build.status} ${build.text}`);
    builds.push({ slug: site.slug, projectId: project.json!.data!.id, buildId: build.json!.data!.id });
  }
  const deadline = Date.now() + BUILD_TIMEOUT_MS;
  for (const b of builds) {
    for (;;) {
      const { json } = await api('GET', `/v1/projects/${b.projectId}/builds/${b.buildId}`);
      const status = json?.data?.status;
      if (status === 'deployed') break;
      if (status === 'failed' || status === 'cancelled' || Date.now() > deadline) {
        const tail = await saveBuildLog(b.slug, b.projectId, b.buildId);
        const what = Date.now() > deadline ? `did not finish within ${BUILD_TIMEOUT_MS / 1000} s (status ${status})` : `${status}: ${json?.data?.error ?? ''}`;
        throw new Error(`build of ${b.slug} ${what}\n--- build log (e2e/artifacts/builds/${b.slug}.log) ---\n${tail}\n--- server log: e2e/artifacts/server.log`);
      }
      await new Promise((r) => setTimeout(r, 500));
    }
    await saveBuildLog(b.slug, b.projectId, b.buildId);
    if (b.slug === VERSIONS_SLUG) {
      const list = async () => ((await api('GET', `/v1/projects/${b.projectId}/builds`)).json as unknown as { data: Array<{ id: string; status: string; url: string | null }> }).data;
      await waitForVersionBuilds(list, deadline);
    }
  }
}

/**
 * Playwright global setup: starts Quire (tsx, no build step) on 127.0.0.1:E2E_PORT with a temp data dir and
 * QUIRE_ALLOW_FILE_REPOS=1, builds the demo, pezzo and agentops sites through the REST API, and returns the
 * teardown that stops the server and removes the data dir. The server log goes to e2e/artifacts/server.log.
 *
 * With QUIRE_E2E_REUSE_SERVER=1 and a server already answering on the port (started by `node --import tsx
 * e2e/serve.ts`, which keeps the built sites up), nothing is started: quick iterations on the specs.
 * Throws when the server does not start or a build fails (the message carries the build log's tail).
 */
export default async function globalSetup(): Promise<() => Promise<void>> {
  if (process.env.QUIRE_E2E_REUSE_SERVER === '1' && (await serverAnswers())) {
    const { text } = await api('GET', '/v1/projects');
    const missing = SITES.filter((s) => !text.includes(`"slug":"${s.slug}"`)).map((s) => s.slug);
    if (missing.length) throw new Error(`QUIRE_E2E_REUSE_SERVER: the server on port ${E2E_PORT} has no project ${missing.join(', ')}`);
    return async () => {};
  }
  if (await serverAnswers()) throw new Error(`port ${E2E_PORT} is already in use (set QUIRE_E2E_PORT, or QUIRE_E2E_REUSE_SERVER=1 to reuse it)`);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-e2e-data-'));
  fs.mkdirSync(artifacts, { recursive: true });
  fs.rmSync(path.join(artifacts, 'builds'), { recursive: true, force: true });
  const log = fs.openSync(path.join(artifacts, 'server.log'), 'w');
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'server', 'src', 'server.ts')], {
    cwd: root,
    env: {
      ...process.env,
      PORT: String(E2E_PORT),
      HOST: '127.0.0.1',
      QUIRE_DATA_DIR: dataDir,
      QUIRE_ADMIN_KEY: ADMIN_KEY,
      QUIRE_ALLOW_FILE_REPOS: '1',
      QUIRE_LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', log, log],
  });
  // never leave the server behind, even when the runner dies without calling the teardown
  const killOnExit = () => child.kill('SIGTERM');
  process.once('exit', killOnExit);
  const stop = async () => {
    process.off('exit', killOnExit);
    if (child.exitCode === null) {
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
    }
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    await waitForServer(child, Date.now() + 60_000);
    await buildSites();
  } catch (err) {
    await stop();
    throw err;
  }
  return stop;
}
