import { describe, expect, it } from 'vitest';
import type { NavNode } from '../../src/docs/types';
import { audienceAttrs, decodeAudienceTags, encodeAudienceTags, opensAudience } from '../../src/site/audience';
import { renderGateArticle, renderPreviewAccessArticle, renderStandaloneGateDocument } from '../../src/site/gate-page';
import { createSiteRenderer } from '../../src/site/index';
import { sampleSite } from './sample-site';

/**
 * Gated pages in the built chrome (decisions.md section 6): every entry naming a gated page carries
 * the tags that open it, so site hosting can leave it out per visitor; the gate form never shows
 * the page.
 */

const assets = { css: '/_quire/assets/site.abc.css', js: '/_quire/assets/site.abc.js', themeJs: '/_quire/assets/theme.abc.js' };

const nav: NavNode[] = [
  {
    type: 'division', kind: 'tab', title: 'Guides', children: [
      {
        type: 'group', title: 'Start', children: [
          { type: 'page', path: 'index', title: 'Welcome' },
          { type: 'page', path: 'partners', title: 'Partner Portal' },
          { type: 'page', path: 'internal', title: 'Internal Runbook' },
          { type: 'page', path: 'setup', title: 'Setup' },
        ],
      },
      { type: 'group', title: 'Secret group', children: [{ type: 'page', path: 'vault', title: 'Vault' }] },
      { type: 'group', title: 'Rooted', root: 'rooted', children: [{ type: 'page', path: 'rooted/child', title: 'Child' }] },
    ],
  },
  { type: 'division', kind: 'tab', title: 'Partners only', children: [{ type: 'group', title: 'P', children: [{ type: 'page', path: 'p/one', title: 'P one' }] }] },
];
const audiences = { partners: ['partners'], internal: ['internal', 'staff'], vault: ['internal'], rooted: ['partners'], 'p/one': ['partners'] };
const renderer = createSiteRenderer({ site: sampleSite(), nav, assets, siteCss: '/_quire/assets/theme-1.css', audiences });
const page = (path: string, title: string) => renderer.page({ path, title, html: '<p>body</p>', toc: [] });
const sidebarOf = (html: string) => html.slice(html.indexOf('<aside class="q-sidebar"'), html.indexOf('</aside>'));
const pagerOf = (html: string) => html.slice(html.indexOf('<nav class="q-pager"'), html.indexOf('</nav>', html.indexOf('<nav class="q-pager"')) + 6);

