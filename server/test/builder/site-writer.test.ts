import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RenderedPage, SiteConfig } from '@quire/shared/docs/types';
import { createCheckoutFiles } from '../../src/builder/checkout-files';
import { writeSite, type SitePage } from '../../src/builder/site-writer';
import { parseManifest, type WrittenManifest } from '../../src/deployments/manifest';

const rendered = (title: string, extra: Partial<RenderedPage> = {}): RenderedPage => ({
  html: `<h2 id="intro">Intro</h2><p>${title} body</p>`,
  toc: [{ depth: 2, id: 'intro', text: 'Intro' }],
  frontmatter: {},
  title,
  markdown: `# ${title}\n\n${title} body\n`,
  text: `${title} body`,
  links: [],
  assets: [],
  dependencies: [],
  warnings: [],
  ...extra,
});

const site: SiteConfig = {
  source: 'docs.json',
  name: 'Acme Docs',
  description: 'Everything about Acme.',
  colors: { primary: '#0a7f5a' },
  navbar: { links: [] },
  footer: { socials: [], links: [] },
  redirects: [{ source: '/old', destination: '/guides/setup', permanent: true }],
  variables: {},
  navigation: [
    { type: 'group', title: 'Getting started', children: [{ type: 'page', path: 'index', title: 'Welcome' }, { type: 'page', path: 'guides/setup', title: 'Setup' }] },
  ],
  openapi: [],
  raw: {},
};

let root: string;
let out: string;
let manifest: WrittenManifest;
beforeAll(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-site-'));
  const docs = path.join(root, 'repo');
  const files: Record<string, string> = {
    'docs.json': '{}',
    'index.mdx': '# Welcome',
    'guides/setup.mdx': '# Setup',
    'hidden.mdx': '# Hidden',
    'secret.mdx': '# Secret',
    'snippets/s.mdx': 'snippet',
    'images/logo.png': 'PNG',
    '.env': 'TOKEN=x',
    'llms.txt': 'user llms',
  };
  for (const [rel, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(docs, rel)), { recursive: true });
    fs.writeFileSync(path.join(docs, rel), text);
  }
  out = path.join(root, 'out');
  const pages: SitePage[] = [
    { path: 'index', filePath: 'index.mdx', page: rendered('Welcome', { description: 'Start here.' }), hidden: false },
    { path: 'guides/setup', filePath: 'guides/setup.mdx', page: rendered('Setup', { frontmatter: { lastUpdated: '2026-01-02' } }), hidden: false },
    { path: 'hidden', filePath: 'hidden.mdx', page: rendered('Hidden'), hidden: true },
    { path: 'secret', filePath: 'secret.mdx', page: rendered('Secret'), hidden: false, audience: ['partners'] },
  ];
  manifest = writeSite({
    outDir: out,
    buildId: 'bld_1',
    projectId: 'prj_1',
    site,
    nav: site.navigation,
    pages,
    home: 'index',
    files: createCheckoutFiles(docs),
    siteUrl: 'http://acme-docs.localhost:4000',
  }).manifest;
});
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

const read = (rel: string) => fs.readFileSync(path.join(out, rel), 'utf8');

