import { describe, expect, it } from 'vitest';
import type { NavNode, SiteConfig } from '@quire/shared/docs/types';
import { createSiteRenderer } from '@quire/shared/site/index';
import { cutForVisitor, findAudienceMarks, variantKey } from '../../src/sites/audience-variants';

/**
 * Per-visitor variants of built pages (audience-variants.ts): what each visitor's copy of a page
 * document built by the theme shows, cut from the one file the builder wrote.
 */

const nav: NavNode[] = [
  {
    type: 'group', title: 'Start', children: [
      { type: 'page', path: 'index', title: 'Welcome' },
      { type: 'page', path: 'partners', title: 'Partner Portal' },
      { type: 'page', path: 'setup', title: 'Setup' },
    ],
  },
  {
    type: 'group', title: 'Outer', children: [
      { type: 'group', title: 'Staff room', root: 'staff', children: [{ type: 'page', path: 'staff/rota', title: 'Rota' }] },
      { type: 'page', path: 'public-too', title: 'Public too' },
    ],
  },
];
const audiences = { partners: ['partners'], staff: ['staff'], 'staff/rota': ['staff'] };
const site: SiteConfig = {
  source: 'docs.json', name: 'Acme', colors: { primary: '#0E7C66' }, navbar: { links: [] }, footer: { socials: [], links: [] },
  redirects: [], variables: {}, navigation: [], openapi: [], raw: {},
};
const renderer = createSiteRenderer({
  site,
  nav,
  assets: { css: '/a.css', js: '/a.js', themeJs: '/t.js' },
  siteCss: '/s.css',
  audiences,
});
/** A built page whose body (repository content) carries its own data-audience attributes. */
const body = '<div data-audience="partners"><p>AUTHOR-BLOCK</p></div><ul><li data-audience="x">AUTHOR-ITEM</li></ul>';
const html = Buffer.from(renderer.page({ path: 'setup', title: 'Setup', html: body, toc: [] }), 'utf8');
const marks = findAudienceMarks(html)!;
const text = (tags: string[]) => cutForVisitor(html, marks, tags).toString('utf8');

describe('variants of a built page', () => {
  it('shows an anonymous visitor no gated entry, and no tag', () => {
    const anonymous = text([]);
    expect(anonymous).not.toMatch(/Partner Portal|Rota|href="\/staff"/);
    expect(anonymous).toContain('Public too');
    // a group of gated pages only goes as a whole
    expect(anonymous).not.toContain('Staff room');
    expect(anonymous.replace(body, '')).not.toContain('data-audience');
  });

  it('shows each visitor the entries their tags open', () => {
    const partner = text(['partners']);
    expect(partner).toContain('Partner Portal');
    expect(partner).not.toMatch(/Rota|href="\/staff"/);
    const staff = text(['staff', 'unrelated']);
    expect(staff).toMatch(/<a class="q-nav-group-root" href="\/staff">/);
    expect(staff).toContain('Rota');
    expect(staff).not.toContain('Partner Portal');
    // the group's title shows once in the sidebar: as the link to its root page
    const sidebar = staff.slice(staff.indexOf('<aside'), staff.indexOf('</aside>'));
    expect(sidebar.match(/Staff room/g)).toHaveLength(1);
  });

  it('keeps the title of a group with public pages whose root page is gated, without its link', () => {
    const mixed = createSiteRenderer({
      site,
      nav: [{ type: 'group', title: 'Outer', children: [{ type: 'group', title: 'Mixed', root: 'mixed', children: [{ type: 'page', path: 'mixed/open', title: 'Open page' }] }] }],
      assets: { css: '/a.css', js: '/a.js', themeJs: '/t.js' },
      siteCss: '/s.css',
      audiences: { mixed: ['staff'] },
    }).page({ path: 'mixed/open', title: 'Open page', html: '', toc: [] });
    const file = Buffer.from(mixed, 'utf8');
    const sidebarOf = (tags: string[]) => {
      const v = cutForVisitor(file, findAudienceMarks(file)!, tags).toString('utf8');
      return v.slice(v.indexOf('<aside'), v.indexOf('</aside>'));
    };
    expect(sidebarOf([])).toMatch(/<span class="q-nav-group-root"><span class="q-nav-text">Mixed<\/span><\/span>/);
    expect(sidebarOf([])).not.toContain('href="/mixed"');
    expect(sidebarOf(['staff'])).toMatch(/<a class="q-nav-group-root" href="\/mixed"><span class="q-nav-text">Mixed<\/span><\/a>/);
    expect(sidebarOf(['staff']).match(/Mixed/g)).toHaveLength(1);
  });

  it("leaves the page body alone: an author's own data-audience cuts nothing", () => {
    for (const tags of [[], ['partners'], ['x']]) {
      const page = text(tags);
      expect(page).toContain(body);
    }
  });

  it('keys variants by the tags the file names only', () => {
    expect(variantKey(marks, [])).toBe('');
    expect(variantKey(marks, ['unrelated'])).toBe('');
    expect(variantKey(marks, ['staff', 'unrelated'])).toBe('staff');
    expect(variantKey(marks, ['staff', 'partners'])).toBe(variantKey(marks, ['partners', 'staff', 'partners']));
  });

  it('finds nothing in a file without marks, and ignores an unclosed element', () => {
    expect(findAudienceMarks(Buffer.from('<html><body><p>plain</p></body></html>'))).toBeNull();
    const broken = Buffer.from('<nav><li data-audience="a">never closed <li>x</nav>');
    expect(findAudienceMarks(broken)).toBeNull();
    const nested = Buffer.from('<ul><li data-audience="a"><abbr>A</abbr><ul><li>inner</li></ul></li><li>after</li></ul>');
    const m = findAudienceMarks(nested)!;
    expect(cutForVisitor(nested, m, []).toString()).toBe('<ul><li>after</li></ul>');
    expect(cutForVisitor(nested, m, ['a']).toString()).toBe('<ul><li><abbr>A</abbr><ul><li>inner</li></ul></li><li>after</li></ul>');
  });
});
