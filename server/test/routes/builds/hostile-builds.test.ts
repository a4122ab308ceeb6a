import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, type TestApp } from '../../helpers/app';
import { createFixtureRepo, type FixtureRepo } from '../../helpers/git-repo';
import { createProject, trigger } from './build-fixture';

// Hostile repositories from an outside security review: each made the server's main thread parse or
// render repository content for tens of seconds. A build reads repository content only on worker
// threads with bounded heaps, and has limits of its own (decisions.md section 10), so while such a
// build runs the API keeps answering, and the build ends `failed` with a reason naming the file.

const NAV = (pages: unknown) => JSON.stringify({ name: 'Hostile', navigation: { groups: [{ group: 'Start', pages }] } });

/** 570 bytes of MDX: six levels of snippets, each using the next ten times (10^6 leaves). */
function snippetFanOut(): Record<string, string> {
  const files: Record<string, string> = { 'docs.json': NAV(['index']), 'snippets/s0.mdx': 'Lorem ipsum dolor sit amet.\n' };
  for (let level = 1; level <= 6; level++) {
    const body = `import S from '/snippets/s${level - 1}.mdx'\n\n${'<S />'.repeat(10)}\n`;
    files[level === 6 ? 'index.mdx' : `snippets/s${level}.mdx`] = body;
  }
  return files;
}

/** `export const` strings doubling 28 times: under 1 KB of source, 4 G characters when evaluated. */
function doublingExports(): Record<string, string> {
  const lines = ['export const a0 = "xxxxxxxxxxxxxxxx"'];
  for (let i = 1; i <= 28; i++) lines.push(`export const a${i} = a${i - 1} + a${i - 1}`);
  return { 'docs.json': NAV(['index']), 'index.mdx': `${lines.join('\n')}\n\n# Home\n\n{a28}\n` };
}

/** docs.json whose `$ref`s copy one 60 KB file 1,600 times. */
function refBlowUp(): Record<string, string> {
  const pages = Array.from({ length: 3000 }, (_, i) => `p${i}`);
  return {
    'docs.json': JSON.stringify({ name: 'Hostile', navigation: { groups: { $ref: 'n2.json' } } }),
    'n0.json': JSON.stringify({ group: 'G', pages }),
    'n1.json': JSON.stringify(Array.from({ length: 40 }, () => ({ $ref: 'n0.json' }))),
    'n2.json': JSON.stringify(Array.from({ length: 40 }, () => ({ $ref: 'n1.json' }))),
    'index.mdx': '# Home\n',
  };
}

/** A `.mintignore` rule with six `**` (seconds of backtracking per deep path in the `ignore` package) and a deep folder. */
function mintignoreBacktracking(): Record<string, string> {
  const files: Record<string, string> = {
    'docs.json': NAV(['index']),
    'index.mdx': '# Home\n',
    '.mintignore': 'a/**/a/**/a/**/a/**/a/**/a/**/b\n',
  };
  for (let i = 0; i < 5; i++) files[`${'a/'.repeat(60)}f${i}.md`] = `# ${i}\n`;
  return files;
}

let t: TestApp;
const repos: FixtureRepo[] = [];

beforeAll(async () => {
  // enterprise: the probes below must not meet the request rate limit; a 90 s budget ends any build
  t = await createTestApp({ runJobs: true, env: { QUIRE_DEFAULT_PLAN: 'enterprise', QUIRE_BUILD_TIMEOUT_SECONDS: '90' } });
});
afterAll(async () => {
  await t.close();
  for (const r of repos) r.cleanup();
});

/**
 * Triggers a build of `files` and, until it ends, keeps asking the API for the build every 100 ms.
 * @returns the finished build and the slowest API answer in milliseconds
 */
async function buildWhileProbing(slug: string, files: Record<string, string>) {
  const repo = createFixtureRepo(undefined, { extraFiles: files });
  repos.push(repo);
  const project = await createProject(t, repo, slug);
  const triggered = await trigger(t, project.id);
  expect(triggered.statusCode).toBe(202);
  const buildId = triggered.json().data.id as string;
  let slowest = 0;
  const until = Date.now() + 110_000;
  for (;;) {
    const started = performance.now();
    const res = await t.app.inject({ url: `/v1/projects/${project.id}/builds/${buildId}`, headers: bearer(t.adminKey) });
    slowest = Math.max(slowest, performance.now() - started);
    expect(res.statusCode).toBe(200);
    const build = res.json().data as { id: string; projectId: string; status: string; error: string | null };
    if (build.status !== 'queued' && build.status !== 'building') return { build, slowest };
    if (Date.now() > until) throw new Error(`build still ${build.status} after 110 s`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('hostile repositories cannot stall the server', () => {
  it('nested snippet fan-out: the API answers within a second and the build fails naming the page', async () => {
    const { build, slowest } = await buildWhileProbing('fan-out', snippetFanOut());
    expect(slowest).toBeLessThan(1000);
    expect(build.status).toBe('failed');
    expect(build.error).toMatch(/(index|snippets\/s\d)\.mdx/);
  }, 120_000);

  it('doubling export strings: the API answers within a second and the build fails naming the page', async () => {
    const { build, slowest } = await buildWhileProbing('exports', doublingExports());
    expect(slowest).toBeLessThan(1000);
    expect(build.status).toBe('failed');
    expect(build.error).toMatch(/index\.mdx/);
  }, 120_000);

  it('a backtracking .mintignore rule: the API answers within a second and the rule is left out with a warning', async () => {
    const { build, slowest } = await buildWhileProbing('ignore', mintignoreBacktracking());
    expect(slowest).toBeLessThan(1000);
    expect(build.status).toBe('deployed');
    const log = await t.app.inject({ url: `/v1/projects/${build.projectId}/builds/${build.id}/logs`, headers: bearer(t.adminKey) });
    expect(log.body).toMatch(/\.mintignore:1: a rule may use "\*\*" at most 2 times; rule ignored/);
  }, 120_000);

  it('$ref blow-up in docs.json: the API answers within a second and the build fails naming the config', async () => {
    const { build, slowest } = await buildWhileProbing('refs', refBlowUp());
    expect(slowest).toBeLessThan(1000);
    expect(build.status).toBe('failed');
    expect(build.error).toMatch(/docs\.json|n[012]\.json/);
  }, 120_000);
});
