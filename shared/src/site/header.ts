/**
 * The top bar (site-look.md "Top bar"): menu button (phones), logo (light/dark variants) or site
 * name, version/language switchers, search button with its Ctrl K hint, navbar links, primary
 * button, theme toggle; then the tabs row. The search button and dialog are search-ui.ts; the Ask AI
 * button and its panel (placed right after the top bar) are ask-ai.ts.
 */
import type { SiteContext } from './context';
import { renderSwitchers, renderTabs } from './divisions';
import { icon } from './icons';
import { renderNavbar } from './navbar';
import { LOGO_CLASS } from './nav-markup';
import type { NavScope } from './nav-index';
import { versionSwitcherSlot } from './site-versions';
import { renderSearchButton } from './search-ui';
import { renderAskButton } from './ask-ai';

/**
 * The one appearance a site can ever show: `appearance.strict` (mint.json `modeToggle.isHidden`) with a
 * light or dark default; undefined when visitors (or their system) may switch.
 */
export function forcedAppearance(ctx: SiteContext): 'light' | 'dark' | undefined {
  const a = ctx.site.appearance;
  return a?.strict && (a.default === 'light' || a.default === 'dark') ? a.default : undefined;
}

/**
 * Logo link: the light and dark images (CSS shows the one matching the theme), only the variant that
 * can show when the appearance is forced (a hidden <img> would still be fetched), or the site name.
 */
export function renderLogo(ctx: SiteContext): string {
  const logo = ctx.site.logo;
  const href = (logo?.href && ctx.configHref(logo.href)) || ctx.pageHref('index');
  const light = logo && ctx.configHref(logo.light);
  const dark = (logo && ctx.configHref(logo.dark || logo.light)) ?? light;
  const img = (src: string, only: string) => `<img class="q-logo-img${only}" src="${src}" alt="${ctx.name}" height="28">`;
  const forced = forcedAppearance(ctx);
  let inner: string;
  if (!light || !dark) inner = `<span class="q-logo-name">${ctx.name}</span>`;
  else if (forced) inner = img(forced === 'dark' ? dark : light, '');
  else inner = img(light, ' q-only-light') + img(dark, ' q-only-dark');
  return `<a class="${LOGO_CLASS}" href="${href}">${inner}</a>`;
}

/** The theme toggle ('' when the config forces one appearance with `appearance.strict`). */
function themeToggle(ctx: SiteContext): string {
  if (ctx.site.appearance?.strict) return '';
  return `<button class="q-icon-btn q-theme-toggle" type="button" data-q-theme-toggle aria-label="Switch to dark mode" aria-pressed="false">${icon('sun', 'q-icon q-only-light')}${icon('moon', 'q-icon q-only-dark')}</button>`;
}

/** The top bar of pages in `scope` (cacheable per scope: it does not depend on the page). */
export function renderHeader(ctx: SiteContext, scope: NavScope): string {
  const switchers = versionSwitcherSlot(ctx) + renderSwitchers(ctx, scope, 'header');
  return (
    `<header class="q-header"><div class="q-header-bar">` +
    `<button class="q-icon-btn q-menu-btn" type="button" data-q-drawer-open aria-controls="q-sidebar" aria-expanded="false" aria-label="Open navigation">${icon('menu')}</button>` +
    `${renderLogo(ctx)}${switchers ? `<div class="q-header-switchers">${switchers}</div>` : ''}` +
    renderSearchButton() +
    renderAskButton() +
    `<div class="q-header-end">${renderNavbar(ctx, scope)}${themeToggle(ctx)}</div>` +
    `</div>${renderTabs(ctx, scope)}</header>`
    // the Ask AI panel follows the top bar as a child of <body>: made by assets/ask-ai.js (ask-ai.ts)
  );
}
