import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AbortError, BuildError } from '../../src/builder/errors';
import { runBuild, type RunBuildInput } from '../../src/builder/pipeline';
import { pruneDeployments } from '../../src/builder/prune';
import { closeRenderPool } from '../../src/builder/render-pool';
import type { WrittenManifest } from '../../src/deployments/manifest';
import { createFixtureRepo, type FixtureRepo } from '../helpers/git-repo';

const DOCS_JSON = JSON.stringify({
  name: 'Fixture Docs',
  theme: 'mint',
  colors: { primary: '#2255aa' },
  navigation: { groups: [{ group: 'Start', pages: ['index', 'guides/setup', 'guides/missing', 'guides/setup'] }] },
  redirects: [{ source: '/old-setup', destination: '/guides/setup' }],
});

let dataDir: string;
let repo: FixtureRepo;
const logs: string[] = [];
const input = (over: Partial<RunBuildInput> = {}): RunBuildInput => ({
  projectId: 'prj_fixture',
  buildId: `bld_${Math.random().toString(36).slice(2, 10)}`,
  repoUrl: repo.url,
  branch: 'main',
  allowFileRepos: true,
  dataDir,
  siteUrl: 'http://fixture-docs.localhost:4000',
  signal: new AbortController().signal,
  log: (l) => logs.push(l),
  ...over,
});

