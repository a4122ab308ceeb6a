/**
 * Pages and Content (an API section of interface-spec.md): `GET /v1/projects/{projectId}/pages`
 * (the deployed inventory of a version, paginated) and `GET /v1/projects/{projectId}/pages/{path}`
 * (frontmatter, Markdown, headings), both narrowed to an audience token's reader when one is sent.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createKey, createTestApp, type TestApp } from '../helpers/app';
import type { FixtureRepo } from '../helpers/git-repo';
import { issueToken } from '../sites/gate-fixture';
import { deploySearchProject, searchDocsRepo, WORDS } from './search-fixture';

let t: TestApp;
let repo: FixtureRepo;
let projectId: string;

type Page = {
  path: string;
  title: string;
  version: string | null;
  audience: string[];
  hidden: boolean;
  owner: { email: string } | null;
  lastUpdated: string | null;
  contentHash: string | null;
};

const get = (url: string, headers: Record<string, string> = {}, key = t.adminKey) => t.app.inject({ url: `/v1/projects/${projectId}${url}`, headers: { ...bearer(key), ...headers } });

beforeAll(async () => {
  t = await createTestApp({ runJobs: true });
  repo = searchDocsRepo();
  ({ projectId } = await deploySearchProject(t, repo, 'pages-api'));
  const owner = await t.ctx.db.prisma.membership.findFirst({ where: { orgId: t.app.bootstrap.orgId!, role: 'owner' } });
  await t.ctx.db.prisma.ownershipRule.create({ data: { id: 'own_pagesfixture000000000', projectId, pattern: 'guides/**', userId: owner!.userId } });
}, 120_000);

afterAll(async () => {
  await t?.close();
  repo?.cleanup();
});

describe('page list', () => {
  it('lists every deployed page of the default version by path, with its inventory fields', async () => {
    const res = await get('/pages');
    expect(res.statusCode).toBe(200);
    const body = res.json() as { data: Page[]; pagination: object };
    expect(body.data.map((p) => p.path)).toEqual(['guides/intro', 'hidden', 'index', 'internal', 'partners', 'setup']);
    expect(body.pagination).toEqual({ page: 1, pageSize: 20, total: 6, totalPages: 1 });
    const byPath = new Map(body.data.map((p) => [p.path, p]));
    expect(byPath.get('setup')).toMatchObject({ title: 'Setup', version: 'v2', audience: [], hidden: false, owner: null, lastUpdated: '2024-01-02T00:00:00.000Z' });
    expect(byPath.get('partners')).toMatchObject({ audience: ['partners'], lastUpdated: null });
    expect(byPath.get('hidden')).toMatchObject({ hidden: true });
    expect(byPath.get('guides/intro')!.owner).toMatchObject({ email: expect.any(String) });

    const dep = await t.ctx.db.prisma.deployment.findFirst({ where: { projectId, kind: 'production' } });
    const manifest = JSON.parse((await t.ctx.deploymentStore.open(dep!.dir).read('manifest.json')).body.toString()) as { pages: { path: string; hash: string }[] };
    expect(byPath.get('setup')!.contentHash).toBe(manifest.pages.find((p) => p.path === 'setup')!.hash);
  });

  it('pages through the inventory', async () => {
    const body = (await get('/pages?page=2&pageSize=4')).json() as { data: Page[]; pagination: object };
    expect(body.data.map((p) => p.path)).toEqual(['partners', 'setup']);
    expect(body.pagination).toEqual({ page: 2, pageSize: 4, total: 6, totalPages: 2 });
    expect((await get('/pages?page=0')).statusCode).toBe(400);
  });

  it('lists another version by its label; an unknown label is 404', async () => {
    const old = (await get('/pages?version=old')).json().data as Page[];
    expect(old.every((p) => p.version === 'old')).toBe(true);
    expect(old.map((p) => p.path)).toContain('setup');
    expect((await get('/pages?version=v9')).statusCode).toBe(404);
  });

  it('narrows to what an audience token opens', async () => {
    const { token } = await issueToken(t, projectId, 'partner-readers', ['partners']);
    const paths = ((await get('/pages', { 'x-audience-token': token })).json().data as Page[]).map((p) => p.path);
    expect(paths).toContain('partners');
    expect(paths).not.toContain('internal');
  });

  it('needs projects:read', async () => {
    const { key } = await createKey(t, ['search:read']);
    expect((await get('/pages', {}, key)).statusCode).toBe(403);
  });
});

describe('one page', () => {
  it('answers the frontmatter, the deployed Markdown and the rendered headings, by a path with slashes too', async () => {
    const res = await get('/pages/setup');
    expect(res.statusCode).toBe(200);
    const page = res.json().data as Page & { frontmatter: Record<string, unknown>; markdown: string; headings: { depth: number; id: string; text: string }[] };
    expect(page).toMatchObject({ path: 'setup', title: 'Setup', version: 'v2' });
    expect(page.frontmatter).toMatchObject({ title: 'Setup', description: 'Getting ready' });
    expect(page.markdown).toContain(WORDS.install);
    expect(page.headings).toEqual([
      { depth: 2, id: 'install-the-cli', text: 'Install the CLI' },
      { depth: 3, id: 'configure-tokens', text: 'Configure tokens' },
    ]);
    const nested = await get('/pages/guides/intro');
    expect(nested.json().data).toMatchObject({ path: 'guides/intro', headings: [{ depth: 2, id: 'next-steps', text: 'Next steps' }] });
  });

  it('answers the version asked for', async () => {
    const old = (await get('/pages/setup?version=old')).json().data as { markdown: string; version: string };
    expect(old.version).toBe('old');
    expect(old.markdown).toContain(WORDS.legacy);
  });

  it('is 404 for a page the version does not have, or one the token does not open', async () => {
    expect((await get('/pages/nope/missing')).statusCode).toBe(404);
    const { token } = await issueToken(t, projectId, 'staff-readers', ['staff']);
    expect((await get('/pages/partners', { 'x-audience-token': token })).statusCode).toBe(404);
    expect((await get('/pages/internal', { 'x-audience-token': token })).statusCode).toBe(200);
  });
});
