/**
 * The HTML document around the chrome: <head> (charset, viewport, title, description, favicons,
 * stylesheets, the blocking theme script and the deferred site script; no inline script, CSP-safe)
 * and the body skeleton (skip link, header, layout grid, footer, search dialog).
 */
import { playgroundDisplay } from '../docs/openapi/playground';
import type { SiteContext } from './context';
import { escapeHtml } from './escape';
import { renderFooter } from './footer';
import { icon } from './icons';
import { SEARCH_DIALOG_HTML, searchVersionAttr } from './search-ui';

/** The per-site static pieces of every document, computed once. */
export interface DocumentShell {
  /** `<!doctype html>...<head>` up to (excluding) <title> */
  open: string;
  /** after the title and meta: favicons, stylesheets, scripts, `</head><body>`, skip link, banner */
  headEnd: string;
  /** footer, search dialog, `</body></html>` */
  close: string;
}

/** Builds the shell for a site. */
export function createDocumentShell(ctx: SiteContext): DocumentShell {
  const { input, site } = ctx;
  const appearance = site.appearance?.default ?? 'system';
  const htmlAttrs =
    ` lang="en" data-default-theme="${escapeHtml(appearance)}"` +
    (site.appearance?.strict ? ' data-theme-strict' : '') +
    (appearance === 'dark' ? ' data-theme="dark"' : '') +
    // the API playground of OpenAPI pages (playground.js) works only when the config turns it on
    (playgroundDisplay(site.raw) === 'interactive' ? ' data-q-playground="interactive"' : '') +
    searchVersionAttr(ctx.base);
  const favLight = site.favicon && ctx.configHref(site.favicon.light);
  const favDark = site.favicon && ctx.configHref(site.favicon.dark || site.favicon.light);
  const favicons = favLight
    ? `<link rel="icon" href="${favLight}" media="(prefers-color-scheme: light)"><link rel="icon" href="${favDark ?? favLight}" media="(prefers-color-scheme: dark)">`
    : '';
  const banner = site.banner?.content
    ? `<div class="q-banner" data-q-banner><p>${escapeHtml(site.banner.content)}</p>${
        site.banner.dismissible ? `<button class="q-icon-btn" type="button" data-q-banner-close aria-label="Dismiss">${icon('close')}</button>` : ''
      }</div>`
    : '';
  return {
    open: `<!doctype html><html${htmlAttrs}><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">`,
    headEnd:
      `<meta name="generator" content="Quire">${favicons}` +
      `<script src="${escapeHtml(input.assets.themeJs)}"></script>` +
      `<link rel="stylesheet" href="${escapeHtml(input.assets.css)}"><link rel="stylesheet" href="${escapeHtml(input.siteCss)}">` +
      `<script defer src="${escapeHtml(input.assets.js)}"></script></head>` +
      `<body><a class="q-skip" href="#content">Skip to content</a>${banner}`,
    close: `${renderFooter(ctx)}${SEARCH_DIALOG_HTML}</body></html>`,
  };
}

/** Head metadata of one page: title, description, social preview tags, robots. */
export function renderHeadMeta(ctx: SiteContext, title: string, description: string | undefined, noindex: boolean): string {
  const t = escapeHtml(title);
  const fullTitle = title ? `${t} - ${ctx.name}` : ctx.name;
  const desc = description ?? ctx.site.description;
  const d = desc ? escapeHtml(desc) : '';
  return (
    `<title>${fullTitle}</title>` +
    (d ? `<meta name="description" content="${d}">` : '') +
    `<meta property="og:title" content="${fullTitle}"><meta property="og:site_name" content="${ctx.name}">` +
    (d ? `<meta property="og:description" content="${d}">` : '') +
    (noindex ? '<meta name="robots" content="noindex">' : '')
  );
}
