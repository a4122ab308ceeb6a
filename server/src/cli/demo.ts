import fs from 'node:fs';
import type { FastifyInstance } from 'fastify';
import { configOrExit, runServer } from '../run-server';
import type { RequestAuth } from '../access/request-auth';
import { createProject, projectSiteUrl } from '../services/projects';
import { triggerBuild } from '../services/builds';
import { buildLogPath } from '../builds/build-log';
import { syncDemoRepo } from './demo-repo';

/** Slug of the demo project: its site is `http://demo-docs.<sites domain>:<port>/`. */
export const DEMO_SLUG = 'demo';

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
 * when its repository is new (or was never deployed), and prints its URL and its repository.
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
  process.stdout.write(`Demo repository: ${repo} (merges land here; delete it to start the demo from examples/demo-docs again)\n`);
}

void main();
