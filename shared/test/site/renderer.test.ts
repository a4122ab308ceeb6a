import { describe, expect, it } from 'vitest';
import { createSiteRenderer, siteThemeCss, SITE_CSS_FILES, SITE_JS_FILES, THEME_JS_FILE } from '../../src/site/index';
import type { NavNode } from '../../src/docs/types';
import { SAMPLE_BODY, SAMPLE_TOC, sampleNav, sampleSite } from './sample-site';

const assets = { css: '/_quire/assets/site.abc123.css', js: '/_quire/assets/site.abc123.js', themeJs: '/_quire/assets/theme.abc123.js' };
const renderer = (over: Partial<Parameters<typeof createSiteRenderer>[0]> = {}) =>
  createSiteRenderer({ site: sampleSite(), nav: sampleNav(), assets, siteCss: '/_quire/assets/theme-9f8e7d.css', ...over });
const apiKeys = { path: 'concepts/auth/api-keys', title: 'API keys', description: 'Authenticate requests.', html: SAMPLE_BODY, toc: SAMPLE_TOC };

/** The opening tags of the elements whose attributes contain `needle`. */
const tagsWith = (html: string, needle: string) => (html.match(/<[a-z][^>]*>/g) ?? []).filter((t) => t.includes(needle));
/** Markup with attribute values blanked, so text inside values cannot look like an attribute. */
const tagsOnly = (html: string) => html.replace(/"[^"]*"/g, '""');
const sidebarOf = (html: string) => html.slice(html.indexOf('<aside class="q-sidebar"'), html.indexOf('</aside>'));

