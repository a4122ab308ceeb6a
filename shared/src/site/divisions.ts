/**
 * The navigation's divisions around a scope (NavDivision in shared/src/docs/types.ts): `tab`
 * siblings become the top bar tabs, `anchor` siblings (and links above the scope) the list at the
 * top of the sidebar, `version`/`language` siblings a switcher in the top bar and
 * `dropdown`/`product`/`menu` siblings a switcher at the top of the sidebar. The division on the
 * scope's chain is the current one at each level; `global` tabs and anchors (links at the root) join
 * the scope's own. Languages show their own names and switch to the same page in the other language.
 * A division leading only to gated pages is marked with their tags (audience.ts), so visitors who
 * can open none of them do not see it.
 */
import { languageName, languageTag } from '../docs/nav/languages';
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

/** A division that only links somewhere (`href`, no pages): `global` tabs and anchors are such links. */
const isLinkOnly = (d: NavDivision) => d.href !== undefined && d.children.length === 0;

/**
 * The `kind` divisions (tabs, anchors) a scope shows, each with its level: those of the first level
 * holding one with pages of its own, then the link-only ones of the other levels (`global` items sit at
 * the root while the scope's own tabs may be nested, e.g. languages -> products -> tabs; Mintlify's
 * organize/navigation: global anchors "appear on all pages regardless of active section").
 */
function shownDivisions(scope: NavScope, kind: 'tab' | 'anchor'): { d: NavDivision; level: number }[] {
  const levels = scope.levels.map((l, level) => ({ level, list: visible(l, kind) }));
  const main = levels.find((x) => x.list.some((d) => !isLinkOnly(d))) ?? levels.find((x) => x.list.length > 0);
  if (!main) return [];
  const out = main.list.map((d) => ({ d, level: main.level }));
  for (const x of levels) if (x !== main) out.push(...x.list.filter(isLinkOnly).map((d) => ({ d, level: x.level })));
  return out;
}

/** The top bar tabs (`<nav>` with links; the current tab has aria-current), '' when no tabs. */
export function renderTabs(ctx: SiteContext, scope: NavScope): string {
  const links = shownDivisions(scope, 'tab')
    .map(({ d: t, level }) => {
      const href = divisionHref(ctx, t);
      if (!href) return '';
      const current = scope.chain[level] === t ? ' aria-current="true"' : '';
      return `<a class="q-tab" href="${href}"${current}${externalAttrs(t.href)}${divisionAudience(ctx, t)}>${configIcon(t.icon)}<span>${escapeHtml(t.title)}</span></a>`;
    })
    .join('');
  return links ? `<nav class="q-tabs" aria-label="Sections"><div class="q-tabs-inner">${links}</div></nav>` : '';
}

/**
 * Anchors at the top of the sidebar: the anchors {@link shownDivisions} picks (the scope's own, then
 * global ones), then links found on the levels above the sidebar's own list.
 */
export function renderAnchors(ctx: SiteContext, scope: NavScope): string {
  const items: { node: NavDivision | NavLink; level: number }[] = shownDivisions(scope, 'anchor').map(({ d, level }) => ({ node: d, level }));
  scope.levels.slice(0, -1).forEach((l, level) => {
    for (const n of l) if (n.type === 'link') items.push({ node: n, level });
  });
  const entries = items.map(({ node, level }) => {
    const isAnchor = node.type === 'division';
    const href = isAnchor ? divisionHref(ctx, node) : ctx.configHref(node.href);
    if (!href) return '';
    const external = node.href !== undefined && isExternalHref(node.href);
    const attrs = (scope.chain[level] === node ? ' aria-current="true"' : '') + externalAttrs(node.href);
    return (
      `<li${isAnchor ? divisionAudience(ctx, node) : ''}><a class="q-anchor-link" href="${href}"${attrs}><span class="q-anchor-icon">${configIcon(node.icon ?? (external ? 'globe' : 'bookmark'))}</span>` +
      `<span>${escapeHtml(node.title)}</span>${external ? icon('arrow-up-right', 'q-icon q-ext') : ''}</a></li>`
    );
  });
  const html = entries.join('');
  return html ? `<ul class="q-anchors">${html}</ul>` : '';
}

