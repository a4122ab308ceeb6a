/**
 * Approval gates hold documentation version deploys too: a version is served under `/<label>/` of
 * the production site, so a change to a gated path committed on a version's branch waits for
 * approval like a production deploy (its changed paths counted from that version's own last
 * deployment), and an ungated one deploys at once.
 */
import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, type TestApp } from '../helpers/app';
import type { FixtureRepo } from '../helpers/git-repo';
import { createProject, trigger, waitForStatus } from '../routes/builds/build-fixture';
import { memberWithKey } from '../routes/reviews-fixture';
import { WAITING_FOR_APPROVAL } from '../../src/services/approvals';
import { versionedRepo } from './versioned-repo';

const HOST = 'acme-docs.localhost:4000';
const page = (title: string, body: string) => `---\ntitle: ${title}\n---\n\n${body}\n`;

describe('approval gates on documentation versions', () => {
  let t: TestApp;
  let repo: FixtureRepo;
  let project: { id: string; slug: string };
  let approver: { userId: string; key: string };

  const site = (url: string) => t.app.inject({ url, headers: { host: HOST } });

  /** Commits `files` on the repository's `v2` branch (version v2's ref). */
  function commitOnV2(files: Record<string, string>, message: string): void {
    execFileSync('git', ['checkout', '-q', 'v2'], { cwd: repo.path });
    try {
      repo.commit(files, message);
    } finally {
      execFileSync('git', ['checkout', '-q', repo.branch], { cwd: repo.path });
    }
  }

  /**
   * Deploys production again (its commit is unchanged: "no changes"), which queues the version builds,
   * and returns version v2's new build once it waits for approval or has ended.
   */
  async function rebuildV2() {
    const started = new Date();
    const prod = (await trigger(t, project.id)).json().data;
    expect(await waitForStatus(t, project.id, prod.id, ['deployed', 'failed'], 60_000)).toMatchObject({ status: 'deployed' });
    const until = Date.now() + 90_000;
    for (;;) {
      const build = await t.ctx.db.prisma.build.findFirst({ where: { projectId: project.id, version: 'v2', createdAt: { gte: started } } });
      if (build && (build.step === WAITING_FOR_APPROVAL || !['queued', 'building'].includes(build.status))) return build;
      if (Date.now() > until) throw new Error(`the v2 build is still ${build?.status ?? 'not queued'}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  beforeAll(async () => {
    t = await createTestApp();
    repo = versionedRepo();
    project = await createProject(t, repo, 'acme');
    approver = await memberWithKey(t, 'approver@acme.test', 'reviewer', ['projects:read', 'projects:write']);
    t.app.buildRunner.configure({ pollMs: 100 });
    await t.app.buildRunner.start();
    // Every version deployed once before the gate exists.
    expect((await rebuildV2()).status).toBe('deployed');
    const gate = await t.app.inject({
      method: 'POST',
      url: `/v1/projects/${project.id}/approval-gates`,
      headers: bearer(t.adminKey),
      payload: { name: 'Guides', paths: ['guides/**'] },
    });
    expect(gate.statusCode).toBe(201);
  }, 240_000);
  afterAll(async () => {
    await t?.close();
    repo?.cleanup();
  });

  it('holds a gated change on a version branch until approved: /v2/ keeps the old text meanwhile', async () => {
    commitOnV2({ 'guides/setup.mdx': page('Setup', 'V2-GATED-EDIT install it with npm.') }, 'v2: gated edit');
    const build = await rebuildV2();
    expect(build).toMatchObject({ status: 'building', step: WAITING_FOR_APPROVAL });
    expect((await site('/v2/guides/setup')).body).toContain('V2-SETUP install it with pnpm.');
    expect((await site('/v2/guides/setup')).body).not.toContain('V2-GATED-EDIT');

    const pending = await t.app.inject({ url: `/v1/projects/${project.id}/approvals?status=pending`, headers: bearer(t.adminKey) });
    const approval = (pending.json().data as Array<{ id: string; buildId: string; paths: string[] }>).find((a) => a.buildId === build.id);
    // Changed since v2's own last deployment: the one file of this commit, not the v2 branch's difference to production.
    expect(approval).toMatchObject({ paths: ['guides/setup.mdx'], gates: [{ name: 'Guides' }] });

    const approve = await t.app.inject({ method: 'POST', url: `/v1/projects/${project.id}/approvals/${approval!.id}/approve`, headers: bearer(approver.key), payload: {} });
    expect(approve.json().data.status).toBe('approved');
    expect(await waitForStatus(t, project.id, build.id, ['deployed', 'failed'], 60_000)).toMatchObject({ status: 'deployed', url: `http://${HOST}/v2/` });
    expect((await site('/v2/guides/setup')).body).toContain('V2-GATED-EDIT');
    // The default version at the site root is untouched.
    expect((await site('/guides/setup')).body).toContain('V2-SETUP install it with pnpm.');
  }, 240_000);

  it('deploys an ungated change on a version branch at once', async () => {
    commitOnV2({ 'index.mdx': page('Welcome', 'V2-UNGATED home.') }, 'v2: ungated edit');
    const build = await rebuildV2();
    expect(build).toMatchObject({ status: 'deployed', step: null });
    expect(await t.ctx.db.prisma.approval.count({ where: { buildId: build.id } })).toBe(0);
    expect((await site('/v2/')).body).toContain('V2-UNGATED home.');
  }, 240_000);
});
