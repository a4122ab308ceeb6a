/**
 * An incremental build of a real Mintlify corpus gives exactly the site a full build of the same
 * commit gives (every file byte for byte, the manifest but its build id and date), after a page edit
 * and after a mixed push (a title change, an added page, a removed page).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runBuild, type RunBuildInput, type RunBuildResult } from '../../src/builder/pipeline';
import { closeRenderPool } from '../../src/builder/render-pool';
import type { WrittenManifest } from '../../src/deployments/manifest';
import { CORPUS_DIR } from '../helpers/corpus';
import { createFixtureRepo } from '../helpers/git-repo';

const corpusRoot = CORPUS_DIR;
const dataDirs: string[] = [];
afterAll(async () => {
  await closeRenderPool();
  for (const d of dataDirs) fs.rmSync(d, { recursive: true, force: true });
});

/** Every file of a deployment with its content; the manifest without what names the build. */
function siteFiles(dir: string): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (d: string, rel: string) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const r = rel ? `${rel}/${e.name}` : e.name;
      if (e.isDirectory()) walk(path.join(d, e.name), r);
      else out.set(r, fs.readFileSync(path.join(d, e.name)).toString('base64'));
    }
  };
  walk(dir, '');
  const manifest = JSON.parse(fs.readFileSync(path.join(dir, 'manifest.json'), 'utf8')) as Partial<WrittenManifest>;
  delete manifest.buildId;
  delete manifest.createdAt;
  out.set('manifest.json', JSON.stringify(manifest));
  return out;
}

describe('incremental builds of real corpora', () => {
  it.each(['pezzo', 'agentops'])('%s: the incremental site equals a full build of the same commit', async (name) => {
    const repo = createFixtureRepo(path.join(corpusRoot, name));
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-incr-corpus-'));
    dataDirs.push(dataDir);
    let n = 0;
    let live: RunBuildResult | undefined;
    const logs: string[] = [];
    const build = async (over: Partial<RunBuildInput> = {}) => {
      logs.length = 0;
      const res = await runBuild({
        projectId: 'prj_corpus',
        buildId: `bld_${++n}`,
        repoUrl: repo.url,
        branch: 'main',
        allowFileRepos: true,
        dataDir,
        siteUrl: 'http://corpus-docs.localhost:4000',
        signal: new AbortController().signal,
        log: (l) => logs.push(l),
        ...(live ? { previous: { commitSha: live.commitSha, localDir: live.outDir } } : {}),
        ...over,
      });
      return res;
    };
    const expectSameAsFull = async (incremental: RunBuildResult) => {
      expect(logs.find((l) => /^(incremental|full) build: \d+ of/.test(l))).toMatch(/^incremental build/);
      const full = await build({ force: true });
      expect(siteFiles(incremental.outDir)).toEqual(siteFiles(full.outDir));
      expect(incremental.warnings).toEqual(full.warnings);
      expect(incremental.lint).toEqual({ ...full.lint, fromCache: incremental.lint!.fromCache });
    };
    try {
      live = await build();
      const manifest = JSON.parse(fs.readFileSync(path.join(live.outDir, 'manifest.json'), 'utf8')) as WrittenManifest;
      const files = manifest.pages.map((p) => p.path).filter((p) => fs.existsSync(path.join(repo.path, `${p}.mdx`)));
      expect(files.length).toBeGreaterThan(3);
      const [edited, renamed, removed] = files.slice(1, 4).map((p) => `${p}.mdx`) as [string, string, string];
      const text = (f: string) => fs.readFileSync(path.join(repo.path, f), 'utf8');

      repo.commit({ [edited]: `${text(edited)}\n\nA paragraph added by the test, linking [home](/${manifest.home}).\n` }, 'edit a page');
      const afterEdit = await build();
      await expectSameAsFull(afterEdit);
      live = afterEdit;

      const renamedText = /^title:/m.test(text(renamed)) ? text(renamed).replace(/^title:.*$/m, 'title: "Renamed by the test"') : `---\ntitle: Renamed by the test\n---\n\n${text(renamed)}`;
      repo.commit({ [renamed]: renamedText, [removed]: null, 'added-by-test.mdx': '---\ntitle: Added\n---\n\nA new page. See [the renamed one](/' + renamed.replace(/\.mdx$/, '') + ').\n' }, 'mixed push');
      const afterMixed = await build();
      expect(fs.readFileSync(path.join(afterMixed.outDir, renamed.replace(/\.mdx$/, '.html')), 'utf8')).toContain('Renamed by the test');
      expect(fs.existsSync(path.join(afterMixed.outDir, removed.replace(/\.mdx$/, '.html')))).toBe(false);
      await expectSameAsFull(afterMixed);
    } finally {
      repo.cleanup();
    }
  }, 300_000);
});
