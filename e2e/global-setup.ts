import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { E2E_PORT } from './playwright.config';
import { makeGitRepo } from './fixtures/git-repo';
import { API_URL } from './fixtures/sites';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '..');
const corpus = path.resolve(root, '..', 'shared', 'corpus');
/** What the API answers: an envelope with data or error (typed loosely: the spec is the contract). */
type ApiAnswer = { data?: { id: string; status?: string; error?: string }; error?: { code: string; message: string } } | undefined;

const ADMIN_KEY = `quire_e2eadmin_${'x'.repeat(40)}`;

/** The sites the specs read, built through the public API before any spec runs. */
const SITES = [
  { slug: 'demo', name: 'Quire demo', dir: path.join(root, 'examples', 'demo-docs') },
  { slug: 'pezzo', name: 'Pezzo', dir: path.join(corpus, 'pezzo') },
  { slug: 'agentops', name: 'AgentOps', dir: path.join(corpus, 'agentops') },
];

async function api(method: string, url: string, body?: unknown): Promise<{ status: number; json: ApiAnswer }> {
  const res = await fetch(`${API_URL}${url}`, {
    method,
    headers: { Authorization: `Bearer ${ADMIN_KEY}`, ...(body ? { 'Content-Type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const text = await res.text();
  return { status: res.status, json: text ? JSON.parse(text) : undefined };
}

async function waitForServer(child: ChildProcess, deadline: number): Promise<void> {
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the Quire server exited with code ${child.exitCode}`);
    try {
      await fetch(`${API_URL}/v1/openapi.json`);
      return;
    } catch {
      await new Promise((r) => setTimeout(r, 200));
    }
  }
  throw new Error('the Quire server did not start within 60 s');
}

/** Starts Quire on a temp data dir, creates one project per site, builds them, and stops it after the run. */
export default async function globalSetup(): Promise<() => Promise<void>> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-e2e-data-'));
  const logFile = path.join(here, 'artifacts', 'server.log');
  fs.mkdirSync(path.dirname(logFile), { recursive: true });
  const log = fs.openSync(logFile, 'w');
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
  try {
    await waitForServer(child, Date.now() + 60_000);
    const builds: { slug: string; projectId: string; buildId: string }[] = [];
    for (const site of SITES) {
      const repo = makeGitRepo(site.dir, site.slug);
      const project = await api('POST', '/v1/projects', { name: site.name, slug: site.slug, repoUrl: repo, repoBranch: 'main' });
      if (project.status !== 201) throw new Error(`creating ${site.slug}: ${project.status} ${JSON.stringify(project.json)}`);
      const build = await api('POST', `/v1/projects/${project.json!.data!.id}/builds`, {});
      if (build.status !== 202) throw new Error(`building ${site.slug}: ${build.status} ${JSON.stringify(build.json)}`);
      builds.push({ slug: site.slug, projectId: project.json!.data!.id, buildId: build.json!.data!.id });
    }
    const deadline = Date.now() + 240_000;
    for (const b of builds) {
      for (;;) {
        const { json } = await api('GET', `/v1/projects/${b.projectId}/builds/${b.buildId}`);
        const status = json?.data?.status;
        if (status === 'deployed') break;
        if (status === 'failed' || status === 'cancelled') throw new Error(`build of ${b.slug} ${status}: ${json?.data?.error ?? ''}`);
        if (Date.now() > deadline) throw new Error(`build of ${b.slug} did not finish in time (status ${status})`);
        await new Promise((r) => setTimeout(r, 500));
      }
    }
  } catch (err) {
    child.kill('SIGTERM');
    throw err;
  }
  return async () => {
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
}