describe('site writer', () => {
  it('writes one HTML document and one Markdown file per page', () => {
    expect(read('index.html')).toMatch(/<html[\s\S]*Welcome body/);
    expect(read('guides/setup.html')).toContain('Setup body');
    expect(read('guides/setup.md')).toBe('# Setup\n\nSetup body\n');
    expect(fs.existsSync(path.join(out, '404.html'))).toBe(true);
  });

  it('writes a manifest with pages, home, redirects and hashed assets', () => {
    const onDisk = JSON.parse(read('manifest.json')) as WrittenManifest;
    expect(onDisk).toMatchObject({ version: 1, buildId: 'bld_1', projectId: 'prj_1', home: 'index', notFound: '404.html' });
    expect(onDisk.redirects).toEqual(site.redirects);
    expect(onDisk.pages).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ path: 'guides/setup', title: 'Setup', file: 'guides/setup.html' }),
        expect.objectContaining({ path: 'hidden', hidden: true }),
        expect.objectContaining({ path: 'secret', audience: ['partners'] }),
      ]),
    );
    const theme = onDisk.assets.filter((a) => /\/(site|theme)[.-]/.test(a));
    expect(theme.map((a) => a.replace(/[0-9a-f]{10}/, 'H')).sort()).toEqual(
      ['_quire/assets/site.H.css', '_quire/assets/site.H.js', '_quire/assets/theme-H.css', '_quire/assets/theme.H.js'].sort(),
    );
    for (const a of theme) expect(read('index.html')).toContain(`/${a}`);
    // KaTeX (CSS and its fonts) and mermaid are published with every site, linked only by pages that need them
    const vendor = onDisk.assets.filter((a) => !theme.includes(a)).map((a) => a.replace(/[0-9a-f]{10}/, 'H'));
    expect(vendor).toEqual(expect.arrayContaining(['_quire/assets/katex.H.css', '_quire/assets/KaTeX_Main-Regular.H.woff2', '_quire/assets/mermaid.H.js']));
    expect(read('index.html')).not.toMatch(/katex|mermaid/);
    for (const a of onDisk.assets) expect(fs.existsSync(path.join(out, a))).toBe(true);
    expect(manifest.assets).toEqual(onDisk.assets);
  });

  it('writes a manifest that site hosting reads back with every page, date and asset it wrote', () => {
    const served = parseManifest(read('manifest.json'), 'manifest.json');
    const { files: _files, ...readable } = manifest;
    expect(served).toEqual(readable);
    const setup = served.pages.find((p) => p.path === 'guides/setup');
    expect(setup).toMatchObject({ title: 'Setup', lastUpdated: '2026-01-02', hash: expect.stringMatching(/^[0-9a-f]{64}$/) });
  });

  it('lists only visible, ungated pages in llms.txt and the sitemap', () => {
    const llms = read('llms.txt');
    expect(llms).toContain('# Acme Docs\n\n> Everything about Acme.');
    expect(llms).toContain('## Getting started');
    expect(llms).toContain('- [Welcome](http://acme-docs.localhost:4000/index.md): Start here.');
    expect(llms).toContain('- [Setup](http://acme-docs.localhost:4000/guides/setup.md)');
    expect(llms).not.toContain('Hidden');
    expect(llms).not.toContain('Secret');
    const sitemap = read('sitemap.xml');
    expect(sitemap).toContain('<loc>http://acme-docs.localhost:4000/</loc>');
    expect(sitemap).toContain('<loc>http://acme-docs.localhost:4000/guides/setup</loc><lastmod>2026-01-02</lastmod>');
    expect(sitemap).not.toMatch(/hidden|secret/);
  });

  it('copies static files only: no pages, config, snippets, dotfiles, nor files shadowing generated ones', () => {
    expect(read('images/logo.png')).toBe('PNG');
    expect(manifest.files).toEqual(['images/logo.png']);
    for (const f of ['docs.json', 'snippets/s.mdx', '.env', 'index.mdx']) expect(fs.existsSync(path.join(out, f))).toBe(false);
    expect(read('llms.txt')).not.toBe('user llms');
  });
});

describe('site writer: lead descriptions', () => {
  it('shows an OpenAPI page’s description once (in the body), keeping it in the meta tags; authored leads stay', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-lead-'));
    try {
      const desc = 'Returns the user with this id.';
      const operation = rendered('Get a user', {
        frontmatter: { title: 'Get a user', openapi: 'GET /users/{id}' },
        description: desc,
        html: `<div class="q-openapi"><div class="q-openapi-description"><p>${desc}</p><p>More detail.</p></div></div>`,
      });
      const page = rendered('Welcome', { frontmatter: { description: 'Start here.' }, description: 'Start here.' });
      writeSite({
        outDir: path.join(dir, 'out'),
        buildId: 'bld_2',
        projectId: 'prj_1',
        site,
        nav: site.navigation,
        pages: [
          { path: 'index', filePath: 'index.mdx', page, hidden: false },
          { path: 'api/get-user', page: operation, hidden: false },
        ],
        home: 'index',
        files: createCheckoutFiles(fs.mkdtempSync(path.join(dir, 'repo-'))),
        siteUrl: 'http://acme-docs.localhost:4000',
      });
      const html = fs.readFileSync(path.join(dir, 'out', 'api/get-user.html'), 'utf8');
      const body = html.slice(html.indexOf('<body'));
      expect(body.split(desc)).toHaveLength(2);
      expect(body).not.toContain('q-lead');
      expect(html).toContain(`<meta name="description" content="${desc}">`);
      expect(fs.readFileSync(path.join(dir, 'out', 'index.html'), 'utf8')).toContain('<p class="q-lead">Start here.</p>');
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
