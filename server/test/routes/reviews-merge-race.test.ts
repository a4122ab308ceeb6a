/**
 * A merge pushes the change set that was approved, never one that replaced it while the merge ran:
 * a new change set (which reopens the review) lands after the merge request started, right before
 * the merge reads what to push; the merge is refused and the repository keeps its branch head.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import { createTestApp, type TestApp } from '../helpers/app';
import type { FixtureRepo } from '../helpers/git-repo';
import { createProject } from './builds/build-fixture';
import { gitIn, memberWithKey, reviewRepo, reviewsApi, SETUP } from './reviews-fixture';
import type * as Usage from '../../src/services/usage';

/** Runs once, inside the merge, when it looks up the organization's build usage (after its permission checks). */
const hook = vi.hoisted(() => ({ duringMerge: null as null | (() => Promise<void>) }));
vi.mock('../../src/services/usage', async (importOriginal) => {
  const actual = await importOriginal<typeof Usage>();
  return {
    ...actual,
    getUsage: async (...args: Parameters<typeof actual.getUsage>) => {
      const run = hook.duringMerge;
      hook.duringMerge = null;
      if (run) await run();
      return actual.getUsage(...args);
    },
  };
});

describe('merging a review while its change set is replaced', () => {
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

  it('never pushes the unapproved change set: the merge answers 409 and the branch keeps its head', async () => {
    const reviewer = await memberWithKey(t, 'rita@acme.test', 'reviewer', ['projects:read', 'projects:write']);
    const created = await api.create({ title: 'Approved wording', reviewers: [reviewer.userId], changes: [{ path: 'guides/setup.mdx', content: SETUP.replace('Line 3', 'APPROVED line 3') }] });
    const id = created.json().data.id as string;
    expect((await api.patch(id, { status: 'approved' }, reviewer.key)).json().data.status).toBe('approved');
    const head = repo.headSha();

    let update: LightMyRequestResponse | undefined;
    hook.duringMerge = async () => {
      update = await api.patch(id, { changes: [{ path: 'guides/setup.mdx', content: SETUP.replace('Line 3', 'UNAPPROVED line 3') }] });
    };
    const merge = await api.patch(id, { status: 'merged' });

    expect(update?.statusCode).toBe(200);
    expect(update?.json().data).toMatchObject({ status: 'open', revision: 2 });
    expect(merge.statusCode).toBe(409);
    expect(merge.json().error).toMatchObject({ code: 'conflict', message: 'A review cannot go from "open" to "merged".' });
    expect(gitIn(repo, ['show', `${repo.branch}:guides/setup.mdx`])).not.toContain('UNAPPROVED');
    expect(repo.headSha()).toBe(head);
    expect((await api.get(id)).json().data).toMatchObject({ status: 'open', revision: 2 });
  });
});
