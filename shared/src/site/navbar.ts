/**
 * The config's navbar links and primary button (site-look.md "Top bar"), in two places: the header
 * (wide screens) and the top of the navigation drawer (phones and tablets, where layout.css hides the
 * header's links below 1024 px and the primary button below 768 px), so they stay reachable everywhere.
 */
import type { SiteContext } from './context';
import type { NavScope } from './nav-index';
import { escapeHtml, externalAttrs } from './escape';
import { configIcon, icon } from './icons';

/** One navbar entry with its href already made safe. */
interface NavbarItem {
  href: string;
  /** ` target="_blank" rel=...` for external links, else '' */
  attrs: string;
  label: string;
  icon?: string;
}

/**
 * The safe links and primary button of the config (entries with unsafe hrefs are left out): the
 * navbar of the scope's language when it has one (docs.json `languages[].navbar`), else the site's.
 */
function navbarItems(ctx: SiteContext, scope: NavScope | undefined): { links: NavbarItem[]; primary?: NavbarItem } {
  const own = scope && [...scope.chain].reverse().find((d) => d.navbar)?.navbar;
  const { links, primary } = own ?? ctx.site.navbar ?? { links: [] };
  const items: NavbarItem[] = [];
  for (const l of links ?? []) {
    const href = ctx.configHref(l.href);
    if (href) items.push({ href, attrs: externalAttrs(l.href), label: l.label, ...(l.icon ? { icon: l.icon } : {}) });
  }
  const primaryHref = primary && ctx.configHref(primary.href);
  return {
    links: items,
    ...(primary && primaryHref ? { primary: { href: primaryHref, attrs: externalAttrs(primary.href), label: primary.label } } : {}),
  };
}

/** The header's `<nav aria-label="Site links">` for pages in `scope` ('' when the config has no links and no primary button). */
export function renderNavbar(ctx: SiteContext, scope?: NavScope): string {
  const { links, primary } = navbarItems(ctx, scope);
  let out = '';
  for (const l of links) {
    out += `<a class="q-navbar-link" href="${l.href}"${l.attrs}>${configIcon(l.icon)}<span>${escapeHtml(l.label)}</span></a>`;
  }
  if (primary) out += `<a class="q-navbar-primary" href="${primary.href}"${primary.attrs}>${escapeHtml(primary.label)}${icon('chevron-right')}</a>`;
  return out ? `<nav class="q-navbar" aria-label="Site links">${out}</nav>` : '';
}

/**
 * The same links for the drawer, placed above the documentation navigation: a list of links, then the
 * primary button full width ('' when there are none). layout.css shows it only where the header hides them.
 */
export function renderDrawerLinks(ctx: SiteContext, scope?: NavScope): string {
  const { links, primary } = navbarItems(ctx, scope);
  if (links.length === 0 && !primary) return '';
  const list = links.length
    ? `<ul class="q-drawer-link-list">${links
        .map((l) => `<li><a class="q-drawer-link" href="${l.href}"${l.attrs}>${configIcon(l.icon)}<span>${escapeHtml(l.label)}</span>${l.attrs ? icon('arrow-up-right', 'q-icon q-ext') : ''}</a></li>`)
        .join('')}</ul>`
    : '';
  const button = primary
    ? `<a class="q-drawer-primary" href="${primary.href}"${primary.attrs}>${escapeHtml(primary.label)}${icon('chevron-right')}</a>`
    : '';
  return `<div class="q-drawer-links${links.length ? '' : ' q-drawer-links-primary-only'}">${list}${button}</div>`;
}
