import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '@quire/shared/ids';
import { createAppContext, type AppContext } from '../../src/context';
import { loadConfig } from '../../src/env';
import { openTempDb, seedMember, seedOrg, TEST_PASSWORD } from '../services/identity-fixtures';
import { callerFor, trpcErrorOf } from './trpc-fixtures';
import { gitIn, reviewRepo } from '../routes/reviews-fixture';
import type { FixtureRepo } from '../helpers/git-repo';

describe('reviews router (desktop app)', () => {
  let app: AppContext;
  let cleanup: () => Promise<void>;
  let repo: FixtureRepo;
  let projectId: string;
  let foreignProjectId: string;
  const users: Record<string, { id: string; token: string }> = {};

  beforeAll(async () => {
    const tmp = await openTempDb();
    cleanup = tmp.cleanup;
    const config = loadConfig({ QUIRE_DATA_DIR: tmp.dir, QUIRE_LOG_LEVEL: 'silent', QUIRE_ALLOW_FILE_REPOS: '1' });
    const log = { info() {}, warn() {}, error() {}, debug() {}, trace() {}, fatal() {}, child: () => log, level: 'silent', silent() {} };
    app = createAppContext({ config, db: tmp.db, log: log as unknown as AppContext['log'] });
    repo = reviewRepo();
    const orgId = await seedOrg(tmp.db, 'Acme');
    const otherOrg = await seedOrg(tmp.db, 'Other');
    projectId = (await tmp.db.prisma.project.create({ data: { id: newId('project'), orgId, name: 'Docs', slug: 'docs', settings: '{}', repoUrl: repo.path, repoBranch: 'main' } })).id;
    foreignProjectId = (await tmp.db.prisma.project.create({ data: { id: newId('project'), orgId: otherOrg, name: 'Theirs', slug: 'theirs', settings: '{}' } })).id;
    for (const role of ['editor', 'reviewer', 'viewer'] as const) {
      const user = await seedMember(tmp.db, orgId, `${role}@acme.test`, role);
      users[role] = { id: user.id, token: (await (await callerFor(app)).auth.signIn({ email: `${role}@acme.test`, password: TEST_PASSWORD })).token };
    }
  });
  afterAll(async () => {
    await app.jobs.close();
    await cleanup?.();
    repo.cleanup();
  });

  it('lets an editor open a review, a requested reviewer comment and approve, and the editor merge it', async () => {
    const editor = await callerFor(app, users.editor!.token);
    const reviewer = await callerFor(app, users.reviewer!.token);
    const review = await editor.reviews.create({
      projectId,
      review: { title: 'Desktop change', reviewers: [users.reviewer!.id], changes: [{ path: 'index.mdx', content: '---\ntitle: Welcome\n---\n\n# Welcome\n\nEdited on the desktop.\n' }] },
    });
    expect(review).toMatchObject({ status: 'open', author: { id: users.editor!.id }, changes: [{ path: 'index.mdx', change: 'modified' }], revision: 1 });
    expect((await reviewer.reviews.list({ projectId, reviewer: users.reviewer!.id })).items.map((r) => r.id)).toEqual([review.id]);

    const comment = await reviewer.reviews.comments.create({ projectId, reviewId: review.id, comment: { path: 'index.mdx', lineStart: 7, lineEnd: 7, body: 'Nice.' } });
    expect(comment).toMatchObject({ author: { id: users.reviewer!.id }, outdated: false, revision: 1 });
    expect(await editor.reviews.comments.list({ projectId, reviewId: review.id })).toHaveLength(1);

    const own = await trpcErrorOf(editor.reviews.update({ projectId, reviewId: review.id, patch: { status: 'approved' } }));
    expect(own.code).toBe('FORBIDDEN');
    expect((await reviewer.reviews.update({ projectId, reviewId: review.id, patch: { status: 'approved' } })).status).toBe('approved');
    // A reviewer-role member cannot merge: that is an editor's move.
    expect((await trpcErrorOf(reviewer.reviews.merge({ projectId, reviewId: review.id }))).code).toBe('FORBIDDEN');

    const merged = await editor.reviews.merge({ projectId, reviewId: review.id });
    expect(merged.review).toMatchObject({ status: 'merged', mergeCommit: repo.headSha() });
    expect(merged.buildId).toMatch(/^bld_/);
    expect(gitIn(repo, ['log', '-1', '--format=%ae'])).toBe('editor@acme.test');
    const entry = await app.db.prisma.auditEntry.findFirst({ where: { projectId, action: 'review.merged' } });
    expect(entry).toMatchObject({ actorId: users.editor!.id, apiKeyId: null });
  });

  it('refuses viewers opening reviews or reviewing what they were not asked to, and hides other organizations', async () => {
    const viewer = await callerFor(app, users.viewer!.token);
    const editor = await callerFor(app, users.editor!.token);
    expect((await trpcErrorOf(viewer.reviews.create({ projectId, review: { title: 'x', changes: [{ path: 'a.md', content: 'a' }] } }))).code).toBe('FORBIDDEN');
    const review = await editor.reviews.create({ projectId, review: { title: 'Second', changes: [{ path: 'a.md', content: 'a' }] } });
    expect((await trpcErrorOf(viewer.reviews.update({ projectId, reviewId: review.id, patch: { status: 'approved' } }))).code).toBe('FORBIDDEN');
    const moved = await trpcErrorOf(editor.reviews.update({ projectId, reviewId: review.id, patch: { status: 'merged' } }));
    expect(moved.code).toBe('CONFLICT');
    expect(moved.message).toMatch(/"open".*"merged"/);
    expect((await trpcErrorOf(editor.reviews.get({ projectId: foreignProjectId, reviewId: review.id }))).code).toBe('NOT_FOUND');
    expect((await trpcErrorOf(editor.reviews.get({ projectId, reviewId: 'rev_nope' }))).code).toBe('NOT_FOUND');
  });

  it('lets a member with the reviewer role review what they were not asked to, and refuses a viewer as a requested reviewer', async () => {
    const editor = await callerFor(app, users.editor!.token);
    const reviewer = await callerFor(app, users.reviewer!.token);
    const review = await editor.reviews.create({ projectId, review: { title: 'Third', changes: [{ path: 'b.md', content: 'b\n' }] } });
    const comment = await reviewer.reviews.comments.create({ projectId, reviewId: review.id, comment: { path: 'b.md', lineStart: 1, lineEnd: 1, body: 'Looks right.' } });
    expect(comment.author?.id).toBe(users.reviewer!.id);
    expect((await reviewer.reviews.update({ projectId, reviewId: review.id, patch: { status: 'changes_requested' } })).status).toBe('changes_requested');
    const viewerAsReviewer = await trpcErrorOf(editor.reviews.create({ projectId, review: { title: 'Fourth', reviewers: [users.viewer!.id], changes: [{ path: 'c.md', content: 'c' }] } }));
    expect(viewerAsReviewer.code).toBe('BAD_REQUEST');
    expect(viewerAsReviewer.message).toMatch(/viewer role/);
  });

  it('refuses a requested reviewer demoted to viewer: their role now decides, not the request', async () => {
    const editor = await callerFor(app, users.editor!.token);
    const orgId = (await app.db.prisma.project.findUniqueOrThrow({ where: { id: projectId } })).orgId;
    const demoted = await seedMember(app.db, orgId, 'demoted@acme.test', 'reviewer');
    const token = (await (await callerFor(app)).auth.signIn({ email: 'demoted@acme.test', password: TEST_PASSWORD })).token;
    const review = await editor.reviews.create({ projectId, review: { title: 'Asked before', reviewers: [demoted.id], changes: [{ path: 'd.md', content: 'd\n' }] } });
    await app.db.prisma.membership.update({ where: { orgId_userId: { orgId, userId: demoted.id } }, data: { role: 'viewer' } });
    const asViewer = await callerFor(app, token);
    for (const status of ['approved', 'changes_requested'] as const) {
      const refused = await trpcErrorOf(asViewer.reviews.update({ projectId, reviewId: review.id, patch: { status } }));
      expect(refused.code).toBe('FORBIDDEN');
      expect(refused.message).toMatch(/your role \(viewer\) only reads/);
    }
    expect((await editor.reviews.get({ projectId, reviewId: review.id })).status).toBe('open');
  });
});
