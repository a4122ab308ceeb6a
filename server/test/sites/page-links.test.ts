import { describe, expect, it } from 'vitest';
import type { NavNode, SiteConfig } from '@quire/shared/docs/types';
import { createSiteRenderer } from '@quire/shared/site/index';
import { cutForVisitor, findAudienceMarks } from '../../src/sites/audience-variants';
import { findPageLinks } from '../../src/sites/page-links';
import { refusedCuts } from '../../src/sites/page-filter';

/**
 * Where a page document built by the theme names pages (page-links.ts), and what a reader refused
 * some of them gets once their ranges are cut: the chrome without those pages, everything else as
 * built.
 */

const nav: NavNode[] = [
  {
    type: 'division', kind: 'tab', title: 'Docs', children: [
      {
        type: 'group', title: 'Start', children: [
          { type: 'page', path: 'index', title: 'Welcome' },
          { type: 'page', path: 'setup', title: 'Setup' },
          { type: 'page', path: 'internal/guide', title: 'Internal title' },
          { type: 'page', path: 'after', title: 'After' },
          { type: 'link', title: 'Status', href: 'https://status.example.com' },
        ],
      },
      { type: 'group', title: 'Internal group', children: [{ type: 'page', path: 'internal/runbook', title: 'Runbook' }] },
      {
        type: 'group', title: 'Outer', children: [
          { type: 'group', title: 'Rooted', root: 'internal/root', children: [{ type: 'page', path: 'open/child', title: 'Open child' }] },
          { type: 'group', title: 'Nested internal', children: [{ type: 'page', path: 'internal/nested', title: 'Nested page' }] },
          { type: 'page', path: 'partners', title: 'Partner Portal' },
        ],
      },
    ],
  },
  { type: 'division', kind: 'tab', title: 'Internal tab', children: [{ type: 'group', title: 'Ops', children: [{ type: 'page', path: 'internal/ops', title: 'Ops' }] }] },
];
const PATHS = ['index', 'setup', 'internal/guide', 'after', 'internal/runbook', 'internal/root', 'open/child', 'internal/nested', 'partners', 'internal/ops'];
const INTERNAL = PATHS.flatMap((p, i) => (p.startsWith('internal/') ? [i] : []));
const site: SiteConfig = {
  source: 'docs.json', name: 'Acme', colors: { primary: '#0E7C66' }, navbar: { links: [{ label: 'Internal shortcut', href: '/internal/guide' }] },
  footer: { socials: [], links: [] }, redirects: [], variables: {}, navigation: [], openapi: [], raw: {},
};
const renderer = createSiteRenderer({ site, nav, assets: { css: '/a.css', js: '/a.js', themeJs: '/t.js' }, siteCss: '/s.css', audiences: { partners: ['partners'] } });
/** The page a root-relative link leads to (the deployment's resolution, reduced to exact paths). */
const pageOf = (href: string) => {
  const i = PATHS.indexOf(href === '/' ? 'index' : href.slice(1));
  return i === -1 ? undefined : i;
};
/** A page body (repository content) linking to a protected page itself. */
const body = '<p>See <a href="/internal/guide">the internal guide</a>.</p><ul><li><a href="/internal/runbook">runbook</a></li></ul>';
const page = (path: string) => Buffer.from(renderer.page({ path, title: path, html: body, toc: [] }), 'utf8');
/** The file as a reader refused `refused` (and with `tags`) gets it. */
const cut = (html: Buffer, refused: readonly number[], tags: string[] = [], wholeDocument = false) =>
  cutForVisitor(html, findAudienceMarks(html), tags, refusedCuts(findPageLinks(html, pageOf, wholeDocument), refused)).toString('utf8');
const chrome = (html: string) => html.replace(body, '');

describe('page links of a built page', () => {
  const html = page('setup');

  it('names every page the chrome links to, by its index, with the file length', () => {
    const links = findPageLinks(html, pageOf, false);
    expect(links.bytes).toBe(html.length);
    expect(links.pages).toEqual(PATHS.map((_, i) => i));
  });

  it('leaves out every entry, card, tab and link of the refused pages, and the groups holding only them', () => {
    const text = cut(html, INTERNAL);
    expect(chrome(text)).not.toMatch(/Internal title|Runbook|Internal group|Nested internal|Nested page|Internal tab|Internal shortcut|href="\/internal\//);
    // the page body is the author's: never cut
    expect(text).toContain(body);
    // the rest of the chrome stays, the next card included
    expect(text).toMatch(/<li><a class="q-nav-link" href="\/after"><span class="q-nav-text">After<\/span><\/a><\/li>/);
    expect(text).toContain('href="https://status.example.com"');
    expect(text).toContain('<a class="q-tab" href="/" aria-current="true"><span>Docs</span></a>');
    expect(text).toContain('<a class="q-pager-card q-pager-prev" href="/" rel="prev">');
    expect(text).not.toContain('q-pager-next');
  });

  it("keeps a group's title without the link to its refused root page, and its readable pages", () => {
    const text = cut(html, INTERNAL);
    expect(text).toContain('<summary class="q-nav-summary"><span class="q-nav-text">Rooted</span>');
    expect(text).toContain('Open child');
  });

  it('keeps a group holding a link that names no page', () => {
    const text = cut(html, [PATHS.indexOf('index'), PATHS.indexOf('setup'), PATHS.indexOf('internal/guide'), PATHS.indexOf('after')]);
    expect(text).toContain('<p class="q-nav-heading"><span class="q-nav-text">Start</span></p>');
    expect(text).toContain('Status');
  });

  it("keeps the site's name when the home page is refused", () => {
    expect(cut(html, [PATHS.indexOf('index')])).toContain('<span class="q-logo-name">Acme</span>');
  });

  it('cuts nothing when nothing is refused, and together with the audience marks of gated pages', () => {
    const marks = findAudienceMarks(html);
    expect(cut(html, [])).toBe(cutForVisitor(html, marks, []).toString('utf8'));
    expect(cut(html, [], ['partners'])).toContain('Partner Portal');
    const partner = cut(html, [...INTERNAL, PATHS.indexOf('partners')], ['partners']);
    expect(chrome(partner)).not.toMatch(/Partner Portal|Internal title/);
    expect(partner).not.toContain('data-audience');
  });
});

describe('page links of the not-found page', () => {
  it('include its "Start here" links, searched whole', () => {
    const html = Buffer.from(renderer.notFound(), 'utf8');
    expect(cut(html, INTERNAL)).toContain('Internal title'); // body links are not searched by default
    const text = cut(html, INTERNAL, [], true);
    expect(text).not.toMatch(/Internal title|Runbook/);
    expect(text).toMatch(/<h2 id="start-here">Start here<\/h2><ul><li><a href="\/">Welcome<\/a><\/li><li><a href="\/setup">Setup<\/a><\/li><li><a href="\/after">After<\/a><\/li>/);
  });
});
