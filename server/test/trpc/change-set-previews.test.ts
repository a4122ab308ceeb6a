import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHANGE_SET_LIMITS } from '@quire/shared/collab/change-set';
import { bearer, createTestApp, type TestApp } from '../helpers/app';
import type { FixtureRepo } from '../helpers/git-repo';
import { seedMember, TEST_PASSWORD } from '../services/identity-fixtures';
import { createProject, waitForStatus } from '../routes/builds/build-fixture';
import { reviewRepo, SETUP } from '../routes/reviews-fixture';
import { callerFor, trpcErrorOf } from './trpc-fixtures';

/**
 * `builds.previewChanges`: a preview build of a writer's change set on a base commit (the desktop
 * app's "Build preview of your changes"), checked and built like a review's preview.
 */
let t: TestApp;
let repo: FixtureRepo;
let project: { id: string; slug: string };
let base: string;
const tokens: Record<string, string> = {};
const ids: Record<string, string> = {};

const as = (role: string) => callerFor(t.ctx, tokens[role]);
const changed = SETUP.replace('Line 3 of the setup guide.', 'Line 3 PREVIEWED from the desktop.');

/** A page of a (private) preview site as a member opens it: a member pass, then the page with its cookie. */
async function openPreviewPage(url: string) {
  const pass = await t.app.inject({ method: 'POST', url: `/v1/projects/${project.id}/preview-passes`, headers: bearer(t.adminKey), payload: { url } });
  expect(pass.statusCode).toBe(201);
  const host = new URL(url).host;
  const opened = await t.app.inject({ url: new URL(pass.json().data.url as string).pathname, headers: { host } });
  const cookie = String(opened.headers['set-cookie']).split(';')[0]!;
  return t.app.inject({ url: String(opened.headers.location), headers: { host, cookie } });
}

beforeAll(async () => {
  t = await createTestApp({ runJobs: true });
  repo = reviewRepo();
  base = repo.headSha();
  project = await createProject(t, repo, 'acme');
  const orgId = t.app.bootstrap.orgId!;
  for (const role of ['editor', 'reviewer', 'viewer'] as const) {
    ids[role] = (await seedMember(t.ctx.db, orgId, `${role}@acme.test`, role)).id;
    tokens[role] = (await (await callerFor(t.ctx)).auth.signIn({ email: `${role}@acme.test`, password: TEST_PASSWORD })).token;
  }
});
afterAll(async () => {
  await t.close();
  repo.cleanup();
});

describe('builds.previewChanges', () => {
  it('builds base + change set as a preview on the writer\'s own channel and serves the changed pages there', async () => {
    const editor = await as('editor');
    const build = await editor.builds.previewChanges({
      projectId: project.id,
      baseCommit: base,
      changes: [
        { path: 'guides/setup.mdx', content: changed },
        { path: 'guides\\fresh.mdx', content: '---\ntitle: Fresh\n---\n\nA FRESH page, not yet proposed.\n' },
      ],
    });
    expect(build).toMatchObject({ status: 'queued', isPreview: true, trigger: 'api', branch: 'main', commitSha: base });

    const done = await waitForStatus(t, project.id, build.id, ['deployed', 'failed'], 60_000);
    const channel = `changes-${ids.editor!.slice(4).toLowerCase()}`;
    expect(done).toMatchObject({ status: 'deployed', isPreview: true, url: `http://${channel}--acme-docs.localhost:4000/` });
    expect((await openPreviewPage(`${done.url as string}guides/setup`)).body).toContain('Line 3 PREVIEWED from the desktop.');
    expect((await openPreviewPage(`${done.url as string}guides/fresh`)).body).toContain('A FRESH page, not yet proposed.');
    // nothing reached the repository or production
    expect(repo.headSha()).toBe(base);
    const audit = await t.ctx.db.prisma.auditEntry.findFirstOrThrow({ where: { action: 'build.triggered', resourceId: build.id } });
    expect(JSON.parse(audit.metadata)).toMatchObject({ isPreview: true, commitSha: base, changeSet: { files: 2 } });
  }, 90_000);

  it('lays an image given as base64 over the checkout byte for byte: the preview serves it as image/png', async () => {
    const signature = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00];
    const png = Buffer.from([...signature, ...Array.from({ length: 256 }, (_, i) => 255 - i)]);
    const editor = await as('editor');
    const build = await editor.builds.previewChanges({
      projectId: project.id,
      baseCommit: base,
      changes: [
        { path: 'images/new.png', content: png.toString('base64'), encoding: 'base64' },
        { path: 'guides/setup.mdx', content: `${SETUP}\n![New](/images/new.png)\n` },
      ],
    });
    const stored = await t.ctx.db.prisma.buildOverlayFile.findUniqueOrThrow({ where: { buildId_path: { buildId: build.id, path: 'images/new.png' } } });
    expect(stored).toMatchObject({ encoding: 'base64', content: png.toString('base64') });
    const done = await waitForStatus(t, project.id, build.id, ['deployed', 'failed'], 60_000);
    expect(done.status).toBe('deployed');
    const served = await openPreviewPage(`${done.url as string}images/new.png`);
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toMatch(/^image\/png/);
    expect(served.rawPayload.equals(png)).toBe(true);
  }, 90_000);

  it('lets only editors and above build a preview of changes', async () => {
    const input = { projectId: project.id, baseCommit: base, changes: [{ path: 'index.mdx', content: '# Hi\n' }] };
    for (const role of ['reviewer', 'viewer']) expect((await trpcErrorOf((await as(role)).builds.previewChanges(input))).code).toBe('FORBIDDEN');
    expect((await trpcErrorOf((await callerFor(t.ctx)).builds.previewChanges(input))).code).toBe('UNAUTHORIZED');
    expect((await trpcErrorOf((await as('editor')).builds.previewChanges({ ...input, projectId: 'prj_unknown' }))).code).toBe('NOT_FOUND');
  });

  it('refuses a change set a review would refuse, naming the field, and queues nothing', async () => {
    const editor = await as('editor');
    const before = await t.ctx.db.prisma.build.count({ where: { projectId: project.id } });
    const refusal = async (changes: unknown[], baseCommit = base) => {
      const err = await trpcErrorOf(editor.builds.previewChanges({ projectId: project.id, baseCommit, changes: changes as never }));
      return { code: err.code, message: err.message, field: (err.cause as { details?: { field?: string } } | undefined)?.details?.field };
    };
    expect(await refusal([{ path: '../outside.mdx', content: 'x' }])).toMatchObject({ code: 'BAD_REQUEST', message: expect.stringContaining('changes.0.path') });
    expect(await refusal([{ path: 'docs/.git/config', content: 'x' }])).toMatchObject({ code: 'BAD_REQUEST', message: expect.stringContaining('.git') });
    expect(await refusal([{ path: 'missing.mdx', deleted: true }])).toMatchObject({ code: 'BAD_REQUEST', message: expect.stringContaining('does not exist at the base commit') });
    expect(await refusal([])).toMatchObject({ code: 'BAD_REQUEST', field: 'changes' });
    expect(await refusal([{ path: 'index.mdx', content: 'x' }], 'f'.repeat(40))).toMatchObject({ code: 'BAD_REQUEST', field: 'baseCommit', message: expect.stringContaining('not found') });
    const many = Array.from({ length: CHANGE_SET_LIMITS.maxFiles + 1 }, (_, i) => ({ path: `p${i}.mdx`, content: 'x' }));
    expect((await refusal(many)).code).toBe('PAYLOAD_TOO_LARGE');
    expect(await t.ctx.db.prisma.build.count({ where: { projectId: project.id } })).toBe(before);
  });
});
