/**
 * Builds run the project's linter (decisions.md section 9): the log counts findings per rule,
 * `GET /lint-results` answers the newest production build's findings, and a rebuild lints only
 * changed pages.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, type TestApp } from '../../helpers/app';
import type { FixtureRepo } from '../../helpers/git-repo';
import { createProject, docsRepo, trigger, waitForStatus } from './build-fixture';

let t: TestApp;
let repo: FixtureRepo;
let project: { id: string; slug: string };

beforeAll(async () => {
  t = await createTestApp({ runJobs: true });
  repo = docsRepo('FIRST');
  repo.commit({ 'guides/setup.mdx': '---\ntitle: Setup\n---\n\nUtilize the CLI to install it.\n' }, 'wordy setup');
  project = await createProject(t, repo, 'acme');
});
afterAll(async () => {
  await t.close();
  repo.cleanup();
});

const api = (url: string) => t.app.inject({ url: `/v1/projects/${project.id}${url}`, headers: bearer(t.adminKey) });

async function buildAndLog(): Promise<string> {
  const id = (await trigger(t, project.id)).json().data.id as string;
  const done = await waitForStatus(t, project.id, id, ['deployed', 'failed']);
  expect(done.status, JSON.stringify(done)).toBe('deployed');
  return (await api(`/builds/${id}/logs`)).body;
}

describe('the lint step of a build', () => {
  it('answers 404 for lint results before any production build', async () => {
    expect((await api('/lint-results')).statusCode).toBe(404);
  });

  it('lints every page with the project\'s rules, counts findings per rule in the log, and stores them', async () => {
    const rule = await t.app.inject({ method: 'POST', url: `/v1/projects/${project.id}/style-rules`, headers: bearer(t.adminKey), payload: { name: 'plain-words', type: 'substitution', swap: { utilize: 'use' } } });
    expect(rule.statusCode).toBe(201);
    const log = await buildAndLog();
    expect(log).toMatch(/linting pages \(\d+ findings on \d of 2 pages, 0 from cache\)/);
    expect(log).toContain('lint style/plain-words: 1');
    // The fixture's home page repeats its front matter title as an H1: markdownlint's single-title.
    expect(log).toContain('lint markdown/single-title: 1');

    const results = (await api('/lint-results')).json().data;
    expect(results).toMatchObject({ pageCount: 2, counts: { 'style/plain-words': 1, 'markdown/single-title': 1 } });
    const plain = (await api('/lint-results?rule=style/plain-words')).json().data.pages;
    expect(plain).toEqual([{ path: 'guides/setup.mdx', findings: [expect.objectContaining({ ruleId: 'style/plain-words', line: 5, column: 1, message: 'Use "Use" instead of "Utilize".' })] }]);
    expect((await api('/lint-results?path=index.mdx')).json().data.pages.map((p: { path: string }) => p.path)).toEqual(['index.mdx']);
    expect((await api('/lint-results?rule=prose/passive-voice')).json().data.pages).toEqual([]);
  });

  it('relints only the pages that changed, and the results follow the new build', async () => {
    repo.commit({ 'guides/setup.mdx': '---\ntitle: Setup\n---\n\nUse the CLI to install it.\n' }, 'plain setup');
    const log = await buildAndLog();
    expect(log).toMatch(/linting pages \(1 findings on 1 of 2 pages, 1 from cache\)/);
    const results = (await api('/lint-results')).json().data;
    expect(results.counts).toEqual({ 'markdown/single-title': 1 });
    expect(results.pages.map((p: { path: string }) => p.path)).toEqual(['index.mdx']);
  });

  it('records broken links, missing images and unknown components with the same verdicts as the link check, and POST /lint checks against the published site', async () => {
    repo.commit({ 'guides/broken.mdx': '---\ntitle: Broken\n---\n\nSee [gone](/gone-page) and [setup](/Guides/Setup).\n\n![shot](/images/none.png)\n\n<Notee>Hi.</Notee>\n' }, 'broken page');
    const log = await buildAndLog();
    // The build's link check and the lint rule share one verdict: the same target in both.
    expect(log).toContain('warning [broken-link] guides/broken.mdx:5 /gone-page');
    expect(log).toContain('warning [missing-image] guides/broken.mdx:7 /images/none.png');
    expect(log).toContain('lint links/broken: 2');
    expect(log).toContain('lint images/missing: 1');
    expect(log).toContain('lint components/unknown: 1');
    const broken = (await api('/lint-results?path=guides/broken.mdx')).json().data.pages[0].findings as { ruleId: string; line: number; message: string; fix?: unknown }[];
    expect(broken.filter((f) => f.ruleId === 'links/broken').map((f) => [f.line, f.message])).toEqual([
      [5, 'The link "/gone-page" points to no page or file of the site.'],
      [5, 'The link "/Guides/Setup" points to no page or file of the site; did you mean "/guides/setup"?'],
    ]);

    const lint = (text: string) => t.app.inject({ method: 'POST', url: `/v1/projects/${project.id}/lint`, headers: bearer(t.adminKey), payload: { path: 'guides/new.mdx', text } });
    const res = await lint('---\ntitle: New\n---\n\nRead [setup](/guides/setup), [broken](/guides/broken) and [nothing](/nothing).\n');
    expect(res.statusCode).toBe(200);
    expect(res.json().data.findings.filter((f: { ruleId: string }) => f.ruleId === 'links/broken').map((f: { message: string }) => f.message)).toEqual(['The link "/nothing" points to no page or file of the site.']);
    const fixed = await t.app.inject({ method: 'POST', url: `/v1/projects/${project.id}/lint/auto-fix`, headers: bearer(t.adminKey), payload: { path: 'guides/new.mdx', text: 'See [setup](/GUIDES/setup).\n', rules: ['links/broken'] } });
    expect(fixed.json().data.text).toBe('See [setup](/guides/setup).\n');
    repo.commit({ 'guides/broken.mdx': null }, 'drop broken page');
  });

  it('shows the definition of a glossary term where a page first uses it, as an accessible tooltip', async () => {
    const term = await t.app.inject({ method: 'POST', url: `/v1/projects/${project.id}/glossary`, headers: bearer(t.adminKey), payload: { term: 'CLI', definition: 'The quire command-line tool.' } });
    expect(term.statusCode).toBe(201);
    await buildAndLog();
    const page = await t.app.inject({ url: '/guides/setup', headers: { host: 'acme-docs.localhost:4000' } });
    expect(page.body).toMatch(/<dfn tabindex="0" aria-describedby="(q-glossary-\d+)">CLI<\/dfn><span role="tooltip" id="\1" class="q-glossary-tip">The quire command-line tool\.<\/span>/);
  });

  it('parses pages with the site\'s variables put in, as the build renders them: neither the build\'s lint nor POST /lint reports mdx/syntax', async () => {
    const page = '---\ntitle: Versions\n---\n\nThis is {{product.name}} version {{product.version}}.\n';
    repo.commit(
      {
        'docs.json': JSON.stringify({
          name: 'Acme Docs',
          variables: { 'product.name': 'Acme Tool', 'product.version': '2.1' },
          navigation: { groups: [{ group: 'Start', pages: ['index', 'guides/setup', 'guides/versions'] }] },
        }),
        'guides/versions.mdx': page,
      },
      'a page using variables',
    );
    const log = await buildAndLog();
    expect(log).not.toContain('mdx/syntax');
    const built = await t.app.inject({ url: '/guides/versions', headers: { host: 'acme-docs.localhost:4000' } });
    expect(built.body).toContain('This is Acme Tool version 2.1.');
    expect((await api('/lint-results?rule=mdx/syntax')).json().data.pages).toEqual([]);

    const res = await t.app.inject({ method: 'POST', url: `/v1/projects/${project.id}/lint`, headers: bearer(t.adminKey), payload: { path: 'guides/versions.mdx', text: page } });
    expect(res.statusCode).toBe(200);
    expect(res.json().data.findings).toEqual([]);
    // a name the site does not define stays as written: an expression MDX cannot parse
    const unknown = await t.app.inject({ method: 'POST', url: `/v1/projects/${project.id}/lint`, headers: bearer(t.adminKey), payload: { path: 'guides/versions.mdx', text: page.replace('product.name', 'product.nickname') } });
    expect(unknown.json().data.findings.map((f: { ruleId: string }) => f.ruleId)).toEqual(['mdx/syntax']);
  });
});
