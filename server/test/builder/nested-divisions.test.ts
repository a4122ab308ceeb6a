import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isHiddenVisit, walkPages } from '@quire/shared/docs/nav/index';
import { loadProject } from '../../src/builder/load-project';
import { runBuild } from '../../src/builder/pipeline';
import { closeRenderPool } from '../../src/builder/render-pool';
import { DeploymentSite } from '../../src/sites/deployment-site';
import { loadDeploymentSearchIndex } from '../../src/search/deployment-index';
import { retrieveSections } from '../../src/chat/answerer';
import { createFixtureRepo, type FixtureRepo } from '../helpers/git-repo';

/**
 * A site nested as languages -> products -> tabs -> groups/pages (server/test/fixtures/nested-divisions:
 * English and French, the French navigation in `fr.json` through `$ref`; per language a "Build" group
 * under `<lang>/products/platform/build/`, a nested group with `root`, a hidden group, a tab of pages,
 * a tab with menu items holding dropdowns, a product with OpenAPI pages in `<lang>/api-reference`,
 * a product with in-branch versions; global anchors).
 */
const fixture = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../fixtures/nested-divisions');
let dataDir: string;
let repo: FixtureRepo;
let outDir: string;
let site: DeploymentSite;

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-nested-'));
  repo = createFixtureRepo(fixture);
  const built = await runBuild({
    projectId: 'prj_nested', buildId: 'bld_1', repoUrl: repo.url, branch: 'main', allowFileRepos: true, dataDir,
    siteUrl: 'http://nested-docs.localhost:4000', signal: new AbortController().signal, log: () => {},
  });
  outDir = built.outDir;
  site = await DeploymentSite.load(outDir);
}, 120_000);
afterAll(async () => {
  await closeRenderPool();
  repo.cleanup();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

/** Status and body of a site path. */
async function get(sitePath: string): Promise<{ status: number; body: string }> {
  const answer = await site.answerUrl(sitePath);
  if (answer.kind !== 'file') return { status: answer.kind === 'redirect' ? answer.status : 404, body: '' };
  return { status: answer.status, body: answer.file.identity.body.toString('utf8') };
}

const switcherLinks = (html: string, label: string) => {
  const at = html.indexOf(`aria-label="${label}:`);
  const menu = html.slice(at, html.indexOf('</details>', at));
  return [...menu.matchAll(/<li[^>]*><a href="([^"]+)"[^>]*>.*?q-switcher-title">([^<]+)</g)].map((m) => [m[2], m[1]]);
};

