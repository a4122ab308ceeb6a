import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHANGE_SET_LIMITS } from '@quire/shared/collab/change-set';
import { bearer, createTestApp, type TestApp } from '../helpers/app';
import type { FixtureRepo } from '../helpers/git-repo';
import { createProject, waitForStatus } from './builds/build-fixture';
import { gitIn, memberWithKey, reviewRepo, reviewsApi, SETUP } from './reviews-fixture';

/**
 * Images (and other binary files) in a change set: `{path, content: <base64>, encoding: 'base64'}`
 * (shared/src/api/reviews.ts), kept byte for byte through the review, its preview build and its merge.
 */
let t: TestApp;
let repo: FixtureRepo;
let project: { id: string; slug: string };
let api: ReturnType<typeof reviewsApi>;
let reviewer: { userId: string; key: string };

/** A small PNG-like file: the PNG signature, a NUL, every byte value once, and `tag`. */
const SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00];
const png = (tag: string) => Buffer.concat([Buffer.from(SIGNATURE), Buffer.from(Array.from({ length: 256 }, (_, i) => i)), Buffer.from(tag)]);
const LOGO = png('logo v1');
const b64 = (bytes: Buffer) => bytes.toString('base64');
const image = (path: string, bytes: Buffer) => ({ path, content: b64(bytes), encoding: 'base64' as const });
/** The bytes git holds for `path` at `rev` of the fixture repository. */
const bytesAt = (rev: string, path: string) => execFileSync('git', ['cat-file', 'blob', `${rev}:${path}`], { cwd: repo.path });

/** A page of a (private) review preview as the reviewer opens it: a member pass for `url`, then the file it lands on with its cookie. */
async function asReviewer(url: string) {
  const host = new URL(url).host;
  const pass = await t.app.inject({ method: 'POST', url: `/v1/projects/${project.id}/preview-passes`, headers: bearer(reviewer.key), payload: { url } });
  expect(pass.statusCode).toBe(201);
  const opened = await t.app.inject({ url: new URL(pass.json().data.url as string).pathname, headers: { host } });
  const cookie = String(opened.headers['set-cookie']).split(';')[0]!;
  return t.app.inject({ url: String(opened.headers.location), headers: { host, cookie } });
}

beforeAll(async () => {
  t = await createTestApp({ runJobs: true });
  repo = reviewRepo();
  repo.commit({ 'images/logo.png': LOGO }, 'add the logo');
  project = await createProject(t, repo, 'acme');
  api = reviewsApi(t, project.id);
  reviewer = await memberWithKey(t, 'rita@acme.test', 'reviewer', ['projects:read', 'projects:write']);
});
afterAll(async () => {
  await t?.close();
  repo?.cleanup();
});

