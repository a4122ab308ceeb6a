/**
 * Webhook builds queue behind a running build instead of answering 409, and the newest of a
 * channel replaces an older one still queued (decisions.md section 4; services/webhook-builds.ts).
 * Driven through POST /v1/webhooks/github with GitHub's example payloads; the real builder runs,
 * with the first build held at its start until the test lets it go.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, type TestApp } from '../helpers/app';
import type { FixtureRepo } from '../helpers/git-repo';
import type { RunBuildInput, RunBuildResult } from '../../src/builder/pipeline';
import { docsRepo } from '../routes/builds/build-fixture';
import { commitOnBranch, createWebhookProject, deliver, getBuild, mirrorExampleRepo, pushPayload, REAL_BUILD_TIMEOUT_MS, site, waitForBuild } from '../routes/git-webhooks-fixture';

let t: TestApp;
let repo: FixtureRepo;
let restoreGitConfig: () => void;
let project: { id: string; slug: string };
/** Builds held at the start of the builder until released. */
const held = new Map<string, () => void>();
let holdNext = false;

beforeAll(async () => {
  t = await createTestApp();
  repo = docsRepo('FIRST');
  restoreGitConfig = mirrorExampleRepo(repo);
  // its preview is read to see which build deployed, not through the preview gate
  project = await createWebhookProject(t, { slug: 'queue', settings: { protectPreviews: false } });
  const { runBuild } = await import('../../src/builder/pipeline');
  t.app.buildRunner.configure({
    runBuild: async (input: RunBuildInput): Promise<RunBuildResult> => {
      if (holdNext) {
        holdNext = false;
        await new Promise<void>((resolve) => held.set(input.buildId, resolve));
      }
      return runBuild(input);
    },
  });
  await t.app.buildRunner.start();
});
afterAll(async () => {
  for (const release of held.values()) release();
  restoreGitConfig?.();
  await t?.close();
  repo?.cleanup();
});

const page = (marker: string) => `---\ntitle: Welcome\n---\n\n# Welcome\n\n${marker} home page.\n`;

async function until(what: string, check: () => Promise<boolean>, timeoutMs = 20_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('queueing git-event builds', { timeout: REAL_BUILD_TIMEOUT_MS }, () => {
  it('queues pushes behind a running build without 409; the newest queued build of a branch replaces the older', async () => {
    holdNext = true;
    const first = repo.commit({ 'index.mdx': page('ONE') }, 'one');
    const running = (await deliver(t, pushPayload('main', first), { event: 'push' })).json().data.builds[0] as string;
    await until('the first build to be running', async () => held.has(running) && (await getBuild(t, project.id, running)).status === 'building');

    // The API's trigger answers 409 now; webhooks do not.
    const api = await t.app.inject({ method: 'POST', url: `/v1/projects/${project.id}/builds`, headers: bearer(t.adminKey) });
    expect(api.statusCode).toBe(409);

    const second = repo.commit({ 'index.mdx': page('TWO') }, 'two');
    const older = await deliver(t, pushPayload('main', second), { event: 'push' });
    expect(older.statusCode).toBe(200);
    const olderId = older.json().data.builds[0] as string;
    expect((await getBuild(t, project.id, olderId)).status).toBe('queued');

    // A preview of another branch is another channel: it stays queued alongside.
    const branchSha = commitOnBranch(repo, 'docs-fix', { 'index.mdx': page('BRANCH') });
    const preview = (await deliver(t, pushPayload('docs-fix', branchSha), { event: 'push' })).json().data.builds[0] as string;

    const third = repo.commit({ 'index.mdx': page('THREE') }, 'three');
    const newer = await deliver(t, pushPayload('main', third), { event: 'push' });
    expect(newer.statusCode).toBe(200);
    const newerId = newer.json().data.builds[0] as string;

    const replaced = await getBuild(t, project.id, olderId);
    expect(replaced).toMatchObject({ status: 'cancelled', commitSha: second });
    const log = await t.app.inject({ url: `/v1/projects/${project.id}/builds/${olderId}/logs`, headers: bearer(t.adminKey) });
    expect(log.body).toContain(`replaced by build ${newerId}`);
    expect((await getBuild(t, project.id, preview)).status).toBe('queued');
    expect((await getBuild(t, project.id, running)).status).toBe('building');

    held.get(running)!();
    expect(await waitForBuild(t, project.id, running)).toMatchObject({ status: 'deployed', commitSha: first });
    expect(await waitForBuild(t, project.id, newerId)).toMatchObject({ status: 'deployed', commitSha: third, error: null });
    expect(await waitForBuild(t, project.id, preview)).toMatchObject({ status: 'deployed', url: 'http://docs-fix--queue-docs.localhost:4000/', error: null });
    expect((await site(t, 'queue-docs.localhost')).body).toContain('THREE home page');
    expect((await site(t, 'docs-fix--queue-docs.localhost')).body).toContain('BRANCH home page');
    expect((await getBuild(t, project.id, olderId)).status).toBe('cancelled');
  });

  it('a build queued through the API is not replaced by a webhook build of the same branch', async () => {
    holdNext = true;
    const first = repo.commit({ 'index.mdx': page('FOUR') }, 'four');
    const running = (await deliver(t, pushPayload('main', first), { event: 'push' })).json().data.builds[0] as string;
    await until('the build to be running', async () => held.has(running) && (await getBuild(t, project.id, running)).status === 'building');
    // Queue an API build straight in the database (the API answers 409 while one runs), as a schedule or review would.
    const apiBuild = await t.ctx.db.prisma.build.create({ data: { id: 'bld_apiQueuedBuild0001', projectId: project.id, status: 'queued', trigger: 'api', branch: 'main', createdAt: new Date() } });
    const sha = repo.commit({ 'index.mdx': page('FIVE') }, 'five');
    const webhook = (await deliver(t, pushPayload('main', sha), { event: 'push' })).json().data.builds[0] as string;
    expect((await getBuild(t, project.id, apiBuild.id)).status).toBe('queued');
    held.get(running)!();
    for (const id of [running, apiBuild.id, webhook]) expect((await waitForBuild(t, project.id, id)).status).toBe('deployed');
  });
});
