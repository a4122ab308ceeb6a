import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_BUILD_LIMITS, type BuildLimits } from '../../src/builder/build-limits';
import { BuildError } from '../../src/builder/errors';
import { runBuild, type RunBuildInput } from '../../src/builder/pipeline';
import { closeRenderPool } from '../../src/builder/render-pool';
import { createFixtureRepo, type FixtureRepo } from '../helpers/git-repo';

// A build reads only its checkout and never exhausts the server (decisions.md section 10).

let dataDir: string;
let outside: string;
const repos: FixtureRepo[] = [];
const logs: string[] = [];

const DOCS_JSON = JSON.stringify({ name: 'Limits', navigation: { groups: [{ group: 'Start', pages: ['index'] }] } });

function repoWith(files: Record<string, string | Buffer>, sourceDir?: string): FixtureRepo {
  const repo = createFixtureRepo(sourceDir, { extraFiles: files });
  repos.push(repo);
  return repo;
}

const input = (repo: FixtureRepo, limits: Partial<BuildLimits> = {}): RunBuildInput => ({
  projectId: `prj_${crypto.randomBytes(5).toString('hex')}`,
  buildId: `bld_${crypto.randomBytes(5).toString('hex')}`,
  repoUrl: repo.url,
  branch: 'main',
  allowFileRepos: true,
  dataDir,
  siteUrl: 'http://limits-docs.localhost:4000',
  signal: new AbortController().signal,
  log: (l) => logs.push(l),
  limits: { ...DEFAULT_BUILD_LIMITS, ...limits },
});

async function failure(promise: Promise<unknown>): Promise<BuildError> {
  const err = await promise.then(() => undefined, (e: unknown) => e);
  expect(err).toBeInstanceOf(BuildError);
  return err as BuildError;
}

beforeAll(() => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-limits-'));
  outside = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-outside-'));
  fs.writeFileSync(path.join(outside, 'docs.json'), DOCS_JSON);
  fs.writeFileSync(path.join(outside, 'index.mdx'), '# Secret\n\nHOST-SECRET-TEXT\n');
});
afterAll(async () => {
  await closeRenderPool();
  for (const r of repos) r.cleanup();
  fs.rmSync(dataDir, { recursive: true, force: true });
  fs.rmSync(outside, { recursive: true, force: true });
});

describe('a build reads only its checkout', () => {
  it('does not publish a docs folder that is a symlink to a directory outside the repository, and names the link', async () => {
    const src = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-src-'));
    fs.symlinkSync(outside, path.join(src, 'docs'));
    const repo = repoWith({ 'README.md': '# repo\n' }, src);
    fs.rmSync(src, { recursive: true, force: true });
    logs.length = 0;
    const build = input(repo);
    await runBuild(build).catch(() => undefined); // the root's README alone may or may not make a site
    expect(logs.join('\n')).toMatch(/warning \[symlink\] docs symbolic link docs points outside the repository; removed/);
    // nothing of the outside directory reached a deployment
    const site = path.join(dataDir, 'sites', build.projectId);
    const published = fs.existsSync(site) ? fs.readdirSync(site, { recursive: true }).map(String) : [];
    for (const f of published) {
      const abs = path.join(site, f);
      if (fs.statSync(abs).isFile()) expect(fs.readFileSync(abs, 'utf8'), f).not.toContain('HOST-SECRET-TEXT');
    }
  });

  it('removes a link into the checkout\'s .git folder but keeps links inside the repository', async () => {
    const src = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-src-'));
    fs.writeFileSync(path.join(src, 'docs.json'), DOCS_JSON);
    fs.writeFileSync(path.join(src, 'real.mdx'), '# Real page\n\nREAL-TEXT\n');
    fs.symlinkSync('real.mdx', path.join(src, 'index.mdx'));
    fs.symlinkSync('.git/config', path.join(src, 'config.txt'));
    const repo = repoWith({}, src);
    fs.rmSync(src, { recursive: true, force: true });
    logs.length = 0;
    const res = await runBuild(input(repo));
    expect(fs.readFileSync(path.join(res.outDir, 'index.html'), 'utf8')).toContain('REAL-TEXT');
    expect(fs.existsSync(path.join(res.outDir, 'config.txt'))).toBe(false);
    expect(logs.join('\n')).toMatch(/warning \[symlink\] config\.txt symbolic link config\.txt points outside the repository/);
  });
});