describe('page document', () => {
  const html = renderer().page(apiKeys);

  it('has the head a browser and a search engine need', () => {
    expect(html.startsWith('<!doctype html><html lang="en"')).toBe(true);
    expect(html).toContain('<meta charset="utf-8">');
    expect(html).toContain('<meta name="viewport" content="width=device-width, initial-scale=1">');
    expect(html).toContain('<title>API keys - Acme</title>');
    expect(html).toContain('<meta name="description" content="Authenticate requests.">');
    expect(html).not.toContain('rel="canonical"');
  });

  it('loads the hashed assets: blocking theme script, stylesheets, deferred site script', () => {
    const head = html.slice(0, html.indexOf('</head>'));
    expect(head).toContain('<script src="/_quire/assets/theme.abc123.js"></script>');
    expect(head).toContain('<link rel="stylesheet" href="/_quire/assets/site.abc123.css">');
    expect(head).toContain('<link rel="stylesheet" href="/_quire/assets/theme-9f8e7d.css">');
    expect(head).toContain('<script defer src="/_quire/assets/site.abc123.js"></script>');
    expect(head.indexOf('theme.abc123.js')).toBeLessThan(head.indexOf('site.abc123.css'));
  });

  it('has landmarks and a skip link to the main content as the first focusable element', () => {
    const body = html.slice(html.indexOf('<body>') + 6);
    expect(body.startsWith('<a class="q-skip" href="#content">Skip to content</a>')).toBe(true);
    expect(html).toMatch(/<main [^>]*id="content"/);
    expect(html).toContain('<header class="q-header">');
    expect(html).toContain('<nav class="q-nav" aria-label="Documentation">');
    expect(html).toMatch(/<aside class="q-sidebar"[^>]*aria-label="Sidebar"/);
    expect(html).toContain('<footer class="q-footer">');
    expect((html.match(/<main\b/g) ?? []).length).toBe(1);
    expect((html.match(/<h1\b/g) ?? []).length).toBe(1);
  });

  it('wraps the page body under the title, with the group as eyebrow, the page actions after the title, and the description as lead', () => {
    // the actions follow the title in reading order (on phones they show under it, not above it)
    expect(html).toMatch(/<header class="q-page-header"><p class="q-eyebrow">Authentication<\/p><h1 class="q-title">API keys<\/h1><div class="q-pa" data-q-page-actions[\s\S]*?<\/div><p class="q-lead">Authenticate requests\.<\/p><\/header>/);
    expect(html).toContain(`<div class="q-prose">${SAMPLE_BODY}</div>`);
  });

  it('marks exactly the current page in the sidebar and opens its nested group', () => {
    const current = tagsWith(html, 'aria-current="page"');
    expect(current).toEqual(['<a class="q-nav-link" href="/concepts/auth/api-keys" aria-current="page">']);
    expect(html).toMatch(/<details open><summary class="q-nav-summary">[^]*?Authentication/);
    expect(html).toMatch(/<details><summary class="q-nav-summary">[^]*?Deployments/);
  });

  it('shows the tabs with the current one marked, and only the current tab\'s pages in the sidebar', () => {
    expect(html).toContain('<a class="q-tab" href="/" aria-current="true"><span>Guides</span></a>');
    expect(html).toContain('<a class="q-tab" href="/api/users/list"><span>API reference</span></a>');
    expect(html).toMatch(/<a class="q-tab" href="https:\/\/status\.acme\.test" rel="noopener" target="_blank">/);
    const sidebar = sidebarOf(html);
    expect(sidebar).toContain('Quickstart');
    expect(sidebar).not.toContain('List users');
    expect(sidebar).not.toContain('Secret page');
  });

  it('lists anchors at the top of the sidebar, external ones opening a new tab', () => {
    expect(html).toMatch(/<a class="q-anchor-link" href="\/" aria-current="true">[^]*?Documentation/);
    expect(html).toMatch(/<a class="q-anchor-link" href="https:\/\/discord\.gg\/acme" rel="noopener" target="_blank">/);
  });

  it('links the previous and next pages of the same section', () => {
    expect(html).toMatch(/<a class="q-pager-card q-pager-prev" href="\/concepts\/projects" rel="prev">[^]*?Projects/);
    expect(html).toMatch(/<a class="q-pager-card q-pager-next" href="\/concepts\/auth\/oauth" rel="next">[^]*?OAuth/);
  });

  it('renders the table of contents as a rail and as a disclosure for small screens', () => {
    const links = html.match(/<a href="#[^"]+" data-q-toc>[^<]+<\/a>/g) ?? [];
    expect(links).toHaveLength(SAMPLE_TOC.length * 2);
    expect(html).toContain('<li class="q-toc-d3"><a href="#scopes" data-q-toc>Scopes</a></li>');
    expect(html).toContain('<details class="q-toc-mobile">');
    expect(html).toContain('<aside class="q-toc" aria-labelledby="q-toc-title">');
  });

  it('asks whether the page was helpful and offers the search button with its shortcut', () => {
    expect(html).toContain('Was this page helpful?');
    expect(tagsWith(html, 'data-q-feedback-value')).toHaveLength(2);
    expect(html).toMatch(/<button class="q-search-btn"[^>]*>[^]*?<kbd class="q-kbd">Ctrl K<\/kbd>/);
    expect(html).not.toMatch(/q-search-results[^]*?<a /);
  });

  it('shows navbar links, the primary button and footer from the config', () => {
    expect(html).toContain('<a class="q-navbar-link" href="mailto:help@acme.test">');
    expect(html).toMatch(/<a class="q-navbar-primary" href="https:\/\/app\.acme\.test"[^>]*>Dashboard/);
    // social links are icons named by the network
    expect(html).toMatch(/<a class="q-social" href="https:\/\/github.com\/acme" rel="noopener" target="_blank" aria-label="GitHub" title="GitHub"><svg class="q-icon q-social-icon"[^>]*fill="currentColor"/);
    expect(html).toContain('<p class="q-footer-heading">Company</p>');
    expect(html).toContain('Built with Quire');
  });

  it('repeats the navbar links and the primary button at the top of the phone drawer, above the navigation', () => {
    const drawer = sidebarOf(html);
    const links = drawer.slice(drawer.indexOf('class="q-drawer-links"'), drawer.indexOf('<nav class="q-nav"'));
    expect(drawer.indexOf('class="q-drawer-links"')).toBeGreaterThan(drawer.indexOf('class="q-drawer-head"'));
    expect(links).toMatch(/<a class="q-drawer-link" href="mailto:help@acme\.test"><span>Support<\/span><\/a>/);
    expect(links).toMatch(/<a class="q-drawer-link" href="https:\/\/acme\.test\/blog" rel="noopener" target="_blank"><span>Blog<\/span>/);
    expect(links).toMatch(/<a class="q-drawer-primary" href="https:\/\/app\.acme\.test"[^>]*>Dashboard/);
    const none = renderer({ site: sampleSite({ navbar: { links: [] } }) }).page(apiKeys);
    expect(none).not.toContain('q-drawer-links');
  });

  it('names the Ask AI panel from its button but leaves the panel to the site script (not sent with every page)', async () => {
    expect(html).toMatch(/<button class="q-ask-btn"[^>]*aria-controls="q-ask"[^>]*aria-label="Ask AI"/);
    expect(html).not.toContain('<dialog class="q-ask-dialog"');
    const { readFile } = await import('node:fs/promises');
    const script = await readFile(new URL('../../src/site/assets/ask-ai.js', import.meta.url), 'utf8');
    expect(script).toContain('<dialog class="q-ask-dialog" id="q-ask" aria-label="Ask AI"');
    expect(script).toContain('<label class="q-visually-hidden" for="q-ask-input">Your question</label>');
  });

  it('contains no inline script and no inline event handler (CSP: only the site\'s own scripts)', () => {
    for (const doc of [html, renderer().notFound()]) {
      expect(doc).not.toMatch(/<script(?![^>]*\ssrc=)[^>]*>/);
      expect(tagsOnly(doc)).not.toMatch(/<[^>]+\son\w+=/i);
      expect(doc).not.toMatch(/javascript:/i);
    }
  });
});