describe('audience attribute values', () => {
  it('round-trips any tag text, sorted and without duplicates', () => {
    const value = encodeAudienceTags(['staff', 'beta testers', "o'reilly", 'staff', 'ünï']);
    expect(value).not.toMatch(/["'<>&]/);
    expect(decodeAudienceTags(value).sort()).toEqual(['beta testers', "o'reilly", 'staff', 'ünï'].sort());
    expect(audienceAttrs(['a'], ['b c'])).toBe(' data-audience="a" data-audience-unless="b%20c"');
    expect(audienceAttrs(undefined, [])).toBe('');
  });

  it('opens a page to a visitor holding one of its tags, exactly', () => {
    expect(opensAudience(['staff'], ['internal', 'staff'])).toBe(true);
    expect(opensAudience(new Set(['Staff']), ['staff'])).toBe(false);
    expect(opensAudience([], ['staff'])).toBe(false);
    expect(opensAudience([], [])).toBe(true);
  });
});

describe('gated entries in the chrome', () => {
  const html = page('setup', 'Setup');
  const sidebar = sidebarOf(html);

  it('marks each gated page entry of the sidebar with its tags, and leaves public ones unmarked', () => {
    expect(sidebar).toMatch(/<li data-audience="partners"><a class="q-nav-link" href="\/partners">[^]*?Partner Portal/);
    expect(sidebar).toMatch(/<li data-audience="internal staff"><a class="q-nav-link" href="\/internal">[^]*?Internal Runbook/);
    expect(sidebar).toMatch(/<li><a class="q-nav-link" href="\/setup"/);
  });

  it('marks a group holding only gated pages as a whole', () => {
    expect(sidebar).toMatch(/<div class="q-nav-section" data-audience="internal">[^]*?Secret group/);
    expect(sidebar).not.toMatch(/<div class="q-nav-section" data-audience="[^"]*"><p class="q-nav-heading">Start/);
  });

  it('gives a group whose root page is gated a plain title for visitors who cannot open it', () => {
    expect(sidebar).toContain('<a class="" href="/rooted" data-audience="partners">');
    expect(sidebar).toMatch(/<span data-audience-unless="partners">[^]*?Rooted<\/span><\/span>/);
  });

  it('marks a tab whose pages are all gated, and leads other tabs to their first ungated page', () => {
    expect(html).toMatch(/<a class="q-tab" href="\/p\/one"[^>]* data-audience="partners">/);
    expect(html).toMatch(/<a class="q-tab" href="\/"[^>]*><span>Guides<\/span>/);
  });

  it('writes previous/next candidates up to the nearest ungated page, each for the visitors it is for', () => {
    const pager = pagerOf(page('index', 'Welcome'));
    // next: Partner Portal for partners; Internal Runbook for internal/staff who are not partners; Setup for the others
    expect(pager).toMatch(/<a class="q-pager-card q-pager-next" href="\/partners" rel="next" data-audience="partners">/);
    expect(pager).toMatch(/<a class="q-pager-card q-pager-next" href="\/internal" rel="next" data-audience="internal staff" data-audience-unless="partners">/);
    expect(pager).toMatch(/<a class="q-pager-card q-pager-next" href="\/setup" rel="next" data-audience-unless="internal partners staff">/);
    const fromSetup = pagerOf(page('setup', 'Setup'));
    expect(fromSetup).toMatch(/href="\/internal" rel="prev" data-audience="internal staff">/);
    expect(fromSetup).toMatch(/href="\/" rel="prev" data-audience-unless="internal partners staff">/);
  });

  it('never suggests a gated page on the not-found page', () => {
    const notFound = renderer.notFound();
    const main = notFound.slice(notFound.indexOf('<main'), notFound.indexOf('</main>'));
    expect(main).toContain('Setup');
    expect(main).not.toMatch(/Partner Portal|Internal Runbook|Vault/);
  });

  it('renders without marks when no page is gated', () => {
    const plain = createSiteRenderer({ site: sampleSite(), nav, assets, siteCss: '/_quire/assets/theme-1.css' }).page({ path: 'setup', title: 'Setup', html: '', toc: [] });
    expect(plain).not.toContain('data-audience');
  });
});

describe('gate pages', () => {
  it('offers the token form returning to the page, without anything of the page', () => {
    const article = renderGateArticle({ next: '/guides/"><script>' });
    expect(article).toContain('<form class="q-gate-form" method="post" action="/_quire/token">');
    expect(article).toContain('<label for="q-gate-token">Access token</label>');
    expect(article).toContain('name="next" value="/guides/&quot;&gt;&lt;script&gt;"');
    expect(article).not.toContain('<script');
    expect(renderGateArticle({ next: '/', error: 'invalid_token' })).toMatch(/role="alert">This access token is not valid/);
  });

  it('says clearly when a preview link expired or was revoked, and asks for a password when it has one', () => {
    expect(renderPreviewAccessArticle('expired')).toContain('This preview link has expired');
    expect(renderPreviewAccessArticle('revoked')).toContain('This preview link was revoked');
    const form = renderPreviewAccessArticle('password', { action: '/_quire/link/abc', wrongPassword: true });
    expect(form).toContain('action="/_quire/link/abc"');
    expect(form).toContain('That password is not correct');
    const doc = renderStandaloneGateDocument(form, { title: 'Protected preview' });
    expect(doc).toContain('<meta name="robots" content="noindex">');
    expect(doc).not.toContain('<script');
  });
});
