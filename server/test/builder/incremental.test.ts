/**
 * Incremental builds (builder/incremental.ts): a build that replaces a live deployment re-renders only
 * what a push changed, shares every unchanged file with the live deployment (hard links, never a
 * change in place), and still serves a complete, correct site.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { BuildStateMemory } from '../../src/builder/build-state';
import { runBuild, type RunBuildInput, type RunBuildResult } from '../../src/builder/pipeline';
import { closeRenderPool } from '../../src/builder/render-pool';
import type { WrittenManifest } from '../../src/deployments/manifest';
import { DeploymentSite } from '../../src/sites/deployment-site';
import { loadDeploymentSearchIndex } from '../../src/search/deployment-index';
import { localDeploymentFiles } from '../../src/storage/local-store';
import { createFixtureRepo, type FixtureRepo } from '../helpers/git-repo';

const nav = (group: string) => ({
  name: 'Fixture Docs',
  navigation: { groups: [{ group, pages: ['index', 'guides/alpha', 'guides/beta', 'guides/gamma'] }] },
});
const page = (title: string, body: string) => `---\ntitle: ${title}\n---\n\n${body}\n`;
const FILES = {
  'docs/docs.json': JSON.stringify(nav('Start')),
  'docs/index.mdx': page('Welcome', 'Start with [alpha](/guides/alpha). The the docs.'),
  'docs/guides/alpha.mdx': page('Alpha', 'Alpha text. Next: [the new page](/guides/delta).'),
  'docs/guides/beta.mdx': page('Beta', 'Beta text.\n\n![Logo](/images/logo.png)'),
  'docs/guides/gamma.mdx': page('Gamma', 'Gamma text.'),
  'docs/images/logo.png': 'PNG',
};

/** One project: its repository, data directory and the builds so far (the last one deployed is "live"). */
interface Fixture {
  repo: FixtureRepo;
  dataDir: string;
  live: RunBuildResult;
  logs: string[];
  build(over?: Partial<RunBuildInput>): Promise<RunBuildResult>;
}

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const c of cleanups.splice(0)) c();
});
afterAll(async () => {
  await closeRenderPool();
});

let seq = 0;
/** A repository with FILES, built once (cold); `build` runs the next build against the live deployment and makes it live. */
async function fixture(options: { memory?: BuildStateMemory } = {}): Promise<Fixture> {
  const repo = createFixtureRepo(undefined, { extraFiles: FILES });
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-incr-'));
  cleanups.push(() => {
    repo.cleanup();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });
  const logs: string[] = [];
  const f: Fixture = {
    repo,
    dataDir,
    logs,
    live: undefined as unknown as RunBuildResult,
    async build(over = {}) {
      logs.length = 0;
      const result = await runBuild({
        projectId: 'prj_incr',
        buildId: `bld_${++seq}`,
        repoUrl: repo.url,
        branch: 'main',
        allowFileRepos: true,
        dataDir,
        siteUrl: 'http://incr-docs.localhost:4000',
        signal: new AbortController().signal,
        log: (l) => logs.push(l),
        ...(f.live ? { previous: { commitSha: f.live.commitSha, localDir: f.live.outDir } } : {}),
        ...(options.memory ? { stateMemory: options.memory } : {}),
        ...over,
      });
      if (!result.noChanges) f.live = result;
      return result;
    },
  };
  await f.build();
  return f;
}

/** What the deployment serves at a site path: status and body text. */
async function served(outDir: string, sitePath: string): Promise<{ status: number; text: string }> {
  const site = await DeploymentSite.load(outDir);
  const answer = await site.answer(sitePath, false);
  if (answer.kind !== 'file') return { status: 0, text: '' };
  return { status: answer.status, text: answer.file.identity.body.toString('utf8') };
}

/** The page paths a search of the deployment's index (its delta laid over it, as site hosting loads it) answers. */
async function searchPaths(outDir: string, q: string): Promise<string[]> {
  const index = await loadDeploymentSearchIndex(localDeploymentFiles(outDir));
  if (!index) throw new Error(`${outDir} has no search index`);
  return [...new Set(index.search({ q, limit: 10 }).map((h) => h.path))];
}

const inode = (dir: string, rel: string) => fs.statSync(path.join(dir, rel)).ino;
const manifestOf = (dir: string) => JSON.parse(fs.readFileSync(path.join(dir, 'manifest.json'), 'utf8')) as WrittenManifest;