/**
 * Switchers of the given placement for a scope ('' when none). The top bar's (languages, versions)
 * depend on the page, whose counterpart they link to, so for `header` this returns
 * {@link DIVISION_SWITCHER_SLOT}, which {@link fillDivisionSwitchers} fills page by page.
 */
export function renderSwitchers(ctx: SiteContext, scope: NavScope, placement: 'header' | 'sidebar'): string {
  if (placement === 'sidebar') return switchers(ctx, scope, SIDEBAR_SWITCHERS, 'q-switcher-sidebar', undefined);
  return switchers(ctx, scope, HEADER_SWITCHERS, 'q-switcher-header', undefined) ? DIVISION_SWITCHER_SLOT : '';
}

/**
 * Where the top bar's language and version switchers go: the top bar is rendered once per scope
 * (renderer.ts), these switchers once per page.
 */
export const DIVISION_SWITCHER_SLOT = '<!--quire:division-switchers-->';

/**
 * A top bar with its {@link DIVISION_SWITCHER_SLOT} replaced by the language and version switchers
 * of the page `pagePath` (undefined on the 404 page): each other language (version) links to the
 * same page there (`fr/guides/a` → `en/guides/a`; NavIndex.counterpart), else to its first page
 * (organize/navigation "Languages": the switcher changes the language of the page being read).
 * Languages show their own name (`Français`) and carry `lang`.
 */
export function fillDivisionSwitchers(ctx: SiteContext, header: string, scope: NavScope, pagePath: string | undefined): string {
  const at = header.indexOf(DIVISION_SWITCHER_SLOT);
  if (at === -1) return header;
  const html = switchers(ctx, scope, HEADER_SWITCHERS, 'q-switcher-header', pagePath);
  return header.slice(0, at) + html + header.slice(at + DIVISION_SWITCHER_SLOT.length);
}

/**
 * The language of pages in a scope: the language division's code as docs.json names it (`fr`, `jp`;
 * what search records carry, search/records.ts) and its `<html lang>` tag (`fr`, `ja` for `jp`);
 * undefined outside languages.
 */
export function scopeLanguage(scope: NavScope): { code: string; tag: string | undefined } | undefined {
  const lang = [...scope.chain].reverse().find((d) => d.kind === 'language');
  if (!lang) return undefined;
  const tag = languageTag(lang.title);
  return { code: lang.title, tag: tag === 'und' ? undefined : tag };
}

/**
 * The document's opening (`<!doctype html><html lang="en" ...>`) with `lang` set to the language's tag
 * and `data-quire-language` to its code (the site's search asks for that language's pages only:
 * assets/search.js); unchanged outside languages.
 */
export function withPageLanguage(open: string, language: { code: string; tag: string | undefined } | undefined): string {
  if (!language) return open;
  const code = ` data-quire-language="${escapeHtml(language.code)}"`;
  return open.replace(/^(<!doctype html><html[^>]*?\slang=")([^"]*)"/i, (_, start: string, given: string) => `${start}${language.tag ? escapeHtml(language.tag) : given}"${code}`);
}

/** The switchers of `kinds` along a scope's levels; with `pagePath`, languages and versions link to that page's counterpart. */
function switchers(ctx: SiteContext, scope: NavScope, kinds: SwitcherKind[], className: string, pagePath: string | undefined): string {
  let out = '';
  scope.levels.forEach((level, i) => {
    const current = scope.chain[i];
    for (const kind of kinds) {
      const divisions = visible(level, kind);
      if (divisions.length === 0) continue;
      const items: SwitcherItem[] = [];
      for (const d of divisions) {
        const keepsPage = pagePath !== undefined && current !== undefined && current !== d && !d.href && (kind === 'language' || kind === 'version');
        const page = keepsPage ? ctx.index.counterpart(pagePath, current, d) : undefined;
        const href = page ? ctx.pageHref(page.path) : divisionHref(ctx, d);
        if (!href) continue;
        const tag = kind === 'language' ? languageTag(d.title) : 'und';
        items.push({
          title: kind === 'language' ? languageName(d.title) : d.title, href, description: d.description, icon: d.icon,
          current: current === d, external: d.href !== undefined && isExternalHref(d.href),
          attrs: divisionAudience(ctx, d) + (tag !== 'und' ? ` lang="${escapeHtml(tag)}"` : ''),
        });
      }
      if (items.length) out += renderSwitcher(KIND_LABEL[kind], items, className);
    }
  });
  return out;
}
