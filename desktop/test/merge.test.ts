import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TRPCError } from '@trpc/server';
import { bearer, createTestApp, type TestApp } from '../../server/test/helpers/app';
import type { FixtureRepo } from '../../server/test/helpers/git-repo';
import { gitIn, reviewRepo, SETUP } from '../../server/test/routes/reviews-fixture';
import { seedMember, TEST_PASSWORD } from '../../server/test/services/identity-fixtures';
import { createCore, type DesktopCore } from '../src/core/compose';
import { createCoreCaller } from '../src/core/router';
import { fileTokenVault } from '../src/core/token-vault';

/**
 * Merging and previewing local edits from the desktop core against a real Quire server that runs
 * its builds: a writer (editor) proposes, a reviewer approves, the reviewer may not merge, the writer
 * merges ("Merge") and follows the production build to the live site; a review whose lines changed on
 * the branch meanwhile answers with the conflicting paths; offline, a merge says it needs the
 * server; "Build preview of your changes" builds the writer's edits as a preview.
 */
let t: TestApp;
let repo: FixtureRepo;
let projectId: string;
let reviewerId: string;
const cores: Record<string, DesktopCore> = {};
const dirs: string[] = [];
const caller = (who: 'writer' | 'reviewer') => createCoreCaller(cores[who]!);
const line3 = (text: string) => SETUP.replace('Line 3 of the setup guide.', text);

async function errorOf(p: Promise<unknown>): Promise<TRPCError> {
  const err = await p.then(() => undefined, (e: unknown) => e);
  expect(err).toBeInstanceOf(TRPCError);
  return err as TRPCError;
}