describe('binary files in a review', () => {
  it('keeps a base64 image identical, serves it in the preview, and merges its exact bytes into git', async () => {
    const fresh = png('a new image');
    const logo = png('logo v2');
    const page = `${SETUP}\n![Diagram](/images/new.png)\n`;
    const res = await api.create({
      title: 'Images',
      reviewers: [reviewer.userId],
      changes: [image('images/new.png', fresh), image('images/logo.png', logo), { path: 'guides/setup.mdx', content: page, encoding: 'utf-8' }],
    });
    expect(res.statusCode).toBe(201);
    const review = res.json().data;
    expect(review.changes).toEqual([
      { path: 'guides/setup.mdx', change: 'modified', previewUrl: expect.any(String) },
      { path: 'images/logo.png', change: 'modified', binary: true },
      { path: 'images/new.png', change: 'added', binary: true },
    ]);
    // what was stored reads back exactly as sent
    const rows = await t.ctx.db.prisma.reviewFile.findMany({ where: { reviewId: review.id }, orderBy: { path: 'asc' } });
    expect(rows.map((r) => [r.path, r.encoding, r.content])).toEqual([
      ['guides/setup.mdx', 'utf-8', page],
      ['images/logo.png', 'base64', b64(logo)],
      ['images/new.png', 'base64', b64(fresh)],
    ]);

    // a comment on an image anchors to its one line (a stand-in naming its size and hash), not to base64
    const comment = await api.comment(review.id, { path: 'images/new.png', lineStart: 1, lineEnd: 1, body: 'Crop this?' }, reviewer.key);
    expect(comment.statusCode).toBe(201);
    const anchor = await t.ctx.db.prisma.reviewComment.findUniqueOrThrow({ where: { id: comment.json().data.id as string } });
    expect(anchor.anchorText).toMatch(new RegExp(`^binary file, ${fresh.length} bytes, sha256 [0-9a-f]{64}$`));
    expect((await api.comment(review.id, { path: 'images/new.png', lineStart: 2, lineEnd: 2, body: 'Here?' }, reviewer.key)).statusCode).toBe(400);

    // the preview build lays the bytes over the checkout: the site serves the image as it was sent
    const built = await waitForStatus(t, project.id, review.previewBuildId as string, ['deployed', 'failed'], 60_000);
    expect(built.status).toBe('deployed');
    const served = await asReviewer(`${review.previewUrl as string}images/new.png`);
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toMatch(/^image\/png/);
    expect(served.rawPayload.equals(fresh)).toBe(true);
    expect((await asReviewer(`${review.previewUrl as string}images/logo.png`)).rawPayload.equals(logo)).toBe(true);

    expect((await api.patch(review.id, { status: 'approved' }, reviewer.key)).statusCode).toBe(200);
    const merged = await api.patch(review.id, { status: 'merged' });
    expect(merged.statusCode).toBe(200);
    const mergeCommit = merged.json().data.mergeCommit as string;
    expect(bytesAt(mergeCommit, 'images/new.png').equals(fresh)).toBe(true);
    expect(bytesAt(mergeCommit, 'images/logo.png').equals(logo)).toBe(true);
    expect(bytesAt(mergeCommit, 'guides/setup.mdx').toString('utf8')).toBe(page);
  }, 120_000);

  it('refuses to merge a binary file the branch also changed since the base commit, naming it, and changes nothing', async () => {
    const start = repo.headSha();
    const res = await api.create({ title: 'Logo v3', changes: [image('images/logo.png', png('logo v3, review'))] });
    expect(res.statusCode).toBe(201);
    const id = res.json().data.id as string;
    const moved = repo.commit({ 'images/logo.png': png('logo v3, branch') }, 'another logo on the branch');
    expect(moved).not.toBe(start);
    expect((await api.patch(id, { status: 'approved' }, reviewer.key)).statusCode).toBe(200);
    const merge = await api.patch(id, { status: 'merged' });
    expect(merge.statusCode).toBe(409);
    expect(merge.json().error.details).toMatchObject({ paths: ['images/logo.png'] });
    expect(repo.headSha()).toBe(moved);
    expect(bytesAt('HEAD', 'images/logo.png').equals(png('logo v3, branch'))).toBe(true);
    expect((await api.get(id)).json().data.status).toBe('approved');
  }, 60_000);

  it('applies a suggestion on a page while the image of the change set keeps its bytes; refuses a suggestion on an image', async () => {
    const diagram = png('diagram for a suggestion');
    const res = await api.create({ title: 'Suggest beside an image', reviewers: [reviewer.userId], changes: [image('images/diagram.png', diagram), { path: 'guides/setup.mdx', content: SETUP }] });
    expect(res.statusCode).toBe(201);
    const id = res.json().data.id as string;
    const onImage = await api.comment(id, { path: 'images/diagram.png', lineStart: 1, lineEnd: 1, body: 'x', suggestion: { lines: { start: 1, end: 1 }, text: 'text' } }, reviewer.key);
    expect(onImage.statusCode).toBe(400);
    expect(onImage.json().error.message).toMatch(/binary file/);
    const suggestion = { path: 'guides/setup.mdx', lineStart: 5, lineEnd: 5, body: 'Clearer.', suggestion: { lines: { start: 5, end: 5 }, text: 'Line 1, said better.' } };
    const comment = await api.comment(id, suggestion, reviewer.key);
    expect(comment.statusCode).toBe(201);
    const apply = await t.app.inject({
      method: 'POST',
      url: `/v1/projects/${project.id}/reviews/${id}/suggestions/apply`,
      headers: bearer(t.adminKey),
      payload: { commentIds: [comment.json().data.id as string] },
    });
    expect(apply.statusCode).toBe(200);
    expect(apply.json().data.revision).toBe(2);
    const rows = await t.ctx.db.prisma.reviewFile.findMany({ where: { reviewId: id }, orderBy: { path: 'asc' } });
    expect(rows.map((r) => [r.path, r.encoding])).toEqual([
      ['guides/setup.mdx', 'utf-8'],
      ['images/diagram.png', 'base64'],
    ]);
    expect(rows[0]!.content).toContain('Line 1, said better.');
    expect(Buffer.from(rows[1]!.content!, 'base64').equals(diagram)).toBe(true);
  }, 60_000);

  it('takes the images of a branch review as bytes', async () => {
    const photo = png('on a branch');
    gitIn(repo, ['checkout', '--quiet', '-b', 'pictures']);
    repo.commit({ 'images/photo.png': photo }, 'a photo on a branch');
    gitIn(repo, ['checkout', '--quiet', 'main']);
    const res = await api.create({ title: 'Pictures', branch: 'pictures' });
    expect(res.statusCode).toBe(201);
    expect(res.json().data.changes).toEqual([{ path: 'images/photo.png', change: 'added', binary: true }]);
    const row = await t.ctx.db.prisma.reviewFile.findFirstOrThrow({ where: { reviewId: res.json().data.id as string } });
    expect(row).toMatchObject({ encoding: 'base64', content: b64(photo) });
  }, 60_000);

  it('answers 400 naming changes.<i>.content for content that is not base64, and opens nothing', async () => {
    const before = await t.ctx.db.prisma.review.count();
    for (const content of ['not base64!', 'iVBORw0KGgo\n', 'iVBORw0KGgo']) {
      const res = await api.create({ title: 'Bad', changes: [{ path: 'ok.mdx', content: '# ok\n' }, { path: 'images/bad.png', content, encoding: 'base64' }] });
      expect(res.statusCode).toBe(400);
      expect(res.json().error).toMatchObject({ code: 'invalid_request', details: { field: 'changes.1.content' } });
      expect(res.json().error.message).toContain('changes.1.content');
    }
    const unknown = await api.create({ title: 'Bad', changes: [{ path: 'a.png', content: 'AAAA', encoding: 'hex' }] });
    expect(unknown.statusCode).toBe(400);
    expect(await t.ctx.db.prisma.review.count()).toBe(before);
  });

  it('counts the decoded bytes of base64 against the file limit: 413 naming it', async () => {
    const before = await t.ctx.db.prisma.review.count();
    const max = CHANGE_SET_LIMITS.maxFileBytes;
    const res = await api.create({ title: 'Huge', changes: [image('images/huge.png', Buffer.alloc(max + 1))] });
    expect(res.statusCode).toBe(413);
    expect(res.json().error).toMatchObject({ code: 'payload_too_large', details: { field: 'changes.0.content', limit: 'maxFileBytes', max, actual: max + 1 } });
    expect(await t.ctx.db.prisma.review.count()).toBe(before);
  });
});
