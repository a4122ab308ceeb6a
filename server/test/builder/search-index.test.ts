/**
 * Every build gives its deployment a search index under `_quire/search/` (builder/search-index.ts):
 * visible pages only, gated pages with their audience, and an incremental build takes the records
 * of the pages it did not render again from the live deployment.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { runBuild, type RunBuildResult } from '../../src/builder/pipeline';
import { closeRenderPool } from '../../src/builder/render-pool';
import { loadDeploymentSearchIndex, readDeploymentRecords, writeSearchIndexFiles } from '../../src/search/deployment-index';
import { localDeploymentFiles } from '../../src/storage/local-store';
import { buildSearchIndex } from '@quire/shared/search/index';
import { createFixtureRepo, type FixtureRepo } from '../helpers/git-repo';

const page = (title: string, body: string, extra = '') => `---\ntitle: ${title}\n${extra}---\n\n${body}\n`;
const FILES = {
  'docs.json': JSON.stringify({ name: 'Search Docs', navigation: { groups: [{ group: 'Start', pages: ['index', 'guides/webhooks', 'guides/partners'] }] } }),
  'index.mdx': page('Welcome', 'Start here.'),
  'guides/webhooks.mdx': page('Webhooks', 'Receive events.\n\n## Retry policy\n\nDeliveries are retried with exponential backoff.'),
  'guides/partners.mdx': page('Partner pricing', 'Resellers get a discount.', 'audience: partners\n'),
  'guides/secret.mdx': page('Secret plans', 'Unlisted roadmap about quantum teleportation.', 'hidden: true\n'),
};

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const c of cleanups.splice(0)) c();
});
afterAll(async () => {
  await closeRenderPool();
});

let seq = 0;
async function build(repo: FixtureRepo, dataDir: string, live?: RunBuildResult, logs: string[] = []): Promise<RunBuildResult> {
  return runBuild({
    projectId: 'prj_search',
    buildId: `bld_s${++seq}`,
    repoUrl: repo.url,
    branch: 'main',
    allowFileRepos: true,
    dataDir,
    siteUrl: 'http://search-docs.localhost:4000',
    signal: new AbortController().signal,
    log: (l) => logs.push(l),
    ...(live ? { previous: { commitSha: live.commitSha, localDir: live.outDir } } : {}),
  });
}

function fixture(): { repo: FixtureRepo; dataDir: string } {
  const repo = createFixtureRepo(undefined, { extraFiles: FILES });
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-search-'));
  cleanups.push(() => {
    repo.cleanup();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });
  return { repo, dataDir };
}

describe('search index of a build', () => {
  it('indexes visible pages by section, gated pages for their readers only, hidden pages never', async () => {
    const { repo, dataDir } = fixture();
    const logs: string[] = [];
    const result = await build(repo, dataDir, undefined, logs);
    expect(logs).toContainEqual(expect.stringMatching(/^✓ indexing search \(3 pages, \d+ sections, 0 unchanged, \d+ KB\)/));
    const index = (await loadDeploymentSearchIndex(localDeploymentFiles(result.outDir)))!;
    expect(index).not.toBeNull();
    expect(index.search({ q: 'exponential backoff', limit: 5 })[0]).toMatchObject({ path: 'guides/webhooks', section: 'Retry policy', anchor: 'retry-policy' });
    expect(index.search({ q: 'quantum teleportation', limit: 5 })).toEqual([]);
    expect(index.search({ q: 'resellers discount', limit: 5 })).toEqual([]);
    expect(index.search({ q: 'resellers discount', limit: 5, canRead: (tags) => tags.includes('partners') })[0]).toMatchObject({ path: 'guides/partners' });
    // the index files are not among the files the manifest tells hosting to serve
    const manifest = JSON.parse(fs.readFileSync(path.join(result.outDir, 'manifest.json'), 'utf8')) as { generated: string[] };
    expect(manifest.generated.some((f) => f.startsWith('_quire/search'))).toBe(false);
  });

  it('takes unchanged pages\' records from the live deployment and indexes a changed page\'s new text', async () => {
    const { repo, dataDir } = fixture();
    const live = await build(repo, dataDir);
    repo.commit({ 'guides/webhooks.mdx': page('Webhooks', 'Receive events.\n\n## Retry policy\n\nDeliveries are retried with a jittered schedule.') }, 'edit webhooks');
    const logs: string[] = [];
    const next = await build(repo, dataDir, live, logs);
    expect(logs).toContainEqual(expect.stringMatching(/^✓ indexing search \(3 pages, \d+ sections, 2 unchanged/));
    const index = (await loadDeploymentSearchIndex(localDeploymentFiles(next.outDir)))!;
    expect(index.search({ q: 'jittered', limit: 5 })[0]).toMatchObject({ path: 'guides/webhooks', section: 'Retry policy' });
    expect(index.search({ q: 'exponential', limit: 5 })).toEqual([]);
    expect(index.search({ q: 'welcome', limit: 5 })[0]).toMatchObject({ path: 'index' });
    const records = (await readDeploymentRecords(localDeploymentFiles(next.outDir)))!;
    expect([...records.keys()].sort()).toEqual(['guides/partners', 'guides/webhooks', 'index']);
    expect(records.get('guides/partners')!.audience).toEqual(['partners']);
  });

  it('answers null for a deployment without an index, and loads files written through a store writer', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-search-dep-'));
    cleanups.push(() => fs.rmSync(dir, { recursive: true, force: true }));
    fs.writeFileSync(path.join(dir, 'manifest.json'), '{}');
    expect(await loadDeploymentSearchIndex(localDeploymentFiles(dir))).toBeNull();
    const built = buildSearchIndex([{ path: 'a', title: 'Alpha page', text: 'Some words.' }]);
    const genDir = path.join(dir, '_quire/search/reindex/job1');
    fs.mkdirSync(genDir, { recursive: true });
    await writeSearchIndexFiles(built, async (name, body) => fs.writeFileSync(path.join(genDir, name), body));
    const index = (await loadDeploymentSearchIndex(localDeploymentFiles(dir), '_quire/search/reindex/job1'))!;
    expect(index.search({ q: 'alpha', limit: 1 })[0]).toMatchObject({ path: 'a' });
  });
});
