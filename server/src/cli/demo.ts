import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { dataPaths } from '../data-paths';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import { configOrExit, runServer } from '../run-server';
import type { RequestAuth } from '../http/request-auth';
import { createProject, projectSiteUrl } from '../services/projects';
import { triggerBuild } from '../services/builds';
import { buildLogPath } from '../jobs/build-log';

/** The example docs this repository ships; the demo site is built from them. */
export const DEMO_DOCS_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../examples/demo-docs');
/** Slug of the demo project: its site is `http://demo-docs.<sites domain>:<port>/`. */
export const DEMO_SLUG = 'demo';

const GIT_ENV = {
  GIT_AUTHOR_NAME: 'Quire demo',
  GIT_AUTHOR_EMAIL: 'demo@quire.local',
  GIT_COMMITTER_NAME: 'Quire demo',
  GIT_COMMITTER_EMAIL: 'demo@quire.local',
};

/**
 * Mirrors `examples/demo-docs` into a git repository at `<dataDir>/demo-repo` and commits any
 * difference, so editing the examples and running `pnpm demo` again publishes the edit.
 * @returns the repository path and whether this call made a new commit.
 */
export function syncDemoRepo(dataDir: string, sourceDir = DEMO_DOCS_DIR): { repo: string; changed: boolean } {
  const repo = dataPaths(dataDir).demoRepo;
  const git = (...args: string[]) => execFileSync('git', args, { cwd: repo, env: { ...process.env, ...GIT_ENV }, stdio: 'pipe' }).toString();
  if (!fs.existsSync(path.join(repo, '.git'))) {
    fs.mkdirSync(repo, { recursive: true });
    git('init', '-q', '-b', 'main');
  }
  for (const entry of fs.readdirSync(repo)) if (entry !== '.git') fs.rmSync(path.join(repo, entry), { recursive: true, force: true });
  fs.cpSync(sourceDir, repo, { recursive: true });
  git('add', '-A');
  if (git('status', '--porcelain').trim() === '') return { repo, changed: false };
  git('commit', '-q', '-m', 'Update the demo docs');
  return { repo, changed: true };
}

/** Acts as the bootstrap owner (the default organization's first owner) for the demo's own calls. */
async function ownerAuth(app: FastifyInstance): Promise<RequestAuth> {
  const { prisma } = app.ctx.db;
  const org = await prisma.organization.findFirstOrThrow({ orderBy: { createdAt: 'asc' } });
  const owner = await prisma.membership.findFirst({ where: { orgId: org.id, role: 'owner' }, orderBy: { createdAt: 'asc' } });
  return { orgId: org.id, userId: owner?.userId ?? null, keyId: 'demo-setup', permissions: ['admin'], projectId: null, mode: 'live' };
}

/** Waits for a build to end, echoing its log lines; resolves with its final status and error. */
async function followBuild(app: FastifyInstance, buildId: string): Promise<{ status: string; error: string | null }> {
  const logFile = buildLogPath(app.ctx.config.dataDir, buildId);
  let printed = 0;
  for (;;) {
    const build = await app.ctx.db.prisma.build.findUniqueOrThrow({ where: { id: buildId }, select: { status: true, error: true } });
    if (fs.existsSync(logFile)) {
      const lines = fs.readFileSync(logFile, 'utf8').split('\n').filter(Boolean);
      for (const line of lines.slice(printed)) process.stdout.write(`  ${line}\n`);
      printed = lines.length;
    }
    if (!['queued', 'building'].includes(build.status)) return build;
    await new Promise((r) => setTimeout(r, 250));
  }
}

/**
 * `pnpm demo`: starts Quire like `pnpm start`, then makes sure the demo project exists, builds it
 * from the shipped example docs when they changed (or were never deployed), and prints its URL.
 * Local repositories are allowed for this process (QUIRE_ALLOW_FILE_REPOS=1 unless set otherwise),
 * since the demo repository is a folder in the data directory.
 */
async function main(): Promise<void> {
  const config = configOrExit({ QUIRE_ALLOW_FILE_REPOS: process.env.QUIRE_ALLOW_FILE_REPOS ?? '1' });
  const app = await runServer(config);
  const { repo, changed } = syncDemoRepo(config.dataDir);
  const auth = await ownerAuth(app);
  const { prisma } = app.ctx.db;
  const existing = await prisma.project.findUnique({ where: { slug: DEMO_SLUG } });
  const project = existing ?? (await createProject(app.ctx, auth, { name: 'Quire demo', slug: DEMO_SLUG, repoUrl: repo, repoBranch: 'main', description: 'The example docs shipped with Quire.' }));
  const url = projectSiteUrl(config, DEMO_SLUG);
  const deployed = await prisma.deployment.count({ where: { projectId: project.id, kind: 'production' } });
  if (changed || deployed === 0) {
    const running = await prisma.build.findFirst({ where: { projectId: project.id, status: { in: ['queued', 'building'] } } });
    const build = running ?? (await triggerBuild(app.ctx, { ...auth, orgId: project.orgId }, project.id, {}));
    process.stdout.write(`Building the demo site (build ${build.id})…\n`);
    const result = await followBuild(app, build.id);
    if (result.status !== 'deployed') {
      process.stdout.write(`The demo build ${result.status}${result.error ? `: ${result.error.replace(/\.$/, '')}` : ''}. The server keeps running; fix the docs and run pnpm demo again.\n`);
      return;
    }
  }
  process.stdout.write(`\nDemo site: ${url}\n(Open it in a browser; *.localhost names resolve to this machine. Ctrl-C stops the server.)\n`);
}

void main();
