/**
 * The docs agent end to end (decisions.md section 11): a docs repository and a source repository
 * whose openapi.yaml renames a query parameter. A push delivery from the source repository opens a
 * review labelled "agent" that writes the new spec over the docs' copy (the generated API page shows
 * the new name in the review's preview), flags the lines of the two hand-written pages that mention
 * the old name, asks their owner to review, and lists the pages mapped to the changed code. A second
 * delivery of the same commit, and the same run asked through the API, open nothing new.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, type TestApp } from '../helpers/app';
import { createFixtureRepo, type FixtureRepo } from '../helpers/git-repo';
import { createProject, waitForStatus } from './builds/build-fixture';
import { deliver, deliveries, EXAMPLE_REPO_URL, mirrorExampleRepo, pushPayload, SECRET, type Payload } from './git-webhooks-fixture';
import { memberWithKey } from './reviews-fixture';
import { usersOpenApi } from './agent-fixture';


const QUICKSTART = `---
title: Quickstart
---

# Quickstart

List the first users:

\`\`\`bash
curl "https://api.acme.test/users?per_page=10"
\`\`\`
`;
const PAGINATION = `---
title: Pagination
---

Lists are paginated. The page size is set by per_page.

Never more than 100 per page.

| Parameter | Meaning |
|---|---|
| \`per_page\` | users per page |
`;

let t: TestApp;
let docs: FixtureRepo;
let source: FixtureRepo;
let restoreMirror: () => void;
let project: { id: string; slug: string };
let owner: { userId: string; key: string };
let baseSha: string;
let headSha: string;

const api = (method: 'GET' | 'POST' | 'PATCH', url: string, payload?: unknown, key = t.adminKey) =>
  t.app.inject({ method, url: `/v1/projects/${project.id}${url}`, headers: bearer(key), ...(payload === undefined ? {} : { payload: payload as object }) });

async function waitForRun(runId: string, timeoutMs = 60_000): Promise<Payload> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const res = await api('GET', `/agent/runs/${runId}`);
    expect(res.statusCode).toBe(200);
    const run = res.json().data;
    if (run.status === 'succeeded' || run.status === 'failed') return run;
    if (Date.now() > until) throw new Error(`run ${runId} still ${run.status}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

async function agentReviews(): Promise<Array<Payload>> {
  const res = await api('GET', '/reviews');
  expect(res.statusCode).toBe(200);
  return (res.json().data as Array<Payload>).filter((r) => r.labels.includes('agent'));
}

beforeAll(async () => {
  t = await createTestApp({ runJobs: true });
  docs = createFixtureRepo(undefined, {
    extraFiles: {
      'docs.json': JSON.stringify({
        name: 'Acme Docs',
        navigation: { groups: [{ group: 'Guides', pages: ['index', 'guides/quickstart', 'guides/pagination'] }, { group: 'API reference', openapi: 'api/openapi.yaml' }] },
      }),
      'index.mdx': '---\ntitle: Welcome\n---\n\nWelcome to Acme. Pages list users one page at a time.\n',
      'guides/quickstart.mdx': QUICKSTART,
      'guides/pagination.mdx': PAGINATION,
      'api/openapi.yaml': usersOpenApi('per_page'),
    },
  });
  source = createFixtureRepo(undefined, { extraFiles: { 'openapi.yaml': usersOpenApi('per_page'), 'src/users.ts': 'export const PAGE = 20;\n' } });
  baseSha = source.headSha();
  headSha = source.commit({ 'openapi.yaml': usersOpenApi('page_size'), 'src/users.ts': 'export const PAGE = 25;\n' }, 'rename per_page to page_size');
  restoreMirror = mirrorExampleRepo(source);
  project = await createProject(t, docs, 'acme');
  owner = await memberWithKey(t, 'owen@acme.test', 'reviewer', ['projects:read']);
  expect((await api('POST', '/ownership', { pattern: 'guides/*', userId: owner.userId })).statusCode).toBe(201);
  const patched = await api('PATCH', '', {
    webhookSecret: SECRET,
    settings: {
      sourceRepos: [{ url: EXAMPLE_REPO_URL, branch: 'main', globs: { 'src/**': ['guides/quickstart'] }, openapi: [{ path: 'openapi.yaml', docsPath: 'api/openapi.yaml' }] }],
    },
  });
  expect(patched.statusCode).toBe(200);
  expect(patched.json().data.settings.sourceRepos[0]).toMatchObject({ url: EXAMPLE_REPO_URL, branch: 'main', globs: { 'src/**': ['guides/quickstart'] } });
}, 60_000);

afterAll(async () => {
  restoreMirror?.();
  await t?.close();
  docs?.cleanup();
  source?.cleanup();
});

describe('a parameter renamed in the source repository', () => {
  let run: Payload;
  let review: Payload;

  it('a push delivery starts a run that opens one review labelled agent', async () => {
    const payload = { ...pushPayload('main', headSha, [{ modified: ['openapi.yaml', 'src/users.ts'] }]), before: baseSha };
    const res = await deliver(t, payload, { event: 'push' });
    expect(res.statusCode).toBe(200);
    const rows = await t.ctx.db.prisma.agentRun.findMany({ where: { projectId: project.id } });
    expect(rows.map((r) => [r.trigger, r.headCommit])).toEqual([['push', headSha]]);
    run = await waitForRun(rows[0]!.id);
    expect(run).toMatchObject({ status: 'succeeded', baseCommit: baseSha, headCommit: headSha, duplicateOf: null, error: null });
    const reviews = await agentReviews();
    expect(reviews.map((r) => r.id)).toEqual([run.reviewId]);
    review = reviews[0]!;
    expect(review.author).toBeNull();
    expect(review.title).toBe(`Docs agent: Codertocat/Hello-World ${baseSha.slice(0, 7)}..${headSha.slice(0, 7)}`);
  }, 90_000);

  it("the project's delivery list says the delivery started the run (the repository is only a source repository)", async () => {
    const records = (await deliveries(t, project.id)).data as Array<Payload>;
    expect(records.map((r) => [r.outcome, r.detail])).toEqual([['agent_run', `push: docs agent run ${run.id} started for project ${project.id}`]]);
  });

  it('flags exactly the lines of the two pages that mention per_page', async () => {
    const expected = [
      { path: 'guides/pagination.mdx', line: 5 },
      { path: 'guides/pagination.mdx', line: 11 },
      { path: 'guides/quickstart.mdx', line: 10 },
    ];
    expect(run.findings.map((f: { path: string; line: number }) => ({ path: f.path, line: f.line }))).toEqual(expected);
    for (const f of run.findings) expect(f.reason).toContain('GET /users: query parameter per_page renamed to page_size');
    const comments = (await api('GET', `/reviews/${review.id}/comments`)).json().data as Array<Payload>;
    expect(comments.map((c) => ({ path: c.path, line: c.lineStart }))).toEqual(expected);
    expect(comments.every((c) => c.suggestion === undefined || c.suggestion === null)).toBe(true); // no model: nothing drafted
    expect(comments[2]!.body).toContain('`per_page`: GET /users: query parameter per_page renamed to page_size');
  });

  it('writes the new spec over the docs copy, names the generated page, the owner and the mapped pages', async () => {
    expect(review.changes.map((c: { path: string; change: string }) => [c.path, c.change])).toEqual([['api/openapi.yaml', 'modified']]);
    const revisions = (await api('GET', `/reviews/${review.id}/revisions`)).json().data as Array<{ files: Array<{ path: string; content: string }> }>;
    expect(revisions[0]!.files.find((f) => f.path === 'api/openapi.yaml')!.content).toBe(usersOpenApi('page_size'));
    expect(review.description).toContain('Generated API pages updated by the new spec:\n- openapi/users/list-users');
    expect(review.description).toContain('Code under src/** changed (src/users.ts): check guides/quickstart');
    expect(review.reviewers.map((r: { id: string }) => r.id)).toEqual([owner.userId]);
  });

  it('the review preview renders the generated page with the new parameter name', async () => {
    const build = await waitForStatus(t, project.id, review.previewBuildId, ['deployed', 'failed'], 90_000);
    expect(build.status).toBe('deployed');
    const pass = await t.app.inject({ method: 'POST', url: `/v1/projects/${project.id}/preview-passes`, headers: bearer(t.adminKey), payload: { url: `${review.previewUrl}openapi/users/list-users` } });
    expect(pass.statusCode).toBe(201);
    const host = new URL(review.previewUrl).host;
    const opened = await t.app.inject({ url: new URL(pass.json().data.url as string).pathname, headers: { host } });
    expect(opened.statusCode).toBe(302);
    const page = await t.app.inject({ url: String(opened.headers.location), headers: { host, cookie: String(opened.headers['set-cookie']).split(';')[0]! } });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('page_size');
    expect(page.body).not.toContain('per_page');
  }, 120_000);

  it('a second delivery of the same commit, and the API asked for it, open nothing new', async () => {
    const payload = { ...pushPayload('main', headSha, [{ modified: ['openapi.yaml'] }]), before: baseSha };
    expect((await deliver(t, payload, { event: 'push', deliveryId: 'agent-redelivery' })).statusCode).toBe(200);
    const records = (await deliveries(t, project.id)).data as Array<Payload>;
    expect(records.find((r) => r.deliveryId === 'agent-redelivery')?.detail).toBe(
      `push: docs agent run ${run.id} of project ${project.id} already covers this head commit; nothing new started`,
    );
    const again = await api('POST', '/agent/runs', { repoUrl: 'git@github.com:codertocat/hello-world.git', baseRef: baseSha, headRef: headSha });
    expect(again.statusCode).toBe(202);
    expect(again.json().data).toMatchObject({ id: run.id, status: 'succeeded', reviewId: review.id });
    expect(await t.ctx.db.prisma.agentRun.count({ where: { projectId: project.id } })).toBe(1);
    expect((await agentReviews()).map((r) => r.id)).toEqual([review.id]);
  });

  it('a run asked by branch whose head commit was already run becomes its duplicate', async () => {
    const res = await api('POST', '/agent/runs', { repoUrl: EXAMPLE_REPO_URL, baseRef: baseSha, headRef: 'main' });
    expect(res.statusCode).toBe(202);
    expect(res.json().data).toMatchObject({ status: 'queued', trigger: 'api', headRef: 'main', headCommit: null });
    const dup = await waitForRun(res.json().data.id);
    expect(dup).toMatchObject({ status: 'succeeded', duplicateOf: run.id, reviewId: review.id, findings: [] });
    expect((await agentReviews()).map((r) => r.id)).toEqual([review.id]);
  }, 60_000);

  it('records the runs in the audit log', async () => {
    const res = await t.app.inject({ url: `/v1/projects/${project.id}/audit-log?limit=100`, headers: bearer(t.adminKey) });
    const actions = (res.json().data as Array<{ action: string; metadata: Record<string, unknown> }>).filter((e) => e.action === 'agent_run.created');
    expect(actions.map((e) => e.metadata.trigger).sort()).toEqual(['api', 'push']);
  });
});

describe('validation', () => {
  it('refuses a repository the project does not list, bad refs, and unknown runs', async () => {
    const unlisted = await api('POST', '/agent/runs', { repoUrl: 'https://github.com/acme/other', baseRef: 'main', headRef: 'dev' });
    expect(unlisted.statusCode).toBe(400);
    expect(unlisted.json().error).toMatchObject({ code: 'invalid_request', details: { field: 'repoUrl' } });
    const badRef = await api('POST', '/agent/runs', { repoUrl: EXAMPLE_REPO_URL, baseRef: '--upload-pack=x', headRef: 'main' });
    expect(badRef.statusCode).toBe(400);
    expect(badRef.json().error.code).toBe('invalid_request');
    const surrogate = await api('POST', '/agent/runs', { repoUrl: EXAMPLE_REPO_URL, baseRef: 'main', headRef: 'a\ud800b' });
    expect(surrogate.statusCode).toBe(400);
    expect((await api('GET', '/agent/runs/run_missing')).statusCode).toBe(404);
    const otherProject = await t.app.inject({ method: 'POST', url: '/v1/projects/prj_nope/agent/runs', headers: bearer(t.adminKey), payload: { repoUrl: EXAMPLE_REPO_URL, baseRef: 'a', headRef: 'b' } });
    expect(otherProject.statusCode).toBe(404);
    // refused requests store nothing: the push run and the duplicate asked by branch are all there is
    expect(await t.ctx.db.prisma.agentRun.count()).toBe(2);
  });

  it('refuses source repositories with a refused URL, a negated glob, a bad page path or a glob with no page, changing nothing', async () => {
    const cases: Array<[unknown, string]> = [
      [{ url: 'ext::sh -c id' }, 'settings.sourceRepos.0.url'],
      [{ url: EXAMPLE_REPO_URL, globs: { '!src/**': ['index'] } }, 'settings.sourceRepos.0.globs["!src/**"]'],
      [{ url: EXAMPLE_REPO_URL, globs: { 'src/**': ['index', '../secrets'] } }, 'settings.sourceRepos.0.globs["src/**"].1'],
      [{ url: EXAMPLE_REPO_URL, globs: { 'src/*.ts': [] } }, 'settings.sourceRepos.0.globs["src/*.ts"]'],
      [{ url: EXAMPLE_REPO_URL, globs: ['src/**'] }, 'settings.sourceRepos.0.globs'],
      [{ url: EXAMPLE_REPO_URL, paths: [{ glob: 'src/**', pages: ['index'] }] }, 'settings.sourceRepos.0.paths'],
      [{ url: EXAMPLE_REPO_URL, openapi: ['../openapi.yaml'] }, 'settings.sourceRepos.0.openapi.0'],
      [{ url: EXAMPLE_REPO_URL, branch: 'bad..branch' }, 'settings.sourceRepos.0.branch'],
    ];
    for (const [repo, field] of cases) {
      const res = await api('PATCH', '', { settings: { sourceRepos: [repo] } });
      expect(res.statusCode, JSON.stringify(repo)).toBe(400);
      expect(res.json().error.code).toBe('invalid_request');
      expect(res.json().error.details.field, JSON.stringify(repo)).toBe(field);
    }
    const stored = (await api('GET', '')).json().data.settings.sourceRepos;
    expect(stored.map((r: { url: string }) => r.url)).toEqual([EXAMPLE_REPO_URL]);
  });
});