beforeAll(() => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-data-'));
  repo = createFixtureRepo(undefined, {
    message: 'Add docs',
    extraFiles: {
      'package.json': '{}',
      'docs/docs.json': DOCS_JSON,
      'docs/index.mdx': '---\ntitle: Welcome\ndescription: Start here.\n---\n\nRead the [setup guide](/guides/setup).\n\n<Mystery>inside</Mystery>\n',
      'docs/guides/setup.mdx': '---\ntitle: Setup\n---\n\nimport Hello from "/snippets/hello.mdx"\n\n<Hello />\n\nLine\n\nSee [nowhere](/nowhere).\n\n![Logo](/images/logo.png)\n',
      'docs/snippets/hello.mdx': 'Hello from a snippet.',
      'docs/images/logo.png': 'PNG',
    },
  });
});
afterAll(async () => {
  await closeRenderPool();
  repo.cleanup();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe('runBuild', () => {
  it('builds a docs folder of a monorepo into a deployment directory, logging steps and warnings', async () => {
    logs.length = 0;
    const res = await runBuild(input({ buildId: 'bld_first' }));
    expect(res.outDir).toBe(path.join(dataDir, 'sites', 'prj_fixture', 'bld_first'));
    expect(res.commitSha).toBe(repo.headSha());
    expect(res.commitMessage).toBe('Add docs');
    expect(res.pages).toBe(2);
    const manifest = JSON.parse(fs.readFileSync(path.join(res.outDir, 'manifest.json'), 'utf8')) as WrittenManifest;
    expect(manifest.home).toBe('index');
    expect(manifest.pages.map((p) => p.path).sort()).toEqual(['guides/setup', 'index']);
    expect(manifest.redirects).toEqual([{ source: '/old-setup', destination: '/guides/setup', permanent: true }]);
    expect(fs.readFileSync(path.join(res.outDir, 'guides/setup.html'), 'utf8')).toContain('Hello from a snippet.');
    expect(fs.readFileSync(path.join(res.outDir, 'guides/setup.md'), 'utf8')).toContain('# Setup');
    expect(fs.existsSync(path.join(res.outDir, 'images/logo.png'))).toBe(true);
    expect(fs.existsSync(path.join(res.outDir, 'snippets'))).toBe(false);

    const kinds = res.warnings.map((w) => w.kind).sort();
    expect(kinds).toEqual(expect.arrayContaining(['broken-link', 'duplicate-nav-entry', 'missing-page', 'unknown-component']));
    expect(logs).toContain('warning [broken-link] guides/setup.mdx:11 /nowhere');
    // every step of the build names itself in a timing line
    const steps = ['fetching repository', 'loading configuration', 'rendering pages', 'assembling navigation', 'comparing links', 'linting pages'];
    for (const stepName of [...steps, 'checking links', 'writing site', 'indexing search', 'saving build state']) {
      expect(logs.some((l) => new RegExp(`^✓ ${stepName}( \\(.*\\))? \\d+ ms$`).test(l))).toBe(true);
    }
    expect(logs).toContainEqual(expect.stringMatching(/^✓ rendering pages \(2 pages, 0 from cache\) \d+ ms$/));
  });

  it('reuses unchanged pages from the cache and re-renders a changed one', async () => {
    repo.commit({ 'docs/index.mdx': '---\ntitle: Welcome back\n---\n\nChanged.\n' }, 'Edit home');
    logs.length = 0;
    const res = await runBuild(input());
    expect(logs).toContainEqual(expect.stringMatching(/^✓ rendering pages \(2 pages, 1 from cache\) \d+ ms$/));
    expect(fs.readFileSync(path.join(res.outDir, 'index.html'), 'utf8')).toContain('Changed.');
    // a snippet change invalidates the page that imports it
    repo.commit({ 'docs/snippets/hello.mdx': 'Hello again.' }, 'Edit snippet');
    logs.length = 0;
    const again = await runBuild(input());
    expect(logs).toContainEqual(expect.stringMatching(/^✓ rendering pages \(2 pages, 1 from cache\) \d+ ms$/));
    expect(fs.readFileSync(path.join(again.outDir, 'guides/setup.html'), 'utf8')).toContain('Hello again.');
  });

  it('builds a given commit', async () => {
    const first = repo.headSha();
    repo.commit({ 'docs/guides/setup.mdx': '# Newer' }, 'Newer');
    const res = await runBuild(input({ commitSha: first }));
    expect(res.commitSha).toBe(first);
    expect(fs.readFileSync(path.join(res.outDir, 'guides/setup.html'), 'utf8')).toContain('Hello again.');
  });

  it('fails on a page that cannot be parsed, naming file and line, and leaves no directory', async () => {
    const broken = createFixtureRepo(undefined, {
      extraFiles: { 'docs.json': JSON.stringify({ name: 'B', theme: 'mint', colors: { primary: '#000000' }, navigation: { pages: ['index', 'bad'] } }), 'index.mdx': '# Fine', 'bad.mdx': '# Bad\n\nText\n\n<Card title="x">\n\nunclosed\n' },
    });
    try {
      const attempt = runBuild(input({ repoUrl: broken.url, buildId: 'bld_broken', projectId: 'prj_broken' }));
      await expect(attempt).rejects.toBeInstanceOf(BuildError);
      await expect(attempt).rejects.toThrow(/^bad\.mdx:\d+/);
      expect(fs.existsSync(path.join(dataDir, 'sites', 'prj_broken', 'bld_broken'))).toBe(false);
    } finally {
      broken.cleanup();
    }
  });

  it('refuses a local repository when file repos are not allowed', async () => {
    await expect(runBuild(input({ allowFileRepos: false }))).rejects.toThrow(/QUIRE_ALLOW_FILE_REPOS/);
  });

  it('stops with AbortError when cancelled and removes the unfinished directory', async () => {
    const ac = new AbortController();
    const attempt = runBuild(input({ buildId: 'bld_cancel', signal: ac.signal, log: (l) => l.startsWith('✓ fetching') && ac.abort() }));
    await expect(attempt).rejects.toBeInstanceOf(AbortError);
    expect(fs.existsSync(path.join(dataDir, 'sites', 'prj_fixture', 'bld_cancel'))).toBe(false);
  });

  it('prunes finished deployments that are not kept', async () => {
    const sites = path.join(dataDir, 'sites', 'prj_fixture');
    fs.mkdirSync(path.join(sites, 'bld_unfinished'), { recursive: true });
    const removed = await pruneDeployments(dataDir, 'prj_fixture', ['bld_first', path.join(sites, 'nonexistent')]);
    expect(removed.length).toBeGreaterThan(0);
    expect(fs.readdirSync(sites).sort()).toEqual(['bld_first', 'bld_unfinished']);
  });
});
