/**
 * Taking a preview down with deployments in an S3-compatible bucket (deployments/preview-removal.ts):
 * its files and its channel pointer leave the bucket, its host answers 404, production stays.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app';
import type { FixtureRepo } from '../helpers/git-repo';
import { startTestS3, type TestS3 } from '../storage/s3-server';
import { docsRepo } from './builds/build-fixture';
import { commitOnBranch, createWebhookProject, deliver, example, mirrorExampleRepo, pullRequestPayload, pushPayload, REAL_BUILD_TIMEOUT_MS, site, waitForBuild } from './git-webhooks-fixture';

let s3: TestS3;
let t: TestApp;
let repo: FixtureRepo;
let restoreGitConfig: () => void;
let project: { id: string; slug: string };

beforeAll(async () => {
  s3 = await startTestS3();
  t = await createTestApp({ runJobs: true, env: s3.env });
  repo = docsRepo('S3');
  restoreGitConfig = mirrorExampleRepo(repo);
  // its previews are read to see them served and taken down, not through the preview gate
  project = await createWebhookProject(t, { slug: 'bucket', settings: { protectPreviews: false } });
});
afterAll(async () => {
  restoreGitConfig?.();
  await t?.close();
  await s3?.stop();
  repo?.cleanup();
});

describe('preview removal with the S3 store', { timeout: REAL_BUILD_TIMEOUT_MS }, () => {
  it('deletes the preview\'s objects and pointer; production keeps serving', async () => {
    const production = (await deliver(t, pushPayload('main', repo.headSha()), { event: 'push' })).json().data.builds[0];
    const sha = commitOnBranch(repo, 'topic', { 'index.mdx': '# Topic\n\nTOPIC home page.\n' });
    const preview = (await deliver(t, pushPayload('topic', sha), { event: 'push' })).json().data.builds[0];
    const pr = (await deliver(t, pullRequestPayload('opened', 9, 'topic', sha), { event: 'pull_request' })).json().data.builds[0];
    for (const id of [production, preview, pr]) expect(await waitForBuild(t, project.id, id)).toMatchObject({ status: 'deployed', error: null });
    expect((await site(t, 'topic--bucket-docs.localhost')).body).toContain('TOPIC home page');
    const pointer = `pointers/${project.id}/preview/topic.json`;
    expect(s3.keys()).toContain(pointer);
    expect(s3.keys().some((k) => k.startsWith(`deployments/${project.id}/${preview}/`))).toBe(true);

    const deletion = example('push', (p) => p.deleted === true);
    deletion.ref = 'refs/heads/topic';
    expect((await deliver(t, deletion, { event: 'push' })).statusCode).toBe(200);
    expect(s3.keys()).not.toContain(pointer);
    expect(s3.keys().some((k) => k.startsWith(`deployments/${project.id}/${preview}/`))).toBe(false);
    expect((await site(t, 'topic--bucket-docs.localhost')).statusCode).toBe(404);

    // The pull request's preview of the same branch is another channel: it stays until the pull request closes.
    expect((await site(t, 'pr-9--bucket-docs.localhost')).statusCode).toBe(200);
    await deliver(t, pullRequestPayload('closed', 9, 'topic', sha), { event: 'pull_request' });
    expect(s3.keys()).not.toContain(`pointers/${project.id}/preview/pr-9.json`);
    expect((await site(t, 'pr-9--bucket-docs.localhost')).statusCode).toBe(404);

    expect(s3.keys()).toContain(`pointers/${project.id}/production.json`);
    expect((await site(t, 'bucket-docs.localhost')).body).toContain('S3 home page');
  });
});
