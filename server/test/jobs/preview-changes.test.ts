import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PreviewInfoSchema, type PreviewChanges } from '@quire/shared/site/preview-banner';
import type { RunBuildInput, RunBuildResult } from '../../src/builder/pipeline';
import { previewIdentityOf, writePreviewInfo } from '../../src/deployments/preview-changes';
import { projectSiteUrl } from '../../src/services/projects';
import { createTestApp, type TestApp } from '../helpers/app';
import { createFixtureRepo, type FixtureRepo } from '../helpers/git-repo';
import { createProject, trigger, waitForStatus } from '../routes/builds/build-fixture';
import { bannerOf, createBareProject, deployByHand, deploymentFiles, linksOf, textOf, writeFiles, type HandPage } from '../sites/preview-banner-fixture';

const readJson = (file: string) => JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, unknown>;

describe('writePreviewInfo with real builds', () => {
  let t: TestApp;
  let repo: FixtureRepo;
  let project: { id: string; slug: string };
  /** what writePreviewInfo answered, by preview build id */
  const written = new Map<string, PreviewChanges>();

  beforeAll(async () => {
    t = await createTestApp();
    repo = createFixtureRepo(undefined, {
      extraFiles: {
        'docs.json': JSON.stringify({ name: 'Acme Docs', navigation: { groups: [{ group: 'Start', pages: ['index', 'guides/setup', 'old'] }] } }),
        'index.mdx': '---\ntitle: Welcome\n---\n\nWelcome home.\n',
        'guides/setup.mdx': '---\ntitle: Setup\n---\n\nInstall it.\n',
        'old.mdx': '---\ntitle: Old page\n---\n\nSoon gone.\n',
      },
    });
    // its preview is read for the banner, not through the preview gate
    project = await createProject(t, repo, 'acme', { protectPreviews: false });
    // Stands in for the build runner's call (the lead wires writePreviewInfo between build and publish).
    const { runBuild } = await import('../../src/builder/pipeline');
    t.app.buildRunner.configure({
      pollMs: 100,
      runBuild: async (input: RunBuildInput): Promise<RunBuildResult> => {
        const result = await runBuild(input);
        const build = await t.ctx.db.prisma.build.findUniqueOrThrow({ where: { id: input.buildId } });
        if (build.isPreview) {
          const identity = await previewIdentityOf(t.ctx, build);
          const productionUrl = projectSiteUrl(t.ctx.config, project.slug);
          written.set(build.id, await writePreviewInfo(t.ctx, { projectId: input.projectId, stagingDir: result.outDir, ...identity, productionUrl }));
        }
        return result;
      },
    });
    await t.app.buildRunner.start();
  });
  afterAll(async () => {
    await t?.close();
    repo?.cleanup();
  });

  it('finds the pages a branch adds, changes and removes against production, and its preview shows them', async () => {
    const prod = (await trigger(t, project.id)).json().data;
    expect(await waitForStatus(t, project.id, prod.id, ['deployed', 'failed'], 60_000)).toMatchObject({ status: 'deployed', error: null });

    execFileSync('git', ['checkout', '-q', '-b', 'feature/login'], { cwd: repo.path });
    repo.commit(
      {
        'docs.json': JSON.stringify({ name: 'Acme Docs', navigation: { groups: [{ group: 'Start', pages: ['index', 'guides/setup', 'guides/login'] }] } }),
        'guides/setup.mdx': '---\ntitle: Setup\n---\n\nInstall it with pnpm.\n',
        'guides/login.mdx': '---\ntitle: Log in\n---\n\nSign in first.\n',
        'old.mdx': null,
      },
      'login docs',
    );
    const build = (await trigger(t, project.id, { branch: 'feature/login', preview: true })).json().data;
    const done = await waitForStatus(t, project.id, build.id, ['deployed', 'failed'], 60_000);
    expect(done).toMatchObject({ status: 'deployed', url: 'http://feature-login--acme-docs.localhost:4000/' });

    expect(written.get(build.id)).toEqual({
      added: [{ path: 'guides/login', title: 'Log in' }],
      changed: [{ path: 'guides/setup', title: 'Setup' }],
      removed: [{ path: 'old', title: 'Old page' }],
    });

    const host = 'feature-login--acme-docs.localhost:4000';
    const page = await t.app.inject({ url: '/guides/login', headers: { host } });
    expect(page.statusCode).toBe(200);
    const banner = bannerOf(page.body);
    expect(banner).toBeDefined();
    expect(textOf(banner!)).toContain('Preview of branch feature/login');
    expect(textOf(banner!)).toContain('Changed pages (3)');
    const links = linksOf(banner!);
    expect(links).toContainEqual({ href: '/guides/login', text: 'Log in', current: true });
    expect(links).toContainEqual({ href: '/guides/setup', text: 'Setup', current: false });
    expect(links).toContainEqual({ href: 'http://acme-docs.localhost:4000/old', text: 'Old page (on production)', current: false });
    // the changed page, followed from the list, is the branch's version
    expect((await t.app.inject({ url: '/guides/setup', headers: { host } })).body).toContain('Install it with pnpm.');

    const live = await t.app.inject({ url: '/guides/setup', headers: { host: 'acme-docs.localhost:4000' } });
    expect(live.body).toContain('Install it.');
    expect(bannerOf(live.body)).toBeUndefined();
  });
});