/** Every file of a directory with its content hash, inode and modification time. */
function snapshot(dir: string): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (d: string, rel: string) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const r = rel ? `${rel}/${e.name}` : e.name;
      if (e.isDirectory()) walk(path.join(d, e.name), r);
      else {
        const abs = path.join(d, e.name);
        const st = fs.statSync(abs);
        out.set(r, `${createHash('sha256').update(fs.readFileSync(abs)).digest('hex')} ${st.ino} ${st.mtimeMs}`);
      }
    }
  };
  walk(dir, '');
  return out;
}

describe('incremental builds', () => {
  it('serves a changed page\'s new text while unchanged files are the live deployment\'s own (same inode), which stays as it was', async () => {
    const f = await fixture();
    const before = f.live;
    const liveFiles = snapshot(before.outDir);
    f.repo.commit({ 'docs/guides/beta.mdx': page('Beta', 'Beta text, edited.\n\n![Logo](/images/logo.png)') }, 'edit beta');
    const after = await f.build();

    expect((await served(after.outDir, 'guides/beta')).text).toContain('Beta text, edited.');
    expect((await served(before.outDir, 'guides/beta')).text).not.toContain('edited');
    for (const rel of ['guides/alpha.html', 'guides/alpha.md', 'index.html', 'guides/gamma.html', 'images/logo.png', '404.html']) {
      expect(inode(after.outDir, rel), rel).toBe(inode(before.outDir, rel));
    }
    expect(inode(after.outDir, 'guides/beta.html')).not.toBe(inode(before.outDir, 'guides/beta.html'));
    expect(snapshot(before.outDir)).toEqual(liveFiles);
    expect(f.logs.some((l) => l.startsWith('incremental build: 1 of 4 pages rendered, 3 pages\' documents shared with the previous deployment (bld_' + before.outDir.split('_').pop() + ')'))).toBe(true);
    expect(f.logs).toContainEqual(expect.stringMatching(/^✓ rendering pages \(4 pages, 0 from cache, 3 unchanged\) \d+ ms$/));
  });

  it('a one-page push serves the new text, finds its words and lists it in llms-full.txt in the same deploy; untouched pages stay byte for byte', async () => {
    const f = await fixture();
    f.repo.commit({ 'docs/guides/beta.mdx': page('Beta', 'Beta text about obsidianite.') }, 'beta: obsidianite');
    const before = await f.build(); // indexes every page: the base a delta is laid over
    f.repo.commit({ 'docs/guides/beta.mdx': page('Beta', 'Beta text about zanzibarite crystals.') }, 'beta: zanzibarite');
    const after = await f.build({ carrySearchIndex: true });
    expect(f.logs).toContainEqual(expect.stringMatching(/^✓ indexing search \(4 pages: the previous deployment's index shared, 1 pages \(\d+ sections\) laid over it\) \d+ ms$/));

    expect((await served(after.outDir, 'guides/beta')).text).toContain('zanzibarite crystals');
    for (const rel of ['guides/alpha.html', 'guides/gamma.html', 'index.html', 'guides/alpha.md', 'sitemap.xml']) {
      expect(fs.readFileSync(path.join(after.outDir, rel)).equals(fs.readFileSync(path.join(before.outDir, rel))), rel).toBe(true);
    }
    expect(await searchPaths(after.outDir, 'zanzibarite')).toEqual(['guides/beta']);
    expect(await searchPaths(after.outDir, 'obsidianite')).toEqual([]);
    expect(inode(after.outDir, '_quire/search/records.json')).toBe(inode(before.outDir, '_quire/search/records.json'));
    const llmsFull = fs.readFileSync(path.join(after.outDir, 'llms-full.txt'), 'utf8');
    expect(llmsFull).toContain('Beta text about zanzibarite crystals.');
    expect(llmsFull).not.toContain('obsidianite');

    // a second push lays its page over the same base; the first push's page stays found
    f.repo.commit({ 'docs/guides/gamma.mdx': page('Gamma', 'Gamma text about quokkalith.') }, 'gamma: quokkalith');
    const second = await f.build({ carrySearchIndex: true });
    expect(await searchPaths(second.outDir, 'quokkalith')).toEqual(['guides/gamma']);
    expect(await searchPaths(second.outDir, 'zanzibarite')).toEqual(['guides/beta']);
    expect(inode(second.outDir, '_quire/search/records.json')).toBe(inode(before.outDir, '_quire/search/records.json'));

    // the spliced llms-full.txt and its page ranges are what a build writing everything anew gives
    const spliced = ['llms-full.txt', '_quire/page-entries.json'].map((rel) => fs.readFileSync(path.join(second.outDir, rel), 'utf8'));
    const full = await f.build({ force: true });
    expect(['llms-full.txt', '_quire/page-entries.json'].map((rel) => fs.readFileSync(path.join(full.outDir, rel), 'utf8'))).toEqual(spliced);
    expect(await searchPaths(full.outDir, 'zanzibarite')).toEqual(['guides/beta']);
  });

  it('records each page\'s Markdown hash in the manifest', async () => {
    const f = await fixture();
    for (const p of manifestOf(f.live.outDir).pages) {
      const md = fs.readFileSync(path.join(f.live.outDir, `${p.path}.md`), 'utf8');
      expect(p.hash).toBe(createHash('sha256').update(md).digest('hex'));
    }
  });

  it('removes a deleted page from the new deployment, and a page added later is served and fixes the links to it', async () => {
    const f = await fixture();
    f.repo.commit({ 'docs/guides/gamma.mdx': null }, 'remove gamma');
    const removed = await f.build();
    expect(fs.existsSync(path.join(removed.outDir, 'guides/gamma.html'))).toBe(false);
    expect(manifestOf(removed.outDir).pages.map((p) => p.path)).not.toContain('guides/gamma');
    expect((await served(removed.outDir, 'guides/gamma')).status).toBe(404);
    expect(removed.warnings).toContainEqual(expect.objectContaining({ kind: 'missing-page', message: expect.stringContaining('guides/gamma') }));
    expect(removed.warnings).toContainEqual(expect.objectContaining({ kind: 'broken-link', file: 'guides/alpha.mdx', message: '/guides/delta' }));
    expect(removed.lint!.pages.find((p) => p.path === 'guides/alpha.mdx')!.findings.map((x) => x.ruleId)).toContain('links/broken');

    f.repo.commit({ 'docs/guides/delta.mdx': page('Delta', 'The new page.') }, 'add delta');
    const added = await f.build();
    expect((await served(added.outDir, 'guides/delta')).text).toContain('The new page.');
    // alpha is unchanged, but its link now reaches a page: the link check and the linter say so
    expect(added.warnings.filter((w) => w.kind === 'broken-link')).toEqual([]);
    expect(added.lint!.pages.find((p) => p.path === 'guides/alpha.mdx')!.findings.map((x) => x.ruleId)).not.toContain('links/broken');
    expect(inode(added.outDir, 'guides/alpha.html')).toBe(inode(removed.outDir, 'guides/alpha.html'));
  });

  it('rewrites every page when a title changes, since every sidebar shows it', async () => {
    const f = await fixture();
    const before = f.live;
    f.repo.commit({ 'docs/guides/gamma.mdx': page('Gamma Renamed', 'Gamma text.') }, 'rename gamma');
    const after = await f.build();
    expect((await served(after.outDir, 'guides/alpha')).text).toContain('Gamma Renamed');
    expect((await served(before.outDir, 'guides/alpha')).text).not.toContain('Gamma Renamed');
    expect(inode(after.outDir, 'guides/alpha.html')).not.toBe(inode(before.outDir, 'guides/alpha.html'));
    // the Markdown of unchanged pages does not show the sidebar: still shared
    expect(inode(after.outDir, 'guides/alpha.md')).toBe(inode(before.outDir, 'guides/alpha.md'));
    expect(f.logs.some((l) => l.startsWith('incremental build: 1 of 4 pages rendered, 0 pages\' documents shared with the previous deployment (bld_' + before.outDir.split('_').pop() + ')'))).toBe(true);
  });

  it('rebuilds everything when docs.json changes', async () => {
    const f = await fixture();
    const before = f.live;
    f.repo.commit({ 'docs/docs.json': JSON.stringify(nav('Renamed group')) }, 'rename the group');
    const after = await f.build();
    expect(f.logs.some((l) => l.startsWith('full build: docs.json changed'))).toBe(true);
    expect(f.logs).toContainEqual(expect.stringMatching(/^✓ rendering pages \(4 pages, 4 from cache\) \d+ ms$/));
    for (const p of ['index', 'guides/alpha', 'guides/beta', 'guides/gamma']) {
      expect((await served(after.outDir, p)).text).toContain('Renamed group');
      expect(inode(after.outDir, `${p}.html`)).not.toBe(inode(before.outDir, `${p}.html`));
    }
    // files whose content cannot have changed are still shared
    expect(inode(after.outDir, 'images/logo.png')).toBe(inode(before.outDir, 'images/logo.png'));
  });

  it('rebuilds and rewrites everything with force, even the same commit', async () => {
    const f = await fixture();
    const before = f.live;
    const after = await f.build({ force: true });
    expect(after.noChanges).toBeUndefined();
    expect(after.commitSha).toBe(before.commitSha);
    expect(f.logs.some((l) => l.startsWith('full build: forced'))).toBe(true);
    expect(f.logs).toContainEqual(expect.stringMatching(/^✓ rendering pages \(4 pages, 0 from cache\) \d+ ms$/));
    expect(f.logs).toContainEqual(expect.stringMatching(/^✓ linting pages \(.* of 4 pages, 0 from cache\) \d+ ms$/));
    const shared = [...snapshot(after.outDir).keys()].filter((rel) => rel !== 'manifest.json' && inode(after.outDir, rel) === inode(before.outDir, rel));
    expect(shared).toEqual([]);
  });

  it('answers noChanges for the commit the live deployment was built from, building nothing', async () => {
    const f = await fixture();
    const result = await f.build();
    expect(result).toMatchObject({ noChanges: true, commitSha: f.live.commitSha, commitMessage: 'Initial docs' });
    expect(f.logs.some((l) => l.includes('no changes'))).toBe(true);
    expect(f.logs.some((l) => l.startsWith('✓ rendering pages'))).toBe(false);
    expect(fs.existsSync(result.outDir)).toBe(false);
  });

  it('keeps a lint report of every page, carrying the findings of pages it did not lint again', async () => {
    const f = await fixture();
    const first = f.live.lint!;
    expect(first.pages.find((p) => p.path === 'index.mdx')!.findings.map((x) => x.ruleId)).toContain('prose/repeated-words');
    f.repo.commit({ 'docs/guides/gamma.mdx': page('Gamma', 'Gamma text, edited.') }, 'edit gamma');
    const after = await f.build();
    expect(after.lint!.pages.map((p) => p.path)).toEqual(['guides/alpha.mdx', 'guides/beta.mdx', 'guides/gamma.mdx', 'index.mdx']);
    expect(after.lint!.fromCache).toBe(3);
    expect(after.lint!.pages.find((p) => p.path === 'index.mdx')).toEqual(first.pages.find((p) => p.path === 'index.mdx'));
    expect(after.lint!.counts).toEqual(first.counts);
  });

  it('takes unchanged pages\' findings from the lint cache in a full build, relinting the pages whose links a removed or added page changes', async () => {
    const f = await fixture();
    const first = f.live.lint!;
    const ruleIds = (r: RunBuildResult, file: string) => r.lint!.pages.find((p) => p.path === file)!.findings.map((x) => x.ruleId);
    expect(ruleIds(f.live, 'index.mdx')).not.toContain('links/broken');
    expect(ruleIds(f.live, 'guides/alpha.mdx')).toContain('links/broken');

    // docs.json changes (a full build) and alpha goes: index is unchanged, but its link to alpha is broken now
    f.repo.commit({ 'docs/docs.json': JSON.stringify(nav('Renamed group')), 'docs/guides/alpha.mdx': null }, 'remove alpha');
    const removed = await f.build();
    expect(f.logs.some((l) => l.startsWith('full build: docs.json changed'))).toBe(true);
    expect(ruleIds(removed, 'index.mdx')).toContain('links/broken');
    expect(removed.lint!.pages.map((p) => p.path)).toEqual(['guides/beta.mdx', 'guides/gamma.mdx', 'index.mdx']);
    expect(removed.lint!.fromCache).toBe(2); // beta and gamma
    expect(f.logs).toContainEqual(expect.stringMatching(/^✓ linting pages \(.* of 3 pages, 2 from cache\) \d+ ms$/));

    // alpha comes back in another full build: index's link reaches a page again, the others stay cached
    f.repo.commit({ 'docs/docs.json': JSON.stringify(nav('Start')), 'docs/guides/alpha.mdx': page('Alpha', 'Alpha text. Next: [the new page](/guides/delta).') }, 'alpha back');
    const back = await f.build();
    expect(ruleIds(back, 'index.mdx')).not.toContain('links/broken');
    expect(ruleIds(back, 'guides/alpha.mdx')).toContain('links/broken');
    expect(back.lint!.fromCache).toBe(2); // beta and gamma (alpha's entry went when alpha did)
    expect(back.lint!.counts).toEqual(first.counts);
  });

  it('uses the webhook\'s changed files when the previous commit is not in the repository cache', async () => {
    const f = await fixture();
    const before = f.live;
    fs.rmSync(path.join(f.dataDir, 'repos'), { recursive: true, force: true });
    f.repo.commit({ 'docs/guides/alpha.mdx': page('Alpha', 'Alpha, pushed. Next: [the new page](/guides/delta).') }, 'push alpha');
    const after = await f.build({ changedFiles: ['docs/guides/alpha.mdx'] });
    expect(f.logs).toContainEqual(expect.stringMatching(/is not in the repository cache; using the webhook's list/));
    expect((await served(after.outDir, 'guides/alpha')).text).toContain('Alpha, pushed.');
    expect(inode(after.outDir, 'guides/beta.html')).toBe(inode(before.outDir, 'guides/beta.html'));
  });

  it('starts from the state the previous build left in memory, or on disk after a restart', async () => {
    const f = await fixture({ memory: new BuildStateMemory() });
    fs.rmSync(path.join(f.dataDir, 'cache', 'prj_incr', 'state'), { recursive: true, force: true });
    f.repo.commit({ 'docs/guides/beta.mdx': page('Beta', 'Beta from memory.') }, 'edit beta');
    await f.build();
    expect(f.logs.some((l) => l.startsWith('incremental build: 1 of 4 pages rendered'))).toBe(true);

    f.repo.commit({ 'docs/guides/beta.mdx': page('Beta', 'Beta from disk.') }, 'edit beta again');
    const fromDisk = await f.build({ stateMemory: new BuildStateMemory() });
    expect(f.logs.some((l) => l.startsWith('incremental build: 1 of 4 pages rendered'))).toBe(true);
    expect((await served(fromDisk.outDir, 'guides/beta')).text).toContain('Beta from disk.');
  });

  it('writes only the state shards a change touched', async () => {
    const f = await fixture();
    const blobs = path.join(f.dataDir, 'cache', 'prj_incr', 'state', 'blobs');
    const before = new Set(fs.readdirSync(blobs));
    f.repo.commit({ 'docs/guides/beta.mdx': page('Beta', 'Beta text, edited.') }, 'edit beta');
    await f.build();
    const added = fs.readdirSync(blobs).filter((b) => !before.has(b));
    expect(added).toHaveLength(1);
  });

  it('publishes a changed image anew, ignores changes outside the docs folder, and rebuilds everything for a snippet', async () => {
    const f = await fixture();
    const first = f.live;
    f.repo.commit({ 'docs/images/logo.png': 'PNG2', 'src/app.ts': 'export {};\n' }, 'new logo and code');
    const image = await f.build();
    expect(f.logs.some((l) => l.startsWith('incremental build: 0 of 4 pages rendered, 4 pages\' documents shared with the previous deployment (bld_' + first.outDir.split('_').pop() + ')'))).toBe(true);
    expect(fs.readFileSync(path.join(image.outDir, 'images/logo.png'), 'utf8')).toBe('PNG2');
    expect(fs.readFileSync(path.join(first.outDir, 'images/logo.png'), 'utf8')).toBe('PNG');
    expect(inode(image.outDir, 'guides/beta.html')).toBe(inode(first.outDir, 'guides/beta.html'));

    f.repo.commit({ 'docs/snippets/note.mdx': 'A note.' }, 'add a snippet');
    await f.build();
    expect(f.logs.some((l) => l.startsWith('full build: the snippet snippets/note.mdx changed'))).toBe(true);
  });

  it('leaves the live deployment as it was when a build fails', async () => {
    const f = await fixture();
    const live = snapshot(f.live.outDir);
    f.repo.commit({ 'docs/guides/beta.mdx': page('Beta', '<Broken') }, 'break beta');
    await expect(f.build()).rejects.toThrow(/guides\/beta\.mdx/);
    expect(snapshot(f.live.outDir)).toEqual(live);
  });

  it('builds everything anew when a file of the live deployment has gone missing', async () => {
    const f = await fixture();
    fs.rmSync(path.join(f.live.outDir, 'guides/alpha.md'));
    f.repo.commit({ 'docs/guides/beta.mdx': page('Beta', 'Beta text, edited.') }, 'edit beta');
    const after = await f.build();
    expect(f.logs.some((l) => l.startsWith('sharing files with the live deployment failed'))).toBe(true);
    expect(f.logs.some((l) => l.startsWith('full build: no live deployment to start from'))).toBe(true);
    expect(fs.readFileSync(path.join(after.outDir, 'guides/alpha.md'), 'utf8')).toContain('Alpha text.');
    expect((await served(after.outDir, 'guides/beta')).text).toContain('Beta text, edited.');
  });
});