/** Follows a build through the core (`builds.watch`, as the renderer polls it) until it ended. */
async function watchToEnd(buildId: string) {
  const until = Date.now() + 90_000;
  for (;;) {
    const s = await caller('writer').builds.watch({ projectId, buildId });
    if (s.done && (s.url !== null || s.status !== 'deployed')) return s;
    if (Date.now() > until) throw new Error(`build ${buildId} still ${s.status}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** A page of a site as a visitor (production) or, through a member pass from the core, a member (preview) sees it. */
async function sitePage(url: string, viaPass = false): Promise<string> {
  const host = new URL(url).host;
  if (!viaPass) return (await t.app.inject({ url: new URL(url).pathname, headers: { host } })).body;
  const pass = await caller('writer').previews.open({ projectId, url });
  const opened = await t.app.inject({ url: new URL(pass.url).pathname, headers: { host } });
  const cookie = String(opened.headers['set-cookie']).split(';')[0]!;
  return (await t.app.inject({ url: String(opened.headers.location), headers: { host, cookie } })).body;
}

/** The writer proposes `content` for guides/setup.mdx and the reviewer approves it; returns the review id. */
async function proposeAndApprove(title: string, content: string): Promise<string> {
  const w = caller('writer');
  await w.workspace.open({ projectId });
  await w.files.write({ projectId, path: 'guides/setup.mdx', content });
  await w.reviews.propose({ projectId, title, reviewers: [reviewerId], paths: ['guides/setup.mdx'] });
  await w.sync.now();
  const id = (await w.reviews.list({ projectId })).items.find((r) => r.title === title)!.id;
  const r = caller('reviewer');
  await r.sync.now();
  await r.reviews.approve({ projectId, reviewId: id });
  await r.sync.now();
  await w.sync.now();
  expect((await w.reviews.get({ projectId, reviewId: id })).status).toBe('approved');
  return id;
}

beforeAll(async () => {
  t = await createTestApp({ runJobs: true });
  repo = reviewRepo();
  const res = await t.app.inject({ method: 'POST', url: '/v1/projects', headers: bearer(t.adminKey), payload: { name: 'Acme', slug: 'acme', repoUrl: repo.path, repoBranch: repo.branch } });
  projectId = res.json().data.id as string;
  const orgId = (await t.ctx.db.prisma.project.findUniqueOrThrow({ where: { id: projectId } })).orgId;
  await seedMember(t.ctx.db, orgId, 'writer@acme.test', 'editor');
  reviewerId = (await seedMember(t.ctx.db, orgId, 'reviewer@acme.test', 'reviewer')).id;
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const serverUrl = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  for (const who of ['writer', 'reviewer'] as const) {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), `quire-merge-${who}-`));
    dirs.push(dir);
    cores[who] = createCore({ dataDir: dir, vault: fileTokenVault(dir), sync: { auto: false } });
    await caller(who).session.signIn({ serverUrl, email: `${who}@acme.test`, password: TEST_PASSWORD });
    await caller(who).workspace.open({ projectId });
  }
}, 60_000);

afterAll(async () => {
  for (const core of Object.values(cores)) await core.close();
  await t?.close();
  repo?.cleanup();
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
});

describe('merging from the desktop app', () => {
  it('merges an approved review for an editor, not a reviewer, and follows the production build to the live site', async () => {
    const reviewId = await proposeAndApprove('Clearer line 3', line3('Line 3 MERGED from the desktop.'));

    const seenByReviewer = await caller('reviewer').reviews.get({ projectId, reviewId });
    expect(seenByReviewer.mergeBlock).toBe('Only an editor, admin or owner can merge a review; your role (reviewer) cannot.');
    const refused = await errorOf(caller('reviewer').reviews.merge({ projectId, reviewId }));
    expect(refused.code).toBe('FORBIDDEN');
    expect(refused.message).toContain('editor, admin or owner');

    const w = caller('writer');
    expect((await w.reviews.get({ projectId, reviewId })).mergeBlock).toBeNull();
    const outcome = await w.reviews.merge({ projectId, reviewId });
    if (!outcome.merged) throw new Error(`merge conflicted: ${outcome.conflict.message}`);
    expect(outcome.review).toMatchObject({ id: reviewId, status: 'merged', pending: false });
    expect(outcome.buildId).toMatch(/^bld_/);
    // the merge commit is on the branch, by the review's author
    expect(gitIn(repo, ['show', 'HEAD:guides/setup.mdx'])).toContain('Line 3 MERGED from the desktop.');
    expect(gitIn(repo, ['log', '-1', '--format=%ae'])).toBe('writer@acme.test');
    // the review shows merged at once, with the build it started
    expect(await w.reviews.get({ projectId, reviewId })).toMatchObject({ status: 'merged', mergeBuildId: outcome.buildId });

    const build = await watchToEnd(outcome.buildId);
    expect(build).toMatchObject({ status: 'deployed', isPreview: false, url: 'http://acme-docs.localhost:4000/' });
    expect(build.phases.map((p) => p.status)).toContain('deployed');
    expect(await sitePage(`${build.url!}guides/setup`)).toContain('Line 3 MERGED from the desktop.');
  }, 120_000);

  it('answers a merge that conflicts with the branch with the conflicting paths, merging nothing', async () => {
    const reviewId = await proposeAndApprove('Another line 3', line3('Line 3 from a REVIEW that will conflict.'));
    // meanwhile someone pushes another line 3 to the branch
    fs.writeFileSync(path.join(repo.path, 'guides/setup.mdx'), line3('Line 3 PUSHED directly to main.'));
    gitIn(repo, ['commit', '-qam', 'Direct edit of line 3']);
    const head = repo.headSha();

    const outcome = await caller('writer').reviews.merge({ projectId, reviewId });
    expect(outcome).toMatchObject({ merged: false, conflict: { paths: ['guides/setup.mdx'], branch: 'main', message: expect.stringContaining('nothing was merged') } });
    expect(repo.headSha()).toBe(head);
    expect((await caller('writer').reviews.get({ projectId, reviewId })).status).toBe('approved');
  }, 120_000);

  it('refuses to merge a review that is not approved, and says a merge needs the server when it cannot be reached', async () => {
    const w = caller('writer');
    await w.workspace.open({ projectId });
    await w.files.write({ projectId, path: 'index.mdx', content: '---\ntitle: Welcome\n---\n\n# Welcome\n\nNot approved yet.\n' });
    await w.reviews.propose({ projectId, title: 'Not approved', paths: ['index.mdx'] });
    await w.sync.now();
    const open = (await w.reviews.list({ projectId })).items.find((r) => r.title === 'Not approved')!;
    const notApproved = await errorOf(w.reviews.merge({ projectId, reviewId: open.id }));
    expect(notApproved.code).toBe('CONFLICT');
    expect(notApproved.message).toBe('Only an approved review can be merged; this one is open.');

    const conflicted = (await w.reviews.list({ projectId })).items.find((r) => r.title === 'Another line 3')!;
    const session = cores.writer!.store.session()!;
    cores.writer!.store.saveSession({ ...session, serverUrl: 'http://127.0.0.1:1' });
    try {
      const offline = await errorOf(w.reviews.merge({ projectId, reviewId: conflicted.id }));
      expect(offline.code).toBe('BAD_GATEWAY');
      expect(offline.message).toBe('Merging needs the Quire server, which cannot be reached now. Nothing was merged; try again once you are online.');
    } finally {
      cores.writer!.store.saveSession(session);
    }
  }, 60_000);
});

describe('"Build preview of your changes"', () => {
  it('builds the local edits on the workspace base as a preview on the writer\'s own channel', async () => {
    const w = caller('writer');
    await w.workspace.open({ projectId });
    const base = repo.headSha();
    await w.files.write({ projectId, path: 'index.mdx', content: '---\ntitle: Welcome\n---\n\n# Welcome\n\nA LOCAL edit, previewed before proposing.\n' });
    const build = await w.builds.previewChanges({ projectId });
    expect(build).toMatchObject({ isPreview: true, commitSha: base });
    const done = await watchToEnd(build.id);
    expect(done).toMatchObject({ status: 'deployed', isPreview: true, url: expect.stringMatching(/^http:\/\/changes-[a-z0-9]+--acme-docs\.localhost:4000\/$/) });
    expect(await sitePage(done.url!, true)).toContain('A LOCAL edit, previewed before proposing.');
    // the published site does not have it
    expect(await sitePage('http://acme-docs.localhost:4000/')).not.toContain('A LOCAL edit');
  }, 120_000);

  it('says there is nothing to preview without local edits', async () => {
    const r = caller('reviewer');
    const err = await errorOf(r.builds.previewChanges({ projectId }));
    expect(err.code).toBe('BAD_REQUEST');
    expect(err.message).toBe('You have no local edits: edit a page first.');
  });
});