describe('writePreviewInfo against hand-written deployments', () => {
  let t: TestApp;
  const stagings: string[] = [];

  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => t?.close());

  const stage = (pages: HandPage[]) => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-preview-stage-'));
    stagings.push(dir);
    writeFiles(dir, deploymentFiles(pages));
    return dir;
  };
  afterAll(() => {
    for (const dir of stagings) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('lists every readable page as added when the project has no production deployment, and writes preview.json', async () => {
    const projectId = await createBareProject(t, 'fresh');
    const dir = stage([
      { path: 'index', title: 'Home', markdown: '# Home\n' },
      { path: 'secret', title: 'Secret plans', markdown: '# Secret\n', audience: ['staff'] },
      { path: 'guides/a', title: '', markdown: '# A\n' },
    ]);
    const before = readJson(path.join(dir, 'manifest.json'));
    const input = { projectId, stagingDir: dir, kind: 'branch' as const, label: 'feature/x', branch: 'feature/x', productionUrl: 'http://fresh-docs.localhost:4000/' };
    const changes = await writePreviewInfo(t.ctx, input);
    expect(changes).toEqual({ added: [{ path: 'index', title: 'Home' }, { path: 'guides/a', title: 'guides/a' }], changed: [], removed: [] });

    const info = PreviewInfoSchema.parse(readJson(path.join(dir, '_quire/preview.json')));
    expect(info).toEqual({ kind: 'branch', label: 'feature/x', branch: 'feature/x', productionUrl: 'http://fresh-docs.localhost:4000/', changes });
    const after = readJson(path.join(dir, 'manifest.json'));
    expect(after).toEqual({ ...before, generated: [...(before.generated as string[]), '_quire/preview.json'] });

    // again on the same directory: the same file, listed once
    await writePreviewInfo(t.ctx, input);
    expect((readJson(path.join(dir, 'manifest.json')).generated as string[]).filter((f) => f === '_quire/preview.json')).toHaveLength(1);
    expect(fs.readdirSync(dir).filter((f) => f.endsWith('.tmp'))).toEqual([]);
  });

  it('compares pages by their manifest hash when both sides have one, else by their Markdown', async () => {
    const projectId = await createBareProject(t, 'hashes');
    await deployByHand(
      t,
      projectId,
      deploymentFiles([
        { path: 'same-hash', title: 'Same hash', markdown: 'old text', hash: 'h1' },
        { path: 'new-hash', title: 'New hash', markdown: 'same text', hash: 'h2' },
        { path: 'no-hash-same', title: 'No hash, same', markdown: 'unchanged' },
        { path: 'no-hash-edited', title: 'No hash, edited', markdown: 'before', hash: 'h4' },
        { path: 'gone', title: 'Gone', markdown: 'x' },
        { path: 'gated-gone', title: 'Gated and gone', markdown: 'x', audience: ['staff'] },
      ]),
    );
    // an older preview of another channel must not count as production
    await deployByHand(t, projectId, deploymentFiles([{ path: 'only-in-preview', title: 'P', markdown: 'p' }]), 'other');
    const dir = stage([
      { path: 'same-hash', title: 'Same hash', markdown: 'new text', hash: 'h1' },
      { path: 'new-hash', title: 'New hash', markdown: 'same text', hash: 'h2b' },
      { path: 'no-hash-same', title: 'No hash, same', markdown: 'unchanged', hash: 'whatever' },
      { path: 'no-hash-edited', title: 'No hash, edited', markdown: 'after' },
      { path: 'fresh', title: 'Fresh', markdown: 'f' },
    ]);
    const changes = await writePreviewInfo(t.ctx, { projectId, stagingDir: dir, kind: 'pull_request', label: '#7 Hashes', branch: 'hashes', pullRequest: 7, productionUrl: 'http://hashes-docs.localhost:4000/' });
    expect(changes).toEqual({
      added: [{ path: 'fresh', title: 'Fresh' }],
      changed: [
        { path: 'new-hash', title: 'New hash' },
        { path: 'no-hash-edited', title: 'No hash, edited' },
      ],
      removed: [{ path: 'gone', title: 'Gone' }],
    });
    expect(PreviewInfoSchema.parse(readJson(path.join(dir, '_quire/preview.json')))).toMatchObject({ kind: 'pull_request', pullRequest: 7, label: '#7 Hashes' });
  });

  it('names a preview by its review, pull request or branch', async () => {
    const projectId = await createBareProject(t, 'names');
    const base = { branch: 'feature/x', reviewId: null, pullRequest: null, pullRequestTitle: null };
    expect(await previewIdentityOf(t.ctx, base)).toEqual({ kind: 'branch', label: 'feature/x', branch: 'feature/x' });
    expect(await previewIdentityOf(t.ctx, { ...base, pullRequest: 12, pullRequestTitle: 'Add login docs' })).toEqual({
      kind: 'pull_request',
      label: '#12 Add login docs',
      branch: 'feature/x',
      pullRequest: 12,
    });
    const review = await t.ctx.db.prisma.review.create({
      data: { id: 'rev_names1', projectId, title: 'Fix the intro', status: 'open', source: 'changes', branch: 'main', baseCommit: 'a'.repeat(40) },
    });
    expect(await previewIdentityOf(t.ctx, { ...base, branch: 'main', reviewId: review.id })).toEqual({ kind: 'review', label: 'Fix the intro', branch: 'main' });
    // a review deleted meanwhile: the end of its id, never the raw id
    expect(await previewIdentityOf(t.ctx, { ...base, branch: 'main', reviewId: 'rev_gone4fT0aZ9qLm2x' })).toEqual({ kind: 'review', label: '…9qLm2x', branch: 'main' });
  });
});