describe('build limits', () => {
  it('refuses a repository with more files than the limit before checking anything out', async () => {
    const files: Record<string, string> = { 'docs.json': DOCS_JSON, 'index.mdx': '# Home\n' };
    for (let i = 0; i < 30; i++) files[`extra/f${i}.md`] = `# ${i}\n`;
    const repo = repoWith(files);
    const build = input(repo, { maxTreeFiles: 20 });
    const err = await failure(runBuild(build));
    expect(err.message).toMatch(/The repository has 32 files; a build takes at most 20 \(QUIRE_BUILD_MAX_FILES\)/);
    expect(fs.existsSync(path.join(dataDir, 'repos', build.projectId, 'index.mdx'))).toBe(false);
  });

  it('refuses a repository whose files add up to more than the limit before checking anything out', async () => {
    const repo = repoWith({ 'docs.json': DOCS_JSON, 'index.mdx': '# Home\n', 'big.txt': 'x'.repeat(300_000) });
    const build = input(repo, { maxTreeBytes: 100_000 });
    const err = await failure(runBuild(build));
    expect(err.message).toMatch(/files add up to 293\.\d KiB; a build takes at most 97\.7 KiB/);
    expect(fs.existsSync(path.join(dataDir, 'repos', build.projectId, 'big.txt'))).toBe(false);
  });

  it('refuses a repository with a file nested deeper than 64 folders', async () => {
    const deep = `${'a/'.repeat(70)}x.md`;
    const repo = repoWith({ 'docs.json': DOCS_JSON, 'index.mdx': '# Home\n', [deep]: '# deep\n' });
    const err = await failure(runBuild(input(repo)));
    expect(err.message).toMatch(/^a\/a\/a\/.*…: the file is 70 folders deep; a build takes at most 64\.$/);
  });

  it('stops a download that grows past the limit', async () => {
    // random bytes do not compress: the packfile is as large as the file
    const repo = repoWith({ 'docs.json': DOCS_JSON, 'index.mdx': '# Home\n', 'noise.bin': crypto.randomBytes(3_000_000) });
    const build = input(repo, { maxFetchBytes: 200_000 });
    const err = await failure(runBuild(build));
    expect(err.message).toMatch(/The repository download passed .*; a build downloads at most 195\.3 KiB/);
    expect(fs.existsSync(path.join(dataDir, 'repos', build.projectId))).toBe(false);
  });

  it('fails a build that runs past its time budget, naming the step', async () => {
    const repo = repoWith({ 'docs.json': DOCS_JSON, 'index.mdx': '# Home\n' });
    const err = await failure(runBuild(input(repo, { timeoutMs: 1 })));
    expect(err.message).toMatch(/ran out of its time budget of 0 s while fetching repository/);
  });

  it('stops a page that is still rendering when the time budget runs out, and the pool keeps working', async () => {
    // C++ lines of two words far apart make the grammar backtrack: seconds of highlighting per block
    const line = `x${' '.repeat(997)}y`;
    const block = `\`\`\`cpp\n${Array.from({ length: 20 }, () => line).join('\n')}\n\`\`\`\n`;
    const slow = repoWith({ 'docs.json': DOCS_JSON, 'index.mdx': `# Home\n\n${block}\n${block}\n${block}` });
    const started = Date.now();
    const err = await failure(runBuild(input(slow, { timeoutMs: 3000 })));
    expect(err.message).toMatch(/ran out of its time budget of 3 s while rendering pages/);
    expect(Date.now() - started).toBeLessThan(15_000); // the busy worker was stopped, not awaited
    const fine = repoWith({ 'docs.json': DOCS_JSON, 'index.mdx': '# Home\n\nStill building.\n' });
    const res = await runBuild(input(fine));
    expect(fs.readFileSync(path.join(res.outDir, 'index.html'), 'utf8')).toContain('Still building.');
  }, 60_000);

  it('fails a build whose rendered page is larger than the page limit, naming the file', async () => {
    const repo = repoWith({ 'docs.json': DOCS_JSON, 'index.mdx': `# Home\n\n${'word '.repeat(5000)}\n` });
    const err = await failure(runBuild(input(repo, { maxPageBytes: 10_000 })));
    expect(err.message).toMatch(/^index\.mdx: the rendered page is .*; a page may be at most 9\.8 KiB/);
  });
});