describe('page options', () => {
  it('adds "Edit this page", the last-updated date and noindex for hidden pages', () => {
    const html = renderer({ editBaseUrl: 'https://github.com/acme/docs/edit/main/docs' }).page({
      ...apiKeys, filePath: 'concepts/auth/api-keys.md', lastUpdated: '2025-03-14T10:00:00Z', hidden: true,
    });
    expect(html).toContain('href="https://github.com/acme/docs/edit/main/docs/concepts/auth/api-keys.md"');
    expect(html).toContain('Last updated <time datetime="2025-03-14T10:00:00.000Z">March 14, 2025</time>');
    expect(html).toContain('<meta name="robots" content="noindex">');
  });

  it('has no edit link without editBaseUrl and no rail without toc entries', () => {
    const html = renderer().page({ ...apiKeys, toc: [] });
    expect(html).not.toContain('Edit this page');
    expect(html).not.toContain('q-toc');
  });

  it('serves the home page at the base path and prefixes every internal link with it', () => {
    const html = renderer({ basePath: '/v1/' }).page({ path: 'index', title: 'Introduction', html: '<p>Hi</p>', toc: [] });
    expect(tagsWith(html, 'aria-current="page"')[0]).toContain('href="/v1/"');
    expect(html).toContain('<a class="q-pager-card q-pager-next" href="/v1/quickstart" rel="next">');
    expect(html).not.toContain('q-pager-prev');
  });

  it('shows a version switcher for the site\'s versions with the current one selected', () => {
    const site = sampleSite({ versioning: { versions: [{ label: 'v2', default: true }, { label: 'v1' }] } });
    const html = renderer({ site, basePath: '/v1' }).page(apiKeys);
    expect(html).toContain('<a href="/concepts/auth/api-keys?_quire_from=switcher"><span class="q-switcher-text"><span class="q-switcher-title">v2');
    expect(html).toContain('<a href="/v1/concepts/auth/api-keys?_quire_from=switcher" aria-current="true">');
  });

  it('shows OpenAPI pages with method badges and their own tab\'s sidebar', () => {
    const html = renderer().page({ path: 'api/users/create', title: 'Create a user', html: '<p>x</p>', toc: [] });
    expect(html).toContain('<span class="q-method q-method-post">POST</span>');
    expect(html).toContain('<span class="q-method q-method-delete">DEL</span>');
    expect(html).toContain('<a class="q-tab" href="/api/users/list" aria-current="true">');
    expect(sidebarOf(html)).not.toContain('Quickstart');
  });

  it('puts a page outside the navigation in the home page\'s section without marking anything', () => {
    const html = renderer().page({ path: 'orphan', title: 'Orphan', html: '<p>x</p>', toc: [] });
    expect(tagsWith(html, 'aria-current="page"')).toEqual([]);
    expect(sidebarOf(html)).toContain('Quickstart');
  });

  it('keeps a description that is not a lead in the meta tags only (OpenAPI pages show it in the body)', () => {
    const page = renderer().page({ ...apiKeys, lead: false });
    expect(page).toContain('<meta name="description" content="Authenticate requests.">');
    expect(page).not.toContain('q-lead');
    expect(page.split('Authenticate requests.')).toHaveLength(3); // meta description and og:description
    expect(renderer().page(apiKeys)).toContain('<p class="q-lead">Authenticate requests.</p>');
  });

  it('emits only the logo that can show when the appearance is forced (no request for the other one)', () => {
    const logo = { light: '/logo/light.svg', dark: '/logo/dark.svg' };
    const dark = renderer({ site: sampleSite({ logo, appearance: { default: 'dark', strict: true } }) }).page(apiKeys);
    expect(tagsWith(dark, 'q-logo-img')).toEqual(['<img class="q-logo-img" src="/logo/dark.svg" alt="Acme" height="28">']);
    expect(dark).not.toContain('/logo/light.svg');
    const light = renderer({ site: sampleSite({ logo, appearance: { default: 'light', strict: true } }) }).notFound();
    expect(tagsWith(light, 'q-logo-img')).toEqual(['<img class="q-logo-img" src="/logo/light.svg" alt="Acme" height="28">']);
    const switchable = renderer({ site: sampleSite({ logo, appearance: { default: 'dark' } }) }).page(apiKeys);
    expect(tagsWith(switchable, 'q-logo-img')).toHaveLength(2);
  });

  it('uses the light/dark logo and favicons from the config', () => {
    const site = sampleSite({ logo: { light: '/logo/light.svg', dark: '/logo/dark.svg' }, favicon: { light: '/fav.svg', dark: '/fav-dark.svg' } });
    const html = renderer({ site }).page(apiKeys);
    expect(html).toContain('<img class="q-logo-img q-only-light" src="/logo/light.svg" alt="Acme"');
    expect(html).toContain('<img class="q-logo-img q-only-dark" src="/logo/dark.svg" alt="Acme"');
    expect(html).toContain('<link rel="icon" href="/fav.svg" media="(prefers-color-scheme: light)">');
    expect(html).toContain('<link rel="icon" href="/fav-dark.svg" media="(prefers-color-scheme: dark)">');
  });

  it('starts in dark mode when the config says so and hides the toggle when strict', () => {
    const html = renderer({ site: sampleSite({ appearance: { default: 'dark', strict: true } }) }).page(apiKeys);
    expect(html).toMatch(/^<!doctype html><html lang="en" data-default-theme="dark" data-theme-strict data-theme="dark">/);
    expect(html).not.toContain('data-q-theme-toggle');
    expect(renderer().page(apiKeys)).toContain('data-q-theme-toggle');
  });
});

