/**
 * POST /v1/webhooks/github end to end (interface-spec.md "Events"; decisions.md section 4): real
 * GitHub example payloads, signed as GitHub signs them, pointed at a local fixture repository
 * through git's insteadOf, with the real build runner: production and preview builds deploy and
 * their sites are served by Host; branch deletion and closed pull requests take previews down.
 */
import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createKey, createOrgWithKey, createTestApp, type TestApp } from '../helpers/app';
import type { FixtureRepo } from '../helpers/git-repo';
import { docsRepo } from './builds/build-fixture';
import {
  builds,
  commitOnBranch,
  createWebhookProject,
  deliver,
  deliveries,
  example,
  githubHeaders,
  mirrorExampleRepo,
  pullRequestPayload,
  pushPayload,
  REAL_BUILD_TIMEOUT_MS,
  site,
  waitForBuild,
} from './git-webhooks-fixture';

let t: TestApp;
let repo: FixtureRepo;
let restoreGitConfig: () => void;
let project: { id: string; slug: string };
const PRODUCTION = 'hello-docs.localhost';

beforeAll(async () => {
  t = await createTestApp({ runJobs: true });
  repo = docsRepo('FIRST');
  restoreGitConfig = mirrorExampleRepo(repo);
  project = await createWebhookProject(t, { slug: 'hello', settings: { protectPreviews: false } });
});
afterAll(async () => {
  restoreGitConfig?.();
  await t?.close();
  repo?.cleanup();
});

const page = (marker: string) => `---\ntitle: Welcome\n---\n\n# Welcome\n\n${marker} home page.\n`;

describe('push', { timeout: REAL_BUILD_TIMEOUT_MS }, () => {
  it('a push to the project branch, over a real socket with GitHub\'s headers, deploys production with its changed paths', async () => {
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    const { port } = t.app.server.address() as AddressInfo;
    const sha = repo.commit({ 'index.mdx': page('SECOND') }, 'second');
    const payload = pushPayload('main', sha, [{ modified: ['index.mdx'], added: ['guides/new.mdx'] }, { modified: ['index.mdx'], removed: ['old.mdx'] }]);
    const body = JSON.stringify(payload);
    const res = await fetch(`http://127.0.0.1:${port}/v1/webhooks/github`, { method: 'POST', headers: await githubHeaders(body, { event: 'push', deliveryId: randomUUID() }), body });
    expect(res.status).toBe(200);
    const { data } = (await res.json()) as { data: { builds: string[]; preview: boolean } };
    expect(data.preview).toBe(false);
    expect(data.builds).toHaveLength(1);

    const build = await waitForBuild(t, project.id, data.builds[0]!);
    expect(build).toMatchObject({ status: 'deployed', error: null, trigger: 'push', branch: 'main', isPreview: false, commitSha: sha, url: 'http://hello-docs.localhost:4000/' });
    expect(build.changedFiles).toEqual(['guides/new.mdx', 'index.mdx', 'old.mdx']);
    expect((await site(t, PRODUCTION)).body).toContain('SECOND home page');
  });

  it('a push to another branch deploys a preview on its own host and leaves production alone', async () => {
    const sha = commitOnBranch(repo, 'feature/New_UI', { 'index.mdx': page('PREVIEW') });
    const res = await deliver(t, pushPayload('feature/New_UI', sha), { event: 'push' });
    expect(res.statusCode).toBe(200);
    const { builds: ids, preview } = res.json().data;
    expect(preview).toBe(true);
    const build = await waitForBuild(t, project.id, ids[0]);
    expect(build).toMatchObject({ status: 'deployed', error: null, isPreview: true, branch: 'feature/New_UI', commitSha: sha, url: 'http://feature-new-ui--hello-docs.localhost:4000/', changedFiles: ['index.mdx'] });
    expect((await site(t, `feature-new-ui--${PRODUCTION}`)).body).toContain('PREVIEW home page');
    expect((await site(t, PRODUCTION)).body).toContain('SECOND home page');
  });

  it('leaves changedFiles null when the push lists no commits (a force push)', async () => {
    const sha = repo.commit({ 'guides/setup.mdx': '---\ntitle: Setup\n---\n\nInstall it. THIRD\n' }, 'third');
    const payload = { ...pushPayload('main', sha), forced: true, commits: [], head_commit: null };
    const res = await deliver(t, payload, { event: 'push' });
    const build = await waitForBuild(t, project.id, res.json().data.builds[0]);
    expect(build).toMatchObject({ status: 'deployed', error: null, changedFiles: null, commitSha: sha });
    expect((await site(t, PRODUCTION, '/guides/setup')).body).toContain('THIRD');
  });

  it('builds nothing for a tag push (GitHub\'s own tag example)', async () => {
    const before = (await builds(t, project.id)).length;
    const res = await deliver(t, example('push', (p) => p.ref === 'refs/tags/simple-tag' && p.created === true), { event: 'push' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ data: { builds: [], preview: false } });
    expect(await builds(t, project.id)).toHaveLength(before);
    const [last] = (await deliveries(t, project.id)).data;
    expect(last).toMatchObject({ event: 'push', outcome: 'ignored', signature: 'valid', builds: [], repository: 'Codertocat/Hello-World' });
    expect(last.detail).toMatch(/tag simple-tag/);
  });

  it('deleting a branch removes its preview (404 afterwards) and never production', async () => {
    const deletion = example('push', (p) => p.deleted === true);
    deletion.ref = 'refs/heads/feature/New_UI';
    const res = await deliver(t, deletion, { event: 'push' });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toEqual({ builds: [], preview: false });
    expect((await site(t, `feature-new-ui--${PRODUCTION}`)).statusCode).toBe(404);
    expect((await deliveries(t, project.id)).data[0]).toMatchObject({ outcome: 'preview_removed', detail: expect.stringMatching(/feature\/New_UI deleted: preview feature-new-ui removed/) });

    const main = example('push', (p) => p.deleted === true);
    main.ref = 'refs/heads/main';
    expect((await deliver(t, main, { event: 'push' })).json().data.builds).toEqual([]);
    const home = await site(t, PRODUCTION);
    expect(home.statusCode).toBe(200);
    expect(home.body).toContain('SECOND home page');
    expect((await deliveries(t, project.id)).data[0]).toMatchObject({ outcome: 'ignored', detail: expect.stringMatching(/production branch/) });
  });
});

