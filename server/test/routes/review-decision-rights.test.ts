/**
 * Who may decide a review over REST (approve it or request changes): a person whose current role is
 * reviewer or above, through a key that holds projects:write. Being a requested reviewer grants
 * nothing on its own.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app';
import type { FixtureRepo } from '../helpers/git-repo';
import { createProject } from './builds/build-fixture';
import { memberWithKey, reviewRepo, reviewsApi } from './reviews-fixture';

describe('deciding a review over REST', () => {
  let t: TestApp;
  let repo: FixtureRepo;
  let api: ReturnType<typeof reviewsApi>;

  beforeAll(async () => {
    t = await createTestApp();
    repo = reviewRepo();
    api = reviewsApi(t, (await createProject(t, repo, 'acme')).id);
  });
  afterAll(async () => {
    await t?.close();
    repo?.cleanup();
  });

  /** Opens a review (as the bootstrap owner) asking `reviewerIds` to review it; returns its id. */
  async function openReview(title: string, reviewerIds: string[]): Promise<string> {
    const res = await api.create({ title, reviewers: reviewerIds, changes: [{ path: 'index.mdx', content: `# ${title}\n` }] });
    expect(res.statusCode).toBe(201);
    return res.json().data.id as string;
  }

  it('refuses a read or build key of a requested reviewer with 403 forbidden in the error envelope', async () => {
    const reader = await memberWithKey(t, 'reader@acme.test', 'reviewer', ['projects:read']);
    const builder = await memberWithKey(t, 'builder@acme.test', 'reviewer', ['projects:read', 'builds:read', 'builds:write']);
    const id = await openReview('Read keys', [reader.userId, builder.userId]);
    for (const [key, status] of [[reader.key, 'approved'], [reader.key, 'changes_requested'], [builder.key, 'approved']] as const) {
      const res = await api.patch(id, { status }, key);
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual({
        error: { code: 'forbidden', message: 'Reviewing needs an API key with the "projects:write" permission.', details: { permission: 'projects:write' } },
      });
    }
    expect((await api.get(id)).json().data.status).toBe('open');
  });

  it('refuses a requested reviewer demoted to viewer, even with a projects:write key, and takes the decision of a current reviewer', async () => {
    const demoted = await memberWithKey(t, 'demoted@acme.test', 'reviewer', ['projects:read', 'projects:write']);
    const reviewer = await memberWithKey(t, 'current@acme.test', 'reviewer', ['projects:read', 'projects:write']);
    const id = await openReview('Demoted', [demoted.userId]);
    await t.ctx.db.prisma.membership.update({ where: { orgId_userId: { orgId: t.app.bootstrap.orgId!, userId: demoted.userId } }, data: { role: 'viewer' } });
    const refused = await api.patch(id, { status: 'approved' }, demoted.key);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error).toEqual({ code: 'forbidden', message: 'Reviewing needs the reviewer role or above; your role (viewer) only reads.' });
    expect((await api.get(id)).json().data.status).toBe('open');
    // A reviewer who was not asked still reviews (the role decides, not the request).
    const approved = await api.patch(id, { status: 'approved' }, reviewer.key);
    expect(approved.statusCode).toBe(200);
    expect(approved.json().data.status).toBe('approved');
  });
});
