import { createFixtureRepo, type FixtureRepo } from '../helpers/git-repo';
import { bearer, type TestApp } from '../helpers/app';

/**
 * A docs repository with gated pages (frontmatter `audience`) for the site gate's tests, and helpers
 * to build it, issue tokens and read what a visitor gets. Every gated page's title, description and
 * body carry a marker that must never reach a visitor without access.
 */

/** Text of the gated pages that no visitor without access may ever see. */
export const SECRETS = ['Partner Portal', 'PARTNER-BODY', 'PARTNER-DESCRIPTION', 'Internal Runbook', 'INTERNAL-BODY', 'Vault Plans', 'VAULT-BODY'];

/** The repository: a public home, two gated pages between public ones, a gated page in a folder. */
export function gatedDocsRepo(): FixtureRepo {
  return createFixtureRepo(undefined, {
    extraFiles: {
      'docs.json': JSON.stringify({
        name: 'Gate Docs',
        navigation: {
          groups: [
            { group: 'Start', pages: ['index', 'partners', 'internal', 'setup'] },
            { group: 'Guides', pages: ['guides/intro', 'guides/vault'] },
          ],
        },
      }),
      'index.mdx': '---\ntitle: Welcome\n---\n\nPUBLIC-HOME text.\n',
      'partners.mdx': '---\ntitle: Partner Portal\ndescription: PARTNER-DESCRIPTION\naudience: partners\n---\n\nPARTNER-BODY text.\n',
      'internal.mdx': '---\ntitle: Internal Runbook\naudience: [internal, staff]\n---\n\nINTERNAL-BODY text.\n',
      'setup.mdx': '---\ntitle: Setup\n---\n\nPUBLIC-SETUP text.\n',
      'guides/intro.mdx': '---\ntitle: Intro\n---\n\nPUBLIC-INTRO text.\n',
      'guides/vault.mdx': '---\ntitle: Vault Plans\naudience: partners\n---\n\nVAULT-BODY text.\n',
    },
  });
}

/** Creates a project on `repo` through the API, with `settings` when given (e.g. `{protectPreviews: false}`); returns its id. */
export async function createGatedProject(t: TestApp, repo: FixtureRepo, slug: string, settings?: Record<string, boolean>): Promise<string> {
  const payload = { name: slug, slug, repoUrl: repo.path, repoBranch: repo.branch, ...(settings ? { settings } : {}) };
  const res = await t.app.inject({ method: 'POST', url: '/v1/projects', headers: bearer(t.adminKey), payload });
  if (res.statusCode !== 201) throw new Error(`project create failed: ${res.statusCode} ${res.body}`);
  return (res.json().data as { id: string }).id;
}

/** Triggers a build (a preview with `preview: true`) and waits until it is deployed (at most `timeoutMs`, default a minute). */
export async function buildAndDeploy(t: TestApp, projectId: string, body: Record<string, unknown> = {}, timeoutMs = 60_000): Promise<void> {
  const res = await t.app.inject({ method: 'POST', url: `/v1/projects/${projectId}/builds`, headers: bearer(t.adminKey), payload: body });
  if (res.statusCode !== 202) throw new Error(`build trigger failed: ${res.statusCode} ${res.body}`);
  const buildId = (res.json().data as { id: string }).id;
  const until = Date.now() + timeoutMs;
  for (;;) {
    const build = (await t.app.inject({ url: `/v1/projects/${projectId}/builds/${buildId}`, headers: bearer(t.adminKey) })).json().data as { status: string; error?: string };
    if (build.status === 'deployed') return;
    if (build.status === 'failed' || build.status === 'cancelled') throw new Error(`build ${build.status}: ${build.error ?? ''}`);
    if (Date.now() > until) throw new Error(`build ${buildId} still ${build.status}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Creates an audience profile with `audiences` and issues a token for it; returns the profile id and the token. */
export async function issueToken(
  t: TestApp,
  projectId: string,
  slug: string,
  audiences: string[],
): Promise<{ profileId: string; token: string; magicLink: string }> {
  const profile = await t.app.inject({ method: 'POST', url: `/v1/projects/${projectId}/audiences`, headers: bearer(t.adminKey), payload: { name: slug, slug, audiences } });
  if (profile.statusCode !== 201) throw new Error(`profile create failed: ${profile.statusCode} ${profile.body}`);
  const profileId = (profile.json() as { id: string }).id;
  const token = await t.app.inject({ method: 'POST', url: `/v1/projects/${projectId}/audiences/${profileId}/token`, headers: bearer(t.adminKey), payload: {} });
  if (token.statusCode !== 201) throw new Error(`token failed: ${token.statusCode} ${token.body}`);
  const body = token.json() as { token: string; magicLink: string };
  return { profileId, token: body.token, magicLink: body.magicLink };
}

/** Every `Set-Cookie` header of a response, as one array. */
export function setCookies(headers: Record<string, unknown>): string[] {
  const value = headers['set-cookie'];
  return value === undefined ? [] : Array.isArray(value) ? (value as string[]) : [String(value)];
}

/** The sidebar of a built page. */
export const sidebarOf = (html: string) => html.slice(html.indexOf('<aside class="q-sidebar"'), html.indexOf('</aside>', html.indexOf('<aside class="q-sidebar"')));

/** The previous/next links of a built page: `[{rel, href, title}]`. */
export function pagerLinks(html: string): { rel: string; href: string; title: string }[] {
  const start = html.indexOf('<nav class="q-pager"');
  if (start === -1) return [];
  const pager = html.slice(start, html.indexOf('</nav>', start));
  return [...pager.matchAll(/<a [^>]*href="([^"]*)" rel="(prev|next)"[^>]*>[^]*?<span class="q-pager-title">([^<]*)<\/span><\/a>/g)].map((m) => ({ href: m[1]!, rel: m[2]!, title: m[3]! }));
}
