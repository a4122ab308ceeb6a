import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { NavNode, RenderedPage, SiteConfig } from '@quire/shared/docs/types';
import { createCheckoutFiles } from '../../src/builder/checkout-files';
import { writeSite, type SitePage, type WriteSiteResult } from '../../src/builder/site-writer';
import { cutForVisitor, findAudienceMarks } from '../../src/sites/audience-variants';

/**
 * llms-full.txt as the builder writes it (builder/llms-full.ts): every readable page's Markdown in
 * navigation order, hidden pages never, gated pages' blocks marked for the site's per-visitor cut,
 * one file per language and per version deployment, rewritten by an incremental build.
 */

const rendered = (title: string, body: string, extra: Partial<RenderedPage> = {}): RenderedPage => ({
  html: `<p>${body}</p>`,
  toc: [],
  frontmatter: {},
  title,
  markdown: `# ${title}\n\n${body}\n`,
  text: body,
  links: [],
  assets: [],
  dependencies: [],
  warnings: [],
  ...extra,
});

const site = (navigation: NavNode[]): SiteConfig => ({
  source: 'docs.json', name: 'Acme Docs', colors: { primary: '#0a7f5a' }, navbar: { links: [] }, footer: { socials: [], links: [] },
  redirects: [], variables: {}, navigation, openapi: [], raw: {},
});

// the navigation lists `zeta` before `alpha`: navigation order, not file or alphabetical order
const nav: NavNode[] = [
  { type: 'group', title: 'Start', children: [{ type: 'page', path: 'index', title: 'Welcome' }, { type: 'page', path: 'zeta', title: 'Zeta' }] },
  { type: 'group', title: 'More', children: [{ type: 'page', path: 'partners', title: 'Partner Portal' }, { type: 'page', path: 'guides/alpha', title: 'Alpha' }] },
];
const pages = (): SitePage[] => [
  { path: 'guides/alpha', filePath: 'guides/alpha.mdx', page: rendered('Alpha', 'ALPHA-BODY'), hidden: false },
  { path: 'hidden', filePath: 'hidden.mdx', page: rendered('Hidden page', 'HIDDEN-BODY'), hidden: true },
  { path: 'partners', filePath: 'partners.mdx', page: rendered('Partner Portal', 'PARTNER-BODY'), hidden: false, audience: ['partners'] },
  { path: 'zeta', filePath: 'zeta.mdx', page: rendered('Zeta', 'ZETA-BODY'), hidden: false },
  { path: 'index', filePath: 'index.mdx', page: rendered('Welcome', 'HOME-BODY'), hidden: false },
];

let root: string;
const docsDir = () => path.join(root, 'repo');
beforeAll(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-llms-full-'));
  fs.mkdirSync(docsDir(), { recursive: true });
  fs.writeFileSync(path.join(docsDir(), 'docs.json'), '{}');
  // a repository file of the same name never replaces the generated one
  fs.writeFileSync(path.join(docsDir(), 'llms-full.txt'), 'user file');
});
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

function build(
  name: string,
  input: { nav?: NavNode[]; pages?: SitePage[]; siteUrl?: string; basePath?: string; previous?: { dir: string; result: WriteSiteResult } } = {},
): { dir: string; result: WriteSiteResult; read: (rel: string) => string } {
  const dir = path.join(root, name);
  const navigation = input.nav ?? nav;
  const result = writeSite({
    outDir: dir,
    buildId: `bld_${name}`,
    projectId: 'prj_1',
    site: site(navigation),
    nav: navigation,
    pages: input.pages ?? pages(),
    home: 'index',
    files: createCheckoutFiles(docsDir()),
    siteUrl: input.siteUrl ?? 'http://acme-docs.localhost:4000',
    ...(input.basePath ? { basePath: input.basePath } : {}),
    ...(input.previous
      ? {
          previous: {
            dir: input.previous.dir,
            shellKey: input.previous.result.shellKey,
            pages: input.previous.result.pageKeys,
            assets: new Set(input.previous.result.manifest.assets),
            unchangedFiles: new Set<string>(),
          },
        }
      : {}),
  });
  return { dir, result, read: (rel) => fs.readFileSync(path.join(dir, rel), 'utf8') };
}

