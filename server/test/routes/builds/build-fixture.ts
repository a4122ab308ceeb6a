import { createFixtureRepo, type FixtureRepo } from '../../helpers/git-repo';
import { bearer, type TestApp } from '../../helpers/app';

/** A tiny docs repository: docs.json with two pages and a redirect. */
export function docsRepo(marker = 'FIRST'): FixtureRepo {
  return createFixtureRepo(undefined, {
    extraFiles: {
      'docs.json': JSON.stringify({
        name: 'Acme Docs',
        navigation: { groups: [{ group: 'Start', pages: ['index', 'guides/setup'] }] },
        redirects: [{ source: '/old', destination: '/guides/setup' }],
      }),
      'index.mdx': `---\ntitle: Welcome\n---\n\n# Welcome\n\n${marker} home page.\n`,
      'guides/setup.mdx': `---\ntitle: Setup\n---\n\nInstall it. ${marker}\n`,
    },
  });
}

/** Creates a project on `repo` through the API, with `settings` when given (e.g. `{protectPreviews: false}`); returns its id and slug. */
export async function createProject(t: TestApp, repo: FixtureRepo, slug: string, settings?: Record<string, boolean>): Promise<{ id: string; slug: string }> {
  const res = await t.app.inject({
    method: 'POST',
    url: '/v1/projects',
    headers: bearer(t.adminKey),
    payload: { name: slug, slug, repoUrl: repo.path, repoBranch: repo.branch, ...(settings ? { settings } : {}) },
  });
  if (res.statusCode !== 201) throw new Error(`project create failed: ${res.statusCode} ${res.body}`);
  return res.json().data as { id: string; slug: string };
}

/** Polls `GET .../builds/{id}` until the status is one of `statuses` (or throws after `timeoutMs`). */
export async function waitForStatus(t: TestApp, projectId: string, buildId: string, statuses: string[], timeoutMs = 25_000) {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const res = await t.app.inject({ url: `/v1/projects/${projectId}/builds/${buildId}`, headers: bearer(t.adminKey) });
    const build = res.json().data as { status: string; [k: string]: unknown };
    if (statuses.includes(build.status)) return build;
    if (Date.now() > until) throw new Error(`build ${buildId} still ${build.status}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** `POST .../builds` with an optional body. */
export function trigger(t: TestApp, projectId: string, body?: Record<string, unknown>, key = t.adminKey) {
  return t.app.inject({ method: 'POST', url: `/v1/projects/${projectId}/builds`, headers: bearer(key), ...(body ? { payload: body } : {}) });
}
