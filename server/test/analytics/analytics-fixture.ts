/**
 * A built documentation project for the analytics tests: a home page, a long page with headings, a
 * page not updated since 2020 (stale), a short page without a description and with a broken link, and an OpenAPI file with
 * three public operations (one generated page from the navigation, one MDX page naming another by
 * frontmatter `openapi:`, one undocumented) plus an `x-hidden` and an `x-internal` one.
 */
import { bearer, type TestApp } from '../helpers/app';
import { createFixtureRepo, type FixtureRepo } from '../helpers/git-repo';
import { buildAndDeploy, createGatedProject } from '../sites/gate-fixture';

const spec = {
  openapi: '3.0.3',
  info: { title: 'Pets', version: '1' },
  paths: {
    '/pets': {
      get: { summary: 'List pets', responses: { 200: { description: 'ok' } } },
      post: { summary: 'Create a pet', responses: { 201: { description: 'created' } } },
    },
    '/pets/{id}': {
      parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
      delete: { summary: 'Delete a pet', responses: { 204: { description: 'deleted' } } },
      get: { summary: 'Get a pet', 'x-hidden': true, responses: { 200: { description: 'ok' } } },
      put: { summary: 'Replace a pet', 'x-internal': true, responses: { 200: { description: 'ok' } } },
    },
  },
};

const longBody = Array.from({ length: 8 }, (_, i) => `## Part ${i + 1}\n\n${'Words about the long guide and its many careful details. '.repeat(8)}\n`).join('\n');

/** The repository. */
export function analyticsDocsRepo(): FixtureRepo {
  return createFixtureRepo(undefined, {
    extraFiles: {
      'docs.json': JSON.stringify({
        name: 'Analytics Docs',
        navigation: {
          groups: [
            { group: 'Start', pages: ['index', 'guide', 'stale', 'short', 'create-pet'] },
            { group: 'API', pages: ['GET /pets'] },
          ],
        },
      }),
      'openapi.json': JSON.stringify(spec),
      'index.mdx': `---\ntitle: Welcome\ndescription: The analytics docs\n---\n\n${'Welcome to these docs, they explain everything you need. '.repeat(6)}\n`,
      'guide.mdx': `---\ntitle: Long guide\ndescription: Everything in detail\n---\n\n${longBody}`,
      'stale.mdx': `---\ntitle: Old notes\ndescription: Kept for reference\nlastUpdated: 2020-01-15\n---\n\n${'These notes were written long ago and never looked at again. '.repeat(6)}\n`,
      'short.mdx': '---\ntitle: Short\n---\n\nToo short, see [the missing page](/missing-page).\n',
      'create-pet.mdx': '---\ntitle: Create a pet\nopenapi: POST /pets\n---\n\nCreates a pet.\n',
    },
  });
}

/** Creates the project on `repo` and deploys production; returns the project id and its site host. */
export async function deployAnalyticsProject(t: TestApp, repo: FixtureRepo, slug: string): Promise<{ projectId: string; host: string }> {
  const projectId = await createGatedProject(t, repo, slug);
  await buildAndDeploy(t, projectId);
  return { projectId, host: `${slug}-docs.localhost:${t.ctx.config.port}` };
}

/** GET of an analytics route as the admin; returns status and body (read loosely: the tests assert its shape). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function analytics(t: TestApp, projectId: string, route: string, key = t.adminKey): Promise<{ status: number; body: any }> {
  const res = await t.app.inject({ url: `/v1/projects/${projectId}/analytics/${route}`, headers: bearer(key) });
  return { status: res.statusCode, body: res.json() };
}