describe('pull_request', { timeout: REAL_BUILD_TIMEOUT_MS }, () => {
  it('opened deploys a preview of the head commit at pr-<number>, synchronize updates it, closed removes it', async () => {
    const first = commitOnBranch(repo, 'changes', { 'index.mdx': page('PR-ONE') });
    const opened = await deliver(t, pullRequestPayload('opened', 7, 'changes', first), { event: 'pull_request' });
    expect(opened.statusCode).toBe(200);
    expect(opened.json().data.preview).toBe(true);
    const build = await waitForBuild(t, project.id, opened.json().data.builds[0]);
    expect(build).toMatchObject({ status: 'deployed', error: null, isPreview: true, branch: 'changes', commitSha: first, url: 'http://pr-7--hello-docs.localhost:4000/', changedFiles: null });
    const row = await t.ctx.db.prisma.build.findUniqueOrThrow({ where: { id: build.id as string } });
    expect(row).toMatchObject({ pullRequest: 7, pullRequestTitle: 'Update the README with new information.', previewName: 'pr-7', trigger: 'push' });
    expect((await site(t, `pr-7--${PRODUCTION}`)).body).toContain('PR-ONE home page');

    const second = commitOnBranch(repo, 'changes', { 'index.mdx': page('PR-TWO') });
    const sync = await deliver(t, pullRequestPayload('synchronize', 7, 'changes', second), { event: 'pull_request' });
    await waitForBuild(t, project.id, sync.json().data.builds[0], ['deployed']);
    expect((await site(t, `pr-7--${PRODUCTION}`)).body).toContain('PR-TWO home page');

    const labeled = await deliver(t, pullRequestPayload('labeled', 7, 'changes', second), { event: 'pull_request' });
    expect(labeled.json().data).toEqual({ builds: [], preview: false });
    expect((await deliveries(t, project.id)).data[0]).toMatchObject({ event: 'pull_request', action: 'labeled', outcome: 'ignored' });

    const closed = await deliver(t, pullRequestPayload('closed', 7, 'changes', second), { event: 'pull_request' });
    expect(closed.json().data).toEqual({ builds: [], preview: false });
    expect((await site(t, `pr-7--${PRODUCTION}`)).statusCode).toBe(404);
    expect((await site(t, PRODUCTION)).statusCode).toBe(200);
    expect((await deliveries(t, project.id)).data[0]).toMatchObject({ action: 'closed', outcome: 'preview_removed' });
  });
});

