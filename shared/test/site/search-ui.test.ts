import { describe, expect, it } from 'vitest';
import { createSiteRenderer, SITE_CSS_FILES, SITE_JS_FILES } from '../../src/site/index';
import { baseOfMarker, didYouMeanMarker, DID_YOU_MEAN_MARK, renderDidYouMean } from '../../src/site/not-found';
import { sampleNav, sampleSite } from './sample-site';

/** The markup of the site search (button, dialog, version scope) and of the 404 page's search and "Did you mean". */

const assets = { css: '/_quire/assets/site.abc123.css', js: '/_quire/assets/site.abc123.js', themeJs: '/_quire/assets/theme.abc123.js' };
const renderer = (basePath?: string) => createSiteRenderer({ site: sampleSite(), nav: sampleNav(), assets, siteCss: '/_quire/assets/theme-9f8e7d.css', basePath });
const page = { path: 'index', title: 'Introduction', html: '<p>Hi</p>', toc: [] };

describe('search button and dialog', () => {
  const html = renderer().page(page);

  it('puts a "Search" button with its Ctrl K hint in the top bar', () => {
    const header = html.slice(html.indexOf('<header'), html.indexOf('</header>'));
    expect(header).toMatch(/<button class="q-search-btn" type="button" data-q-search-open aria-haspopup="dialog" aria-controls="q-search" aria-label="Search"[^>]*>/);
    expect(header).toContain('<kbd class="q-kbd">Ctrl K</kbd>');
  });

  it('has one labelled modal dialog with a combobox controlling a listbox, and no browser clear button', () => {
    expect(html.match(/<dialog class="q-search-dialog"/g)).toHaveLength(1);
    expect(html).toMatch(/<dialog class="q-search-dialog" id="q-search" aria-modal="true" aria-labelledby="q-search-title"/);
    expect(html).toContain('<h2 class="q-visually-hidden" id="q-search-title">Search the documentation</h2>');
    const input = html.match(/<input [^>]*id="q-search-input"[^>]*>/)![0];
    expect(input).toContain('type="text"');
    expect(input).toContain('role="combobox"');
    expect(input).toContain('aria-controls="q-search-list"');
    expect(html).toMatch(/<div class="q-search-list" id="q-search-list" role="listbox" aria-label="Search results" hidden><\/div>/);
    expect(html).toContain('role="status"');
    expect(html).toMatch(/<button [^>]*data-q-search-close aria-label="Close search">/);
  });

  it('ships its behaviour and look as site assets (no inline script)', () => {
    expect(SITE_JS_FILES).toContain('search.js');
    expect(SITE_CSS_FILES).toContain('search.css');
    expect(html).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
    expect(html).not.toMatch(/\son[a-z]+="/);
  });

  it('names the version being read on <html>, for a deployment under a version path only', () => {
    expect(renderer('/v2').page(page)).toMatch(/^<!doctype html><html [^>]*data-version="v2"/);
    expect(html.slice(0, html.indexOf('>', 20))).not.toContain('data-version');
  });
});

describe('404 page', () => {
  it('has a search box and the marker site hosting fills with "Did you mean" links', () => {
    const html = renderer().notFound();
    const main = html.slice(html.indexOf('<main'), html.indexOf('</main>'));
    expect(main).toMatch(/<button class="q-search-btn q-search-btn-inline"[^>]*aria-label="Search the documentation"/);
    expect(main).toContain(`${DID_YOU_MEAN_MARK}-->`);
    expect(renderer('/v1').notFound()).toContain(`${DID_YOU_MEAN_MARK}/v1-->`);
  });

  it('carries a base path through the marker unchanged', () => {
    for (const base of ['', '/v1', '/2.0-beta', '/a&b']) {
      const marker = didYouMeanMarker(base);
      expect(marker.slice(DID_YOU_MEAN_MARK.length, -3)).not.toMatch(/--|>/);
      expect(baseOfMarker(marker.slice(DID_YOU_MEAN_MARK.length, -3))).toBe(base);
    }
  });

  it('links each suggestion under the base path, titles escaped', () => {
    const html = renderDidYouMean('/v1', [{ path: 'guides/setup', title: 'Set <up>' }, { path: 'index' }]);
    expect(html).toContain('<section class="q-suggest" aria-label="Did you mean"><h2>Did you mean</h2>');
    expect(html).toContain('<a href="/v1/guides/setup">Set &lt;up&gt;</a>');
    expect(html).toContain('<a href="/v1/">/</a>');
    expect(renderDidYouMean('', [])).toBe('');
  });
});