describe('navigation edge cases', () => {
  const nav = (): NavNode[] => [
    {
      type: 'group', title: 'Guides', children: [
        { type: 'page', path: 'start', title: 'Start' },
        { type: 'group', title: 'Deploying', root: 'deploy', children: [{ type: 'page', path: 'deploy/vercel', title: 'Vercel' }] },
        { type: 'page', path: 'draft', title: 'Draft', hidden: true },
      ],
    },
  ];
  const r = () => createSiteRenderer({ site: sampleSite(), nav: nav(), assets, siteCss: '/t.css' });

  it('treats a group root page as the group\'s first page: current, open, in reading order', () => {
    const html = r().page({ path: 'deploy', title: 'Deploying', html: '', toc: [] });
    expect(html).toContain('<a class="q-nav-group-root" href="/deploy" aria-current="page">');
    expect(html).toMatch(/<details open><summary class="q-nav-summary"><a class="q-nav-group-root"/);
    expect(html).toContain('<a class="q-pager-card q-pager-prev" href="/start" rel="prev">');
    expect(html).toContain('<a class="q-pager-card q-pager-next" href="/deploy/vercel" rel="next">');
  });

  it('renders a hidden page with its section\'s sidebar but does not list it or link it as next', () => {
    const html = r().page({ path: 'draft', title: 'Draft', html: '', toc: [], hidden: true });
    expect(html).toContain('<p class="q-eyebrow">Guides</p>');
    expect(sidebarOf(html)).not.toContain('>Draft<');
    const vercel = r().page({ path: 'deploy/vercel', title: 'Vercel', html: '', toc: [] });
    expect(vercel).not.toContain('q-pager-next');
  });

  it('shows a dismissible banner and config icons given as image paths', () => {
    const site = sampleSite({ banner: { content: 'v2 is out <b>now</b>', dismissible: true } });
    const withIcon: NavNode[] = [{ type: 'group', title: 'G', icon: '/icons/rocket.svg', children: [{ type: 'page', path: 'a', title: 'A' }] }];
    const html = createSiteRenderer({ site, nav: withIcon, assets, siteCss: '/t.css' }).page({ path: 'a', title: 'A', html: '', toc: [] });
    expect(html).toContain('<div class="q-banner" data-q-banner><p>v2 is out &lt;b&gt;now&lt;/b&gt;</p><button');
    expect(html).toContain('data-q-banner-close');
    expect(html).toContain('<img class="q-icon" src="/icons/rocket.svg" alt=""');
  });
});