describe('languages -> products -> tabs -> pages', () => {
  it('answers 200 for every page of the navigation, in every language, with the page in its own sidebar', async () => {
    const project = loadProject(repo.path);
    const visits = [...walkPages(project.nav)];
    const paths = [...new Set(visits.map((v) => v.node.path))];
    // 18 pages per language, a French-only page, 3 OpenAPI pages per language
    expect(paths).toHaveLength(43);
    const failed: string[] = [];
    for (const p of paths) {
      const { status, body } = await get(`/${p}`);
      if (status !== 200) failed.push(`${status} /${p}`);
      else if (!visits.some((v) => v.node.path === p && isHiddenVisit(v)) && !body.includes(`href="/${p}" aria-current="page"`)) failed.push(`not current in its sidebar: /${p}`);
    }
    expect(failed).toEqual([]);
  });

  it('serves each language in its own language: <html lang>, its own sidebar, group names and navbar', async () => {
    const fr = await get('/fr/products/platform/build/caching');
    expect(fr.body).toMatch(/^<!doctype html><html lang="fr"/);
    expect(fr.body).toContain('Compilation'); // the French name of the "Build" group
    expect(fr.body).not.toContain('href="/en/products/platform/build/caching"><span class="q-nav-text">');
    // a French page outside the navigation still gets the French chrome
    const unlisted = await get('/fr/products/platform/ancienne-page');
    expect(unlisted.status).toBe(200);
    expect(unlisted.body).toMatch(/^<!doctype html><html lang="fr"/);
    expect(unlisted.body).toContain('Compilation');
    const en = await get('/en/products/platform/build/caching');
    expect(en.body).toMatch(/^<!doctype html><html lang="en"/);
    expect(en.body).not.toContain('Compilation');
    // each language's own navbar (languages[].navbar)
    expect(fr.body).toContain('href="https://community.example.com/fr"');
    expect(fr.body).toMatch(/class="q-navbar-primary" href="\/fr\/products\/platform\/quickstart"[^>]*>Commencer/);
    expect(en.body).toContain('href="https://community.example.com/en"');
    expect(en.body).not.toContain('Communauté');
  });

  it('gives each language its own OpenAPI pages (openapi {source, directory} on a product)', async () => {
    const fr = await get('/fr/api-reference/users/list-users');
    const en = await get('/en/api-reference/users/list-users');
    expect(fr.status).toBe(200);
    expect(fr.body).toContain('Lister les utilisateurs');
    expect(en.body).toContain('List users');
    expect(en.body).not.toContain('Lister les utilisateurs');
    expect((await get('/fr/api-reference/projects/list-projects')).body).toContain('Lister les projets');
  });

  it('links the language switcher to the same page in the other language, else to its first page', async () => {
    const fr = await get('/fr/products/platform/configuration/deep/limits');
    expect(switcherLinks(fr.body, 'Language')).toEqual([
      ['English', '/en/products/platform/configuration/deep/limits'],
      ['Français', '/fr/products/platform/index'],
    ]);
    const frOnly = await get('/fr/products/cloud/tarifs');
    expect(frOnly.status).toBe(200);
    expect(switcherLinks(frOnly.body, 'Language')[0]).toEqual(['English', '/en/products/platform/index']);
    // in-branch versions of a product keep the page the same way
    const v2 = await get('/en/products/legacy/v2/intro');
    expect(switcherLinks(v2.body, 'Version')).toEqual([['v2', '/en/products/legacy/v2/intro'], ['v1', '/en/products/legacy/v1/intro']]);
  });

  it('shows the product switcher, the tabs and anchors of the current product, and the global tabs and anchors', async () => {
    const { body } = await get('/fr/products/cloud/regions');
    expect(switcherLinks(body, 'Product')).toEqual([
      ['Platform', '/fr/products/platform/index'],
      ['Cloud', '/fr/products/cloud/overview'],
      ['SDK historique', '/fr/products/legacy/v2/intro'],
    ]);
    const tabs = body.slice(body.indexOf('aria-label="Sections"'), body.indexOf('</nav>', body.indexOf('aria-label="Sections"')));
    // the product's own tabs, then the global tab (a link at the root of the navigation)
    expect([...tabs.matchAll(/href="([^"]+)"( aria-current="true")?[^>]*>(?:<svg.*?<\/svg>)?<span>([^<]+)</g)].map((m) => [m[3], m[1], m[2] !== undefined])).toEqual([
      ['Présentation', '/fr/products/cloud/overview', true],
      ['Points de terminaison', '/fr/api-reference/users/list-users', false],
      ['Status page', 'https://status.example.com/page', false],
    ]);
    // the tab's own anchors (the current one marked), then the global anchors
    const anchors = body.slice(body.indexOf('<ul class="q-anchors">'), body.indexOf('</ul>', body.indexOf('<ul class="q-anchors">')));
    expect([...anchors.matchAll(/href="([^"]+)"( aria-current="true")?.*?<span>([^<]+)<\/span>/g)].map((m) => [m[3], m[1], m[2] !== undefined])).toEqual([
      ['Présentation', '/fr/products/cloud/overview', false],
      ['Régions', '/fr/products/cloud/regions', true],
      ['Status', 'https://status.example.com', false],
      ['Blog', 'https://blog.example.com', false],
    ]);
  });

  it('writes an llms.txt per language, and the default language in the root one with links to the others', async () => {
    const fr = await get('/fr/llms.txt');
    expect(fr.status).toBe(200);
    expect(fr.body).toContain('## Compilation');
    expect(fr.body).toContain('(http://nested-docs.localhost:4000/fr/products/platform/build/caching.md)');
    expect(fr.body).not.toContain('/en/');
    const root = await get('/llms.txt');
    expect(root.body).toContain('/en/products/platform/build/caching.md');
    expect(root.body).not.toContain('/fr/products/');
    // a link per language, without a page count (access rules may hide some of its pages from a reader)
    expect(root.body).toMatch(/^- \[Français\]\(http:\/\/nested-docs\.localhost:4000\/fr\/llms\.txt\)$/m);
    expect((await get('/en/llms.txt')).body).toContain('/en/products/platform/build/caching.md');
  });

  it('serves the default language at /', async () => {
    const home = await get('/');
    expect(home.body).toMatch(/^<!doctype html><html lang="en"/);
    expect(home.body).toContain('<title>Platform home - Nested Docs</title>');
  });
});

describe('search by language', () => {
  it("marks each language's pages with its code, and a search for that language finds only its pages", async () => {
    const fr = await get('/fr/support');
    expect(fr.body).toMatch(/^<!doctype html><html lang="fr" data-quire-language="fr"/);
    const index = await loadDeploymentSearchIndex(site.source);
    expect(index).not.toBeNull();
    const paths = (language?: string) => index!.search({ q: 'support', limit: 20, ...(language ? { language } : {}) }).map((h) => h.path);
    expect(paths('fr').length).toBeGreaterThan(0);
    expect(paths('fr').every((p) => p.startsWith('fr/'))).toBe(true);
    expect(paths('en').length).toBeGreaterThan(0);
    expect(paths('en').every((p) => p.startsWith('en/'))).toBe(true);
    expect(new Set(paths().map((p) => p.slice(0, 3)))).toEqual(new Set(['en/', 'fr/']));
  });

  it("the assistant retrieves from the reader's language only", async () => {
    const index = (await loadDeploymentSearchIndex(site.source))!;
    const cited = (language?: string) => retrieveSections('Where do I get support?', index, language ? { language } : {}).map((r) => r.path);
    expect(cited('fr').length).toBeGreaterThan(0);
    expect(cited('fr').every((p) => p.startsWith('fr/'))).toBe(true);
    expect(new Set(cited().map((p) => p.slice(0, 3)))).toEqual(new Set(['en/', 'fr/']));
  });
});
