import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runBuild } from '../../src/builder/pipeline';
import { closeRenderPool } from '../../src/builder/render-pool';
import type { WrittenManifest } from '../../src/deployments/manifest';
import { CORPUS_DIR } from '../helpers/corpus';
import { createFixtureRepo } from '../helpers/git-repo';

/**
 * The three real Mintlify corpora (vendored in fixtures/corpora) build through runBuild from a
 * temporary git repository without failing. Slow (hundreds of MDX pages): this is the one file for it.
 */
const corpusRoot = CORPUS_DIR;
const corpora = [
  { name: 'pezzo', minPages: 20 },
  { name: 'agentops', minPages: 50 },
  { name: 'trigger-dev', minPages: 300 },
];

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-corpora-'));
afterAll(async () => {
  await closeRenderPool();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe('real corpora', () => {
  it.each(corpora)('$name builds with warnings but no error', async ({ name, minPages }) => {
    // a missing corpus is a failure, never a silent pass: the corpora come with shared/ beside the repository
    expect(fs.existsSync(path.join(corpusRoot, name, `${name === 'trigger-dev' ? 'docs' : 'mint'}.json`)), `${corpusRoot}/${name} is missing`).toBe(true);
    const repo = createFixtureRepo(path.join(corpusRoot, name));
    try {
      const log: string[] = [];
      const res = await runBuild({
        projectId: `prj_${name.replace(/-/g, '_')}`,
        buildId: 'bld_1',
        repoUrl: repo.url,
        branch: 'main',
        allowFileRepos: true,
        dataDir,
        siteUrl: `http://${name}-docs.localhost:4000`,
        signal: new AbortController().signal,
        log: (l) => log.push(l),
      });
      expect(res.pages).toBeGreaterThanOrEqual(minPages);
      const manifest = JSON.parse(fs.readFileSync(path.join(res.outDir, 'manifest.json'), 'utf8')) as WrittenManifest;
      expect(manifest.pages.some((p) => p.path === manifest.home)).toBe(true);
      expect(fs.existsSync(path.join(res.outDir, `${manifest.home}.html`))).toBe(true);
      expect(fs.readFileSync(path.join(res.outDir, 'llms.txt'), 'utf8').split('\n').filter((l) => l.startsWith('- [')).length).toBeGreaterThan(10);
      // every step is logged once (linting, checking links, writing and indexing run alongside, in any order)
      expect(log.filter((l) => l.startsWith('✓ ')).map((l) => l.replace(/^✓ ([a-z ]+).*$/, '$1').trim()).sort()).toEqual([
        'fetching repository', 'loading configuration', 'rendering pages', 'assembling navigation', 'comparing links',
        'linting pages', 'checking links', 'writing site', 'indexing search', 'saving build state',
      ].sort());
      expect(log.some((l) => l.startsWith('✓ indexing search'))).toBe(true);
      expect(fs.existsSync(path.join(res.outDir, '_quire/search'))).toBe(true);
    } finally {
      repo.cleanup();
    }
  }, 900_000);
});