describe('escaping', () => {
  const evil = '"><script>alert(1)</script><img src=x onerror=alert(2)>';
  it('escapes titles, descriptions, config labels and refuses dangerous hrefs', () => {
    const nav: NavNode[] = [
      { type: 'group', title: evil, children: [{ type: 'page', path: 'a', title: evil }, { type: 'page', path: 'b', title: 'B' }] },
      { type: 'link', title: 'bad', href: 'javascript:alert(3)' },
    ];
    const site = sampleSite({
      name: evil,
      description: evil,
      navbar: { links: [{ label: evil, href: 'java\tscript:alert(4)' }], primary: { label: 'x', href: 'data:text/html,<script>alert(5)</script>' } },
      footer: { socials: [{ type: evil, href: '//evil.test' }], links: [] },
      logo: { light: 'javascript:alert(6)', dark: '/d.svg' },
    });
    const r = createSiteRenderer({ site, nav, assets, siteCss: '/t.css' });
    for (const html of [r.page({ path: 'a', title: evil, description: evil, html: '<p>ok</p>', toc: [{ depth: 2, id: 'x"y', text: evil }] }), r.notFound()]) {
      expect(html).not.toContain('<script>alert');
      expect(html).not.toMatch(/<img src=x/);
      expect(html).not.toMatch(/href="(javascript|java\tscript|data):/i);
      expect(html).not.toContain('href="//evil.test"');
      expect(html).not.toMatch(/src="javascript:/);
      expect(tagsOnly(html)).not.toMatch(/<[^>]+\son\w+=/i);
    }
    const page = r.page({ path: 'a', title: evil, html: '', toc: [] });
    expect(page).toContain('<title>&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;');
  });
});

describe('404 page', () => {
  it('keeps the chrome, says the page is missing and links home and the first pages', () => {
    const html = renderer().notFound();
    expect(html).toContain('<title>Page not found - Acme</title>');
    expect(html).toContain('<meta name="robots" content="noindex">');
    expect(html).toContain('<h1 class="q-title">Page not found</h1>');
    expect(html).toContain('<a class="q-button" href="/">Go to the home page</a>');
    expect(html).toContain('<li><a href="/quickstart">Quickstart</a></li>');
    expect(html).toContain('<nav class="q-nav" aria-label="Documentation">');
    expect(tagsWith(html, 'aria-current="page"')).toEqual([]);
  });
});

describe('siteThemeCss and asset lists', () => {
  it('turns the config colors into tokens and derives missing variants', () => {
    expect(siteThemeCss(sampleSite())).toContain(':root{--q-primary:#0E7C66;--q-primary-light:#3DD6B0;--q-primary-dark:#0A5E4E;--q-primary-fg:#ffffff}');
    const derived = siteThemeCss(sampleSite({ colors: { primary: '#ff0000', background: { dark: '#0b0b0f' } } }));
    expect(derived).toContain('--q-primary-light:#ff6161');
    expect(derived).toContain('--q-primary-dark:#d10000');
    expect(derived).toContain('html[data-theme="dark"]{--q-bg:#0b0b0f}');
    const named = siteThemeCss(sampleSite({ colors: { primary: 'rebeccapurple' } }));
    expect(named).toContain('--q-primary-light:color-mix(in srgb, rebeccapurple 62%, #fff)');
  });

  it('picks readable text for filled buttons: dark text on a pale brand color, white on a deep one', () => {
    const pale = siteThemeCss(sampleSite({ colors: { primary: '#FACC15', dark: '#FDE047', light: '#FEF08A' } }));
    expect(pale).toContain('--q-primary-fg:#0b0e12}');
    expect(pale).toContain('html[data-theme="dark"]{--q-primary-fg:#0b0e12}');
    const deep = siteThemeCss(sampleSite({ colors: { primary: '#1E3A8A', light: '#1E40AF' } }));
    expect(deep).toContain('html[data-theme="dark"]{--q-primary-fg:#ffffff}');
  });

  it('refuses color values that could break out of the stylesheet', () => {
    const css = siteThemeCss(sampleSite({ colors: { primary: 'red;}body{display:none', light: 'url(x)' } }));
    expect(css).not.toContain('body{display:none');
    expect(css).not.toContain('url(');
    expect(css).toContain('--q-primary:#0d9373');
  });

  it('names the asset files in concatenation order, tokens first', () => {
    expect(SITE_CSS_FILES.slice(0, 4)).toEqual(['tokens.css', 'layout.css', 'components.css', 'code.css']);
    expect(SITE_CSS_FILES).toEqual(expect.arrayContaining(['openapi.css', 'search.css', 'ask-ai.css']));
    expect(SITE_JS_FILES[0]).toBe('site.js');
    expect(SITE_JS_FILES).toEqual(expect.arrayContaining(['components.js', 'media.js', 'playground.js', 'search.js', 'ask-ai.js']));
    expect(THEME_JS_FILE).toBe('theme.js');
  });
});
