/**
 * The docs agent with a navigation that lists operations one by one and with a model configured
 * (decisions.md section 11): a new operation gets a stub page listed in the group of its tag, and
 * the flagged line carries the model's draft as a suggestion, which only a person applies.
 * Runs are asked through the API; the agent runner is started by the test (no builds run).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { bearer, createTestApp, type TestApp } from '../helpers/app';
import { createFixtureRepo, type FixtureRepo } from '../helpers/git-repo';
import { createProject } from './builds/build-fixture';
import type { Payload } from './git-webhooks-fixture';
import { usersOpenApi } from './agent-fixture';
import { agentRunsPerMinute } from '../../src/services/agent-runs';
import { planLimits } from '../../src/services/organizations';

const CREATE_USER = `    post:
      operationId: createUser
      summary: Create a user
      tags: [Users]
      responses:
        '201': {description: Created}
`;
const DRAFT = 'Ask for 10 users with `page_size=10`.';

let t: TestApp;
let docs: FixtureRepo;
let source: FixtureRepo;
let llm: http.Server;
const prompts: string[] = [];
let project: { id: string };

beforeAll(async () => {
  llm = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString('utf8')));
    req.on('end', () => {
      prompts.push(body);
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      for (const piece of [DRAFT.slice(0, 12), DRAFT.slice(12)]) res.write(`data: ${JSON.stringify({ choices: [{ delta: { content: piece } }] })}\n\n`);
      res.end('data: [DONE]\n\n');
    });
  });
  await new Promise<void>((resolve) => llm.listen(0, '127.0.0.1', resolve));
  t = await createTestApp({ env: { QUIRE_LLM_URL: `http://127.0.0.1:${(llm.address() as AddressInfo).port}/v1` } });
  docs = createFixtureRepo(undefined, {
    extraFiles: {
      'docs.json': JSON.stringify({ name: 'Acme', navigation: { groups: [{ group: 'Guides', pages: ['index'] }, { group: 'Users', pages: ['GET /users'] }] } }, null, 2),
      'index.mdx': '---\ntitle: Welcome\n---\n\nAsk for 10 users with `per_page=10`.\n',
      'api/openapi.yaml': usersOpenApi('per_page'),
    },
  });
  source = createFixtureRepo(undefined, { extraFiles: { 'openapi.yaml': usersOpenApi('per_page') } });
  project = await createProject(t, docs, 'stubs');
  const patched = await t.app.inject({
    method: 'PATCH',
    url: `/v1/projects/${project.id}`,
    headers: bearer(t.adminKey),
    payload: { settings: { sourceRepos: [{ url: source.path, openapi: [{ path: 'openapi.yaml', docsPath: 'api/openapi.yaml' }] }] } },
  });
  expect(patched.statusCode).toBe(200);
  await t.app.agentRunner.start();
}, 60_000);

afterAll(async () => {
  await t?.close();
  await new Promise((resolve) => llm?.close(resolve));
  docs?.cleanup();
  source?.cleanup();
});

async function runOf(base: string, head: string): Promise<Payload> {
  const res = await t.app.inject({ method: 'POST', url: `/v1/projects/${project.id}/agent/runs`, headers: bearer(t.adminKey), payload: { repoUrl: source.path, baseRef: base, headRef: head } });
  expect(res.statusCode).toBe(202);
  const until = Date.now() + 60_000;
  for (;;) {
    const run = (await t.app.inject({ url: `/v1/projects/${project.id}/agent/runs/${res.json().data.id}`, headers: bearer(t.adminKey) })).json().data;
    if (run.status === 'succeeded' || run.status === 'failed') return run;
    if (Date.now() > until) throw new Error(`run still ${run.status}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

it('lists a stub page for a new operation in the group of its tag, and drafts the flagged line as a suggestion', async () => {
  const base = source.headSha();
  const head = source.commit({ 'openapi.yaml': usersOpenApi('page_size', CREATE_USER) }, 'rename per_page, add POST /users');
  const run = await runOf(base, head);
  expect(run).toMatchObject({ status: 'succeeded', findings: [{ path: 'index.mdx', line: 5 }] });
  const review = (await t.app.inject({ url: `/v1/projects/${project.id}/reviews/${run.reviewId}`, headers: bearer(t.adminKey) })).json().data;
  expect(review.changes.map((c: Payload) => [c.path, c.change])).toEqual([
    ['api/openapi.yaml', 'modified'],
    ['docs.json', 'modified'],
    ['users/create-user.mdx', 'added'],
  ]);
  const files = (await t.app.inject({ url: `/v1/projects/${project.id}/reviews/${run.reviewId}/revisions`, headers: bearer(t.adminKey) })).json().data[0].files as Payload[];
  const byPath = new Map(files.map((f) => [f.path, f.content as string]));
  expect(byPath.get('users/create-user.mdx')).toBe('---\ntitle: "Create a user"\nopenapi: "/api/openapi.yaml POST /users"\n---\n');
  expect(JSON.parse(byPath.get('docs.json')!).navigation.groups[1]).toEqual({ group: 'Users', pages: ['GET /users', 'users/create-user'] });
  expect(review.description).toContain('- users/create-user (POST /users) in group Users');

  const comments = (await t.app.inject({ url: `/v1/projects/${project.id}/reviews/${run.reviewId}/comments`, headers: bearer(t.adminKey) })).json().data as Payload[];
  expect(comments).toHaveLength(1);
  expect(comments[0]).toMatchObject({ path: 'index.mdx', lineStart: 5, lineEnd: 5, suggestion: { lines: { start: 5, end: 5 }, text: DRAFT } });
  expect(comments[0]!.body).toContain('A model drafted the suggestion below');
  expect(prompts.some((p) => p.includes('per_page=10') && p.includes('per_page renamed to page_size'))).toBe(true);
  expect(review.status).toBe('open'); // drafted, never applied or merged by the agent
}, 90_000);

it('a change the docs do not mention opens no review', async () => {
  const base = source.headSha();
  const head = source.commit({ 'README.md': 'no API change\n' }, 'readme only');
  const run = await runOf(base, head);
  expect(run).toMatchObject({ status: 'succeeded', reviewId: null, findings: [] });
  expect(run.summary).toContain('Nothing in the docs follows from');
}, 60_000);

it('asking again for a head commit already run never uses the agent rate; past the rate a new run is refused with 429 and Retry-After, storing nothing', async () => {
  const org = await t.ctx.db.prisma.organization.findUniqueOrThrow({ where: { id: t.app.bootstrap.orgId! } });
  const limit = agentRunsPerMinute(planLimits(org, t.ctx.config).rateLimit);
  const runs = await t.ctx.db.prisma.agentRun.count();
  const head = source.headSha();
  const ask = (headRef: string) =>
    t.app.inject({ method: 'POST', url: `/v1/projects/${project.id}/agent/runs`, headers: bearer(t.adminKey), payload: { repoUrl: source.path, baseRef: head, headRef } });
  // the head commit already had its run (the test before): every repeat answers that run
  const answered = new Set<string>();
  for (let i = 0; i <= limit + 1; i++) {
    const res = await ask(head);
    expect(res.statusCode).toBe(202);
    answered.add(res.json().data.id as string);
  }
  expect(answered.size).toBe(1);
  expect(await t.ctx.db.prisma.agentRun.count()).toBe(runs);
  // a head given as a branch is a new run each time: those count
  let refused: Awaited<ReturnType<typeof t.app.inject>> | undefined;
  let accepted = 0;
  for (let i = 0; i <= limit && !refused; i++) {
    const res = await ask('main');
    if (res.statusCode === 429) refused = res;
    else {
      expect(res.statusCode).toBe(202);
      accepted++;
    }
  }
  expect(refused?.json().error.code).toBe('rate_limited');
  expect(Number(refused?.headers['retry-after'])).toBeGreaterThan(0);
  expect(accepted).toBeLessThanOrEqual(limit);
  expect(await t.ctx.db.prisma.agentRun.count()).toBe(runs + accepted);
});
