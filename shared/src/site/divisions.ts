/**
 * The navigation's divisions around a scope (NavDivision in shared/src/docs/types.ts): `tab`
 * siblings become the top bar tabs, `anchor` siblings (and links above the scope) the list at the
 * top of the sidebar, `version`/`language` siblings a switcher in the top bar and
 * `dropdown`/`product`/`menu` siblings a switcher at the top of the sidebar. The division on the
 * scope's chain is the current one at each level. A division leading only to gated pages is
 * marked with their tags (audience.ts), so visitors who can open none of them do not see it.
 */
import type { NavDivision, NavLink } from '../docs/types';
import { audienceAttrs } from './audience';
import type { SiteContext } from './context';
import { escapeHtml, externalAttrs, isExternalHref } from './escape';
import { configIcon, icon } from './icons';
import { isDivision, visiblePages, type NavScope } from './nav-index';
import { renderSwitcher, type SwitcherItem } from './switcher';

type SwitcherKind = 'dropdown' | 'product' | 'version' | 'language' | 'menu';
const HEADER_SWITCHERS: SwitcherKind[] = ['version', 'language'];
const SIDEBAR_SWITCHERS: SwitcherKind[] = ['product', 'dropdown', 'menu'];
const KIND_LABEL: Record<SwitcherKind, string> = {
  dropdown: 'Section', product: 'Product', version: 'Version', language: 'Language', menu: 'Menu',
};

/** Escaped href of a division: its external href, else its first visible page; undefined when empty. */
export function divisionHref(ctx: SiteContext, d: NavDivision): string | undefined {
  if (d.href) return ctx.configHref(d.href);
  const first = ctx.index.firstPage(d);
  return first ? ctx.pageHref(first.path) : undefined;
}

/** ` data-audience="…"` for a division whose every page is gated ('' otherwise, and for external divisions). */
export function divisionAudience(ctx: SiteContext, d: NavDivision): string {
  return d.href ? '' : audienceAttrs(ctx.allGatedAudience(visiblePages([d])));
}

const visible = (level: readonly unknown[], kind: NavDivision['kind']) =>
  (level as NavDivision[]).filter((n) => isDivision(n) && n.kind === kind && !n.hidden);

/** The top bar tabs (`<nav>` with links; the current tab has aria-current), '' when no tabs. */
export function renderTabs(ctx: SiteContext, scope: NavScope): string {
  for (let i = 0; i < scope.levels.length; i++) {
    const tabs = visible(scope.levels[i]!, 'tab');
    if (tabs.length === 0) continue;
    const links = tabs
      .map((t) => {
        const href = divisionHref(ctx, t);
        if (!href) return '';
        const current = scope.chain[i] === t ? ' aria-current="true"' : '';
        return `<a class="q-tab" href="${href}"${current}${externalAttrs(t.href)}${divisionAudience(ctx, t)}>${configIcon(t.icon)}<span>${escapeHtml(t.title)}</span></a>`;
      })
      .join('');
    return `<nav class="q-tabs" aria-label="Sections"><div class="q-tabs-inner">${links}</div></nav>`;
  }
  return '';
}

/**
 * Anchors at the top of the sidebar: `anchor` divisions of the first level that has them, plus
 * links and external divisions found on the levels above the sidebar's own list (global anchors).
 */
export function renderAnchors(ctx: SiteContext, scope: NavScope): string {
  const entries: string[] = [];
  let anchorsDone = false;
  scope.levels.forEach((level, i) => {
    const isLast = i === scope.levels.length - 1;
    const anchors = anchorsDone ? [] : visible(level, 'anchor');
    if (anchors.length) anchorsDone = true;
    for (const n of level) {
      const isAnchor = anchors.includes(n as NavDivision);
      if (!isAnchor && !(n.type === 'link' && !isLast)) continue;
      const node = n as NavDivision | NavLink;
      const href = isAnchor ? divisionHref(ctx, node as NavDivision) : ctx.configHref((node as NavLink).href);
      if (!href) continue;
      const external = node.href !== undefined && isExternalHref(node.href);
      const attrs = (scope.chain[i] === n ? ' aria-current="true"' : '') + externalAttrs(node.href);
      entries.push(
        `<li${isAnchor ? divisionAudience(ctx, node as NavDivision) : ''}><a class="q-anchor-link" href="${href}"${attrs}><span class="q-anchor-icon">${configIcon(node.icon ?? (external ? 'globe' : 'bookmark'))}</span>` +
          `<span>${escapeHtml(node.title)}</span>${external ? icon('arrow-up-right', 'q-icon q-ext') : ''}</a></li>`,
      );
    }
  });
  return entries.length ? `<ul class="q-anchors">${entries.join('')}</ul>` : '';
}

/** Switchers of the given placement for a scope ('' when none). */
export function renderSwitchers(ctx: SiteContext, scope: NavScope, placement: 'header' | 'sidebar'): string {
  const kinds = placement === 'header' ? HEADER_SWITCHERS : SIDEBAR_SWITCHERS;
  let out = '';
  scope.levels.forEach((level, i) => {
    for (const kind of kinds) {
      const divisions = visible(level, kind);
      if (divisions.length === 0) continue;
      const items: SwitcherItem[] = [];
      for (const d of divisions) {
        const href = divisionHref(ctx, d);
        if (!href) continue;
        items.push({
          title: d.title, href, description: d.description, icon: d.icon,
          current: scope.chain[i] === d, external: d.href !== undefined && isExternalHref(d.href),
          attrs: divisionAudience(ctx, d),
        });
      }
      if (items.length) out += renderSwitcher(KIND_LABEL[kind], items, `q-switcher-${placement}`);
    }
  });
  return out;
}

/**
 * The site's deployed versions (SiteConfig.versioning, decisions.md section 6: the default at `/`,
 * the others under `/<label>/`) as a top bar switcher; the current one is the version whose prefix
 * is the renderer's base path (or the default). '' with fewer than two versions.
 */
export function renderSiteVersions(ctx: SiteContext): string {
  const versions = ctx.site.versioning?.versions ?? [];
  if (versions.length < 2) return '';
  const def = versions.find((v) => v.default) ?? versions[0]!;
  const items: SwitcherItem[] = versions.map((v) => {
    const prefix = v === def ? '' : `/${encodeURIComponent(v.label)}`;
    return {
      title: v.label + (v.deprecated ? ' (deprecated)' : ''),
      href: escapeHtml(`${prefix}/`),
      current: ctx.base === prefix,
    };
  });
  return renderSwitcher('Version', items, 'q-switcher-header q-switcher-versions');
}
