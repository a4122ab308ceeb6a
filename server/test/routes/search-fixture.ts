/**
 * A built documentation project for the search and pages tests: public pages with sections, gated
 * pages (frontmatter `audience`), a hidden page, and two documentation versions — the default `v2`
 * (production, branch main) and `old` (branch `v1`, deployed to the version channel `old`).
 *
 * The `old` deployment is the version build's when the server made one (version builds, helper C);
 * otherwise a preview build of branch `v1` is deployed and its Deployment row moved to the channel
 * `{kind: 'version', previewName: 'old'}`, which is what a version build leaves.
 */
import { execFileSync } from 'node:child_process';
import { bearer, type TestApp } from '../helpers/app';
import { createFixtureRepo, type FixtureRepo } from '../helpers/git-repo';
import { buildAndDeploy, createGatedProject } from '../sites/gate-fixture';

/** Words that occur in exactly one place of the fixture. */
export const WORDS = {
  /** setup.mdx, section "Install the CLI" */
  install: 'quirecli',
  /** partners.mdx (gated: partners) */
  partner: 'zebrafinch',
  /** internal.mdx (gated: internal, staff) */
  internal: 'marmotrun',
  /** hidden.mdx (hidden: true) */
  hidden: 'wombatword',
  /** setup.mdx on branch v1 only (version `old`) */
  legacy: 'legacyinstaller',
};

const docsJson = JSON.stringify({
  name: 'Search Docs',
  navigation: { groups: [{ group: 'Start', pages: ['index', 'setup', 'partners', 'internal', 'guides/intro'] }] },
  versioning: { versions: [{ label: 'v2', default: true }, { label: 'old', branch: 'v1' }] },
  redirects: [
    { source: '/getting-started', destination: '/setup' },
    { source: '/moved/:slug', destination: '/guides/:slug' },
    { source: '/loop-a', destination: '/loop-b' },
    { source: '/loop-b', destination: '/loop-a' },
    { source: '/elsewhere', destination: 'https://example.com/docs' },
  ],
});

/** The repository (branch `main`, and branch `v1` with the older setup page). */
export function searchDocsRepo(): FixtureRepo {
  const repo = createFixtureRepo(undefined, {
    extraFiles: {
      'docs.json': docsJson,
      'index.mdx': '---\ntitle: Welcome\n---\n\nWelcome to the search docs.\n',
      'setup.mdx': `---\ntitle: Setup\nlastUpdated: 2024-01-02\ndescription: Getting ready\n---\n\nHow to get going.\n\n## Install the CLI\n\nRun the ${WORDS.install} installer from a terminal.\n\n### Configure tokens\n\nPut your token in the environment.\n`,
      'partners.mdx': `---\ntitle: Partner Portal\naudience: partners\n---\n\nThe ${WORDS.partner} pricing for partners.\n`,
      'internal.mdx': `---\ntitle: Internal Runbook\naudience: [internal, staff]\n---\n\nThe ${WORDS.internal} procedure.\n`,
      'hidden.mdx': `---\ntitle: Hidden Notes\nhidden: true\n---\n\nThe ${WORDS.hidden} notes.\n`,
      'guides/intro.mdx': '---\ntitle: Intro\n---\n\nAn introduction.\n\n## Next steps\n\nRead the setup page.\n',
    },
  });
  repo.commit({ 'setup.mdx': `---\ntitle: Setup\n---\n\nOld setup.\n\n## Install the CLI\n\nRun the ${WORDS.legacy} program.\n` }, 'v1 setup');
  // branch v1 = this commit; main goes back to the newer setup page
  execFileSync('git', ['branch', 'v1'], { cwd: repo.path });
  execFileSync('git', ['reset', '--quiet', '--hard', 'HEAD~1'], { cwd: repo.path });
  return repo;
}

/**
 * Waits for the version build of `label` that follows a production deploy (version builds: queued
 * right after the deploy) to end; false when none is queued within `appearMs` (no version builds).
 */
async function waitVersionBuild(t: TestApp, projectId: string, label: string, appearMs = 5_000): Promise<boolean> {
  const appearBy = Date.now() + appearMs;
  const until = Date.now() + 60_000;
  for (;;) {
    const build = await t.ctx.db.prisma.build.findFirst({ where: { projectId, version: label }, orderBy: { createdAt: 'desc' } });
    if (!build && Date.now() > appearBy) return false;
    if (build && !['queued', 'building'].includes(build.status)) return build.status === 'deployed';
    if (Date.now() > until) throw new Error(`the version build of ${label} is still running`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Creates the project, deploys production and the version `old`; returns the project id and its site host. */
export async function deploySearchProject(t: TestApp, repo: FixtureRepo, slug: string): Promise<{ projectId: string; host: string }> {
  const projectId = await createGatedProject(t, repo, slug);
  await buildAndDeploy(t, projectId);
  if (!(await waitVersionBuild(t, projectId, 'old'))) {
    await buildAndDeploy(t, projectId, { branch: 'v1', preview: true });
    const preview = await t.ctx.db.prisma.deployment.findFirst({ where: { projectId, kind: 'preview' }, orderBy: { createdAt: 'desc' } });
    if (!preview) throw new Error('the v1 preview was not deployed');
    await t.ctx.db.prisma.deployment.update({ where: { id: preview.id }, data: { kind: 'version', previewName: 'old' } });
  }
  return { projectId, host: `${slug}-docs.localhost:${t.ctx.config.port}` };
}

/** `GET /v1/projects/{projectId}/search` with a query string. */
export function apiSearch(t: TestApp, projectId: string, query: string, headers: Record<string, string> = {}, key = t.adminKey) {
  return t.app.inject({ url: `/v1/projects/${projectId}/search?${query}`, headers: { ...bearer(key), ...headers } });
}
