/**
 * `GET /v1/projects/{projectId}/search` (interface-spec.md "Search"; decisions.md section 7) on a
 * really built project: the hit shape, `q` and `limit` validation, the `search:read` permission,
 * version scoping (default label, another version, an unknown label), what an API key and an
 * audience token's reader see, and searches with no hits counted as content gaps.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKey, createTestApp, type TestApp } from '../helpers/app';
import type { FixtureRepo } from '../helpers/git-repo';
import { issueToken } from '../sites/gate-fixture';
import { apiSearch, deploySearchProject, searchDocsRepo, WORDS } from './search-fixture';

let t: TestApp;
let repo: FixtureRepo;
let projectId: string;
let host: string;

type Hit = { title: string; path: string; url: string; section: string | null; snippet: string; version: string | null; score: number };
const hitsOf = (res: { json(): unknown }) => (res.json() as { data: Hit[] }).data;

beforeAll(async () => {
  t = await createTestApp({ runJobs: true });
  repo = searchDocsRepo();
  ({ projectId, host } = await deploySearchProject(t, repo, 'search-api'));
}, 120_000);

afterAll(async () => {
  await t?.close();
  repo?.cleanup();
});

describe('search hits', () => {
  it('answers the section a word is in, with its absolute URL, snippet and version', async () => {
    const res = await apiSearch(t, projectId, `q=${WORDS.install}`);
    expect(res.statusCode).toBe(200);
    const [hit] = hitsOf(res);
    expect(hit).toMatchObject({ title: 'Setup', path: 'setup', section: 'Install the CLI', version: 'v2' });
    expect(hit!.url).toBe(`http://${host}/setup#install-the-cli`);
    expect(hit!.snippet).toContain(`<mark>${WORDS.install}</mark>`);
    expect(typeof hit!.score).toBe('number');
    expect(Object.keys(hit!).sort()).toEqual(['path', 'score', 'section', 'snippet', 'title', 'url', 'version']);
  });

  it('finds a page by its title, with a null section for its introduction', async () => {
    const hits = hitsOf(await apiSearch(t, projectId, 'q=Welcome'));
    expect(hits[0]).toMatchObject({ path: 'index', title: 'Welcome', section: null });
  });

  it('keeps to limit', async () => {
    expect(hitsOf(await apiSearch(t, projectId, 'q=setup')).length).toBeGreaterThan(1);
    expect(hitsOf(await apiSearch(t, projectId, 'q=setup&limit=1'))).toHaveLength(1);
  });

  it('never returns hidden pages', async () => {
    expect(hitsOf(await apiSearch(t, projectId, `q=${WORDS.hidden}`))).toEqual([]);
  });
});

describe('search input', () => {
  it.each([
    ['limit=5', 'q'],
    ['q=', 'q'],
    ['q=%20%20', 'q'],
    [`q=${'a'.repeat(201)}`, 'q'],
    ['q=setup&limit=0', 'limit'],
    ['q=setup&limit=51', 'limit'],
    ['q=setup&limit=ten', 'limit'],
    ['q=set%00up', 'q'],
  ])('refuses %s with 400 naming %s', async (query, field) => {
    const res = await apiSearch(t, projectId, query);
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toMatchObject({ code: 'invalid_request', details: { field } });
  });

  it('takes limit 50 and a 200-character query', async () => {
    expect((await apiSearch(t, projectId, 'q=setup&limit=50')).statusCode).toBe(200);
    expect((await apiSearch(t, projectId, `q=${'a'.repeat(200)}`)).statusCode).toBe(200);
  });

  it('needs search:read', async () => {
    const { key: without } = await createKey(t, ['projects:read']);
    expect((await apiSearch(t, projectId, 'q=setup', {}, without)).statusCode).toBe(403);
    const { key: reader } = await createKey(t, ['search:read']);
    expect((await apiSearch(t, projectId, 'q=setup', {}, reader)).statusCode).toBe(200);
  });

  it('answers 404 for an unknown project', async () => {
    expect((await apiSearch(t, 'prj_doesnotexist00000000', 'q=setup')).statusCode).toBe(404);
  });
});

describe('versions', () => {
  it('searches the production site for the default label and for no label', async () => {
    for (const query of [`q=${WORDS.install}&version=v2`, `q=${WORDS.install}`]) {
      const hits = hitsOf(await apiSearch(t, projectId, query));
      expect(hits[0]).toMatchObject({ path: 'setup', version: 'v2' });
    }
    expect(hitsOf(await apiSearch(t, projectId, `q=${WORDS.legacy}`))).toEqual([]);
  });

  it('searches only the asked version, with its URL prefix', async () => {
    const hits = hitsOf(await apiSearch(t, projectId, `q=${WORDS.legacy}&version=old`));
    expect(hits[0]).toMatchObject({ path: 'setup', version: 'old', section: 'Install the CLI' });
    expect(hits[0]!.url).toBe(`http://${host}/old/setup#install-the-cli`);
    expect(hitsOf(await apiSearch(t, projectId, `q=${WORDS.install}&version=old`))).toEqual([]);
  });

  it('answers 404 not_found for a label that is not a version', async () => {
    const res = await apiSearch(t, projectId, 'q=setup&version=v9');
    expect(res.statusCode).toBe(404);
    expect(res.json().error.code).toBe('not_found');
  });
});

describe('gated pages', () => {
  it('are found with an API key (the project\'s own integrators)', async () => {
    expect(hitsOf(await apiSearch(t, projectId, `q=${WORDS.partner}`))[0]).toMatchObject({ path: 'partners' });
  });

  it('are found with an audience token only when it opens one of their tags', async () => {
    const staff = await issueToken(t, projectId, 'staff', ['staff']);
    const asStaff = { 'x-audience-token': staff.token };
    expect(hitsOf(await apiSearch(t, projectId, `q=${WORDS.partner}`, asStaff))).toEqual([]);
    expect(hitsOf(await apiSearch(t, projectId, `q=${WORDS.internal}`, asStaff))[0]).toMatchObject({ path: 'internal' });
    expect(hitsOf(await apiSearch(t, projectId, `q=${WORDS.internal}`, { 'x-audience-token': 'not-a-token' }))).toEqual([]);
  });
});

describe('content gaps', () => {
  it('counts a search without hits under its normalised query and version', async () => {
    await apiSearch(t, projectId, 'q=Quantum%20%20Teleport');
    await apiSearch(t, projectId, 'q=quantum%20teleport');
    await apiSearch(t, projectId, 'q=quantum%20teleport&version=old');
    await t.ctx.search.gaps.settle();
    const rows = await t.ctx.db.prisma.contentGap.findMany({ where: { projectId, topic: 'quantum teleport' }, orderBy: { version: 'asc' } });
    expect(rows.map((r) => ({ source: r.source, version: r.version, frequency: r.frequency }))).toEqual([
      { source: 'search', version: 'old', frequency: 1 },
      { source: 'search', version: 'v2', frequency: 2 },
    ]);
  });

  it('does not count a search that found something', async () => {
    await apiSearch(t, projectId, `q=${WORDS.install}`);
    await t.ctx.search.gaps.settle();
    expect(await t.ctx.db.prisma.contentGap.count({ where: { projectId, topic: WORDS.install, version: 'v2' } })).toBe(0);
  });
});

describe('OpenAPI', () => {
  it('documents search, reindex and pages, with the page path as a parameter named path', async () => {
    const doc = (await t.app.inject({ url: '/v1/openapi.json' })).json() as { paths: Record<string, Record<string, { parameters?: { name: string; in: string }[]; responses: Record<string, unknown> }>> };
    const base = '/v1/projects/{projectId}';
    expect(doc.paths[`${base}/search`]?.get?.responses).toHaveProperty('200');
    expect(doc.paths[`${base}/search/reindex`]?.post?.responses).toHaveProperty('202');
    expect(doc.paths[`${base}/search/reindex`]?.post?.responses).toHaveProperty('409');
    expect(doc.paths[`${base}/search/reindex/{jobId}`]?.get).toBeDefined();
    expect(doc.paths[`${base}/pages`]?.get).toBeDefined();
    expect(doc.paths[`${base}/pages/{path}`]?.get?.parameters?.map((p) => p.name)).toContain('path');
  });
});