describe('llms-full.txt', () => {
  it('holds every readable page in navigation order, each under its title and source URL', () => {
    const { read, result } = build('order');
    const text = read('llms-full.txt');
    const order = ['HOME-BODY', 'ZETA-BODY', 'PARTNER-BODY', 'ALPHA-BODY'].map((m) => text.indexOf(m));
    expect(order.every((at) => at >= 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
    expect(text).toContain('# Zeta\nSource: http://acme-docs.localhost:4000/zeta\n\nZETA-BODY\n');
    expect(text).toContain('# Welcome\nSource: http://acme-docs.localhost:4000/\n\nHOME-BODY\n');
    // the page's own `# Title` line is not repeated under the header
    expect(text.match(/# Zeta/g)).toHaveLength(1);
    expect(result.manifest.generated).toContain('llms-full.txt');
  });

  it('never holds a hidden page', () => {
    const { read } = build('hidden');
    expect(read('llms-full.txt')).not.toMatch(/HIDDEN-BODY|Hidden page/);
  });

  it('wraps a gated page in a block the site cuts for visitors whose tags do not open it', () => {
    const { read } = build('gated');
    const file = Buffer.from(read('llms-full.txt'), 'utf8');
    const marks = findAudienceMarks(file);
    expect(marks).not.toBeNull();
    const anonymous = cutForVisitor(file, marks!, []).toString('utf8');
    expect(anonymous).not.toMatch(/PARTNER-BODY|Partner Portal|data-audience/);
    expect(anonymous).toContain('ALPHA-BODY');
    const partner = cutForVisitor(file, marks!, ['partners']).toString('utf8');
    expect(partner).toContain('# Partner Portal\nSource: http://acme-docs.localhost:4000/partners\n\nPARTNER-BODY');
    expect(partner).not.toContain('data-audience');
  });

  it('cannot be closed early by a page whose Markdown names the wrapper', () => {
    const list = pages();
    list[0] = { ...list[0]!, page: rendered('Alpha', 'ALPHA-BODY </quiregated> text') };
    list[2] = { ...list[2]!, page: rendered('Partner Portal', 'PARTNER-BODY </quiregated> PARTNER-TAIL') };
    const { read } = build('wrapper', { pages: list });
    const file = Buffer.from(read('llms-full.txt'), 'utf8');
    const anonymous = cutForVisitor(file, findAudienceMarks(file)!, []).toString('utf8');
    expect(anonymous).not.toMatch(/PARTNER-BODY|PARTNER-TAIL/);
    expect(anonymous).toContain('ALPHA-BODY </quiregated> text');
  });

  it('leaves out a page whose Markdown holds markup the gate reads as its own, with a warning', () => {
    const list = pages();
    list[0] = { ...list[0]!, page: rendered('Alpha', '<span data-audience="x">ALPHA-BODY') };
    const { read, result } = build('hazard', { pages: list });
    expect(read('llms-full.txt')).not.toContain('ALPHA-BODY');
    expect(read('guides/alpha.md')).toContain('ALPHA-BODY');
    expect(result.warnings).toEqual(expect.arrayContaining([expect.objectContaining({ kind: 'llms-full-skipped', file: 'guides/alpha.mdx' })]));
  });

  it('is one file per language, like llms.txt', () => {
    const languages: NavNode[] = [
      { type: 'division', kind: 'language', title: 'en', default: true, children: [{ type: 'page', path: 'index', title: 'Welcome' }, { type: 'page', path: 'zeta', title: 'Zeta' }] },
      { type: 'division', kind: 'language', title: 'fr', children: [{ type: 'page', path: 'fr/index', title: 'Bienvenue' }] },
    ];
    const list: SitePage[] = [
      { path: 'index', page: rendered('Welcome', 'HOME-BODY'), hidden: false },
      { path: 'zeta', page: rendered('Zeta', 'ZETA-BODY'), hidden: false },
      { path: 'fr/index', page: rendered('Bienvenue', 'FR-BODY'), hidden: false },
    ];
    const { read, result } = build('languages', { nav: languages, pages: list });
    expect(read('llms-full.txt')).toContain('HOME-BODY');
    expect(read('llms-full.txt')).not.toContain('FR-BODY');
    expect(read('fr/llms-full.txt')).toContain('# Bienvenue\nSource: http://acme-docs.localhost:4000/fr/index\n\nFR-BODY');
    expect(read('fr/llms-full.txt')).not.toContain('HOME-BODY');
    expect(result.manifest.generated).toEqual(expect.arrayContaining(['llms-full.txt', 'fr/llms-full.txt']));
  });

  it('of a version deployment names the version\'s URLs', () => {
    const { read } = build('version', { siteUrl: 'http://acme-docs.localhost:4000/v1', basePath: '/v1' });
    expect(read('llms-full.txt')).toContain('Source: http://acme-docs.localhost:4000/v1/zeta\n');
  });

  it('is rewritten by an incremental build, with the pages it did not render again read from the previous deployment', () => {
    const first = build('inc1');
    const list = pages().map((p): SitePage => {
      if (p.path === 'zeta') return { ...p, page: rendered('Zeta', 'ZETA-CHANGED') };
      const keys = first.result.pageKeys.get(p.path)!;
      return { ...p, page: { title: p.page.title, frontmatter: {}, carried: keys } };
    });
    const second = build('inc2', { pages: list, previous: first });
    const text = second.read('llms-full.txt');
    expect(text).toContain('ZETA-CHANGED');
    expect(text).not.toContain('ZETA-BODY');
    expect(text).toContain('ALPHA-BODY');
    expect(text.indexOf('HOME-BODY')).toBeLessThan(text.indexOf('ZETA-CHANGED'));
  });
});
