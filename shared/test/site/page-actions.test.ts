import { describe, expect, it } from 'vitest';
import type { ContextualOption } from '../../src/docs/types';
import { createSiteRenderer } from '../../src/site/index';
import { sampleNav, sampleSite } from './sample-site';

/** The page actions beside the title as the theme renders them (page-actions.ts). */

const render = (contextual?: ContextualOption[], basePath?: string) =>
  createSiteRenderer({
    site: sampleSite(contextual ? { contextual } : {}),
    nav: sampleNav(),
    assets: { css: '/a.css', js: '/a.js', themeJs: '/t.js' },
    siteCss: '/s.css',
    ...(basePath ? { basePath } : {}),
  });
const headerOf = (html: string) => html.slice(html.indexOf('<header class="q-page-header">'), html.indexOf('</header>', html.indexOf('<header class="q-page-header">')));
const page = (renderer: ReturnType<typeof render>, path = 'guides/setup') => headerOf(renderer.page({ path, title: 'Setup', html: '<p>x</p>', toc: [] }));

describe('page actions', () => {
  it('offers copy, view, ChatGPT and Claude by default, as a menu button and menu items', () => {
    const header = page(render());
    expect(header).toContain('<button type="button" class="q-pa-primary" data-q-pa="copy">');
    expect(header).toMatch(/<button type="button" class="q-pa-toggle" aria-haspopup="menu" aria-expanded="false" aria-controls="q-pa-menu" aria-label="More page actions">/);
    expect(header).toContain('role="menu" aria-label="Page actions" hidden');
    const items = [...header.matchAll(/role="menuitem"[^>]*data-q-pa="([a-z]+)"/g)].map((m) => m[1]);
    expect(items).toEqual(['copy', 'view', 'chatgpt', 'claude']);
    expect(header).toContain('data-q-md="/guides/setup.md"');
    expect(header).toContain('href="/guides/setup.md"');
  });

  it("follows the configured options, and links a version's own Markdown", () => {
    const header = page(render([{ id: 'view' }, { id: 'mcp' }, { id: 'custom', title: 'Ask Acme', href: 'https://ask.acme.test/?p=$path' }], '/v1'));
    expect(header).toContain('<a class="q-pa-primary" href="/v1/guides/setup.md"');
    const items = [...header.matchAll(/role="menuitem"[^>]*data-q-pa="([a-z]+)"/g)].map((m) => m[1]);
    expect(items).toEqual(['view', 'mcp', 'custom']);
    expect(header).toContain('href="/_quire/mcp"');
    expect(header).toContain('href="https://ask.acme.test/?p=/guides/setup"');
    expect(header).toContain('Ask Acme');
  });

  it('shows none when the options are an empty list, and none on the 404 page', () => {
    expect(page(render([]))).not.toContain('data-q-page-actions');
    expect(headerOf(render().notFound())).not.toContain('data-q-page-actions');
  });
});