describe('other events and replays', { timeout: REAL_BUILD_TIMEOUT_MS }, () => {
  it('answers ping with 200 and records it', async () => {
    // GitHub's ping example is for another repository (Octocoders/Hello-World): nothing is connected to it.
    const res = await deliver(t, example('ping', (p) => p.repository !== undefined), { event: 'ping' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ data: { builds: [], preview: false } });
    expect((await deliveries(t, project.id)).data[0]).toMatchObject({ event: 'ping', outcome: 'ping', detail: expect.stringMatching(/Octocoders\/Hello-World/) });

    const ours = example('ping', (p) => p.repository !== undefined);
    ours.repository = example('push').repository;
    expect((await deliver(t, ours, { event: 'ping' })).statusCode).toBe(200);
    expect((await deliveries(t, project.id)).data[0]).toMatchObject({ event: 'ping', outcome: 'ping', repository: 'Codertocat/Hello-World', detail: expect.stringMatching(/reaches Quire/) });
  });

  it('answers an event it does not act on with 200 and builds nothing', async () => {
    const before = (await builds(t, project.id)).length;
    const res = await deliver(t, example('issues', (p) => p.action === 'opened'), { event: 'issues' });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toEqual({ builds: [], preview: false });
    expect(await builds(t, project.id)).toHaveLength(before);
    expect((await deliveries(t, project.id)).data[0]).toMatchObject({ event: 'issues', action: 'opened', outcome: 'ignored' });
  });

  it('a replayed delivery id changes nothing and answers as the first time', async () => {
    const sha = repo.commit({ 'index.mdx': page('REPLAY') }, 'replay');
    const deliveryId = randomUUID();
    const first = await deliver(t, pushPayload('main', sha), { event: 'push', deliveryId });
    const id = first.json().data.builds[0];
    await waitForBuild(t, project.id, id, ['deployed']);
    const before = (await builds(t, project.id)).length;
    const again = await deliver(t, pushPayload('main', sha), { event: 'push', deliveryId });
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual(first.json());
    expect(await builds(t, project.id)).toHaveLength(before);
    const records = (await deliveries(t, project.id, '?per_page=100')).data.filter((d: { deliveryId: string }) => d.deliveryId === deliveryId);
    expect(records).toHaveLength(1);
    expect(records[0]).toMatchObject({ outcome: 'production_build', builds: [id], signature: 'valid', receiver: 'github' });
  });
});

describe('GET /v1/projects/{projectId}/webhook-test/deliveries', () => {
  it('lists newest first with the builds pagination', async () => {
    const all = await deliveries(t, project.id, '?per_page=100');
    const total = all.pagination.total as number;
    expect(total).toBeGreaterThanOrEqual(10);
    const times = all.data.map((d: { receivedAt: string }) => d.receivedAt);
    expect([...times].sort().reverse()).toEqual(times);
    const second = await deliveries(t, project.id, '?per_page=3&page=2');
    expect(second.pagination).toEqual({ page: 2, perPage: 3, total, totalPages: Math.ceil(total / 3) });
    expect(second.data.map((d: { id: string }) => d.id)).toEqual(all.data.slice(3, 6).map((d: { id: string }) => d.id));
    expect(second.data[0]).toEqual({
      id: expect.stringMatching(/^ghd_/),
      deliveryId: expect.any(String),
      receiver: 'github',
      event: expect.any(String),
      action: expect.toSatisfy((a: unknown) => a === null || typeof a === 'string'),
      signature: 'valid',
      outcome: expect.any(String),
      detail: expect.any(String),
      builds: expect.any(Array),
      repository: expect.any(String),
      receivedAt: expect.any(String),
    });
  });

  it('needs builds:read and hides other organizations\' projects', async () => {
    const other = await createOrgWithKey(t);
    const res = await t.app.inject({ url: `/v1/projects/${project.id}/webhook-test/deliveries`, headers: bearer(other.key) });
    expect(res.statusCode).toBe(404);
    const { key } = await createKey(t, ['projects:read']);
    expect((await t.app.inject({ url: `/v1/projects/${project.id}/webhook-test/deliveries`, headers: bearer(key) })).statusCode).toBe(403);
    const { key: reader } = await createKey(t, ['builds:read']);
    expect((await t.app.inject({ url: `/v1/projects/${project.id}/webhook-test/deliveries`, headers: bearer(reader) })).statusCode).toBe(200);
    expect((await t.app.inject({ url: `/v1/projects/${project.id}/webhook-test/deliveries?page=0`, headers: bearer(reader) })).statusCode).toBe(400);
  });
});
