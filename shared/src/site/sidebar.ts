/**
 * The left sidebar (site-look.md "Left sidebar"; the navigation drawer on phones and tablets, where it
 * starts with the navbar links and primary button the header hides there): anchors and switchers at the top, then the scope's
 * groups with small headings, pages as quiet links (OpenAPI pages with a method badge), nested
 * groups as <details> open on the current path or when `expanded`, the current page marked with
 * aria-current="page". Entries of gated pages carry their tags (audience.ts), and so do groups
 * holding only gated pages; site hosting leaves them out for visitors without access.
 */
import type { NavGroup, NavNode, NavPage } from '../docs/types';
import { audienceAttrs } from './audience';
import type { SiteContext } from './context';
import { escapeHtml, externalAttrs, isExternalHref } from './escape';
import { renderAnchors, renderSwitchers } from './divisions';
import { configIcon, icon } from './icons';
import { visiblePages, type NavScope } from './nav-index';
import { renderDrawerLinks } from './navbar';
import { NAV_GROUP_CLASS, NAV_HEADING_CLASS, NAV_SECTION_CLASS } from './nav-markup';

/** Sidebar label of a page: its filled title, else the last path segment made readable. */
export function pageLabel(page: NavPage): string {
  if (page.title) return page.title;
  const last = page.path.split('/').pop() ?? page.path;
  const words = last.replace(/[-_]+/g, ' ').trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

const METHODS = new Set(['get', 'post', 'put', 'patch', 'delete', 'head', 'options', 'trace']);

/** The small colored HTTP method badge of OpenAPI pages ('' for other pages). */
export function methodBadge(method: string | undefined): string {
  if (!method) return '';
  const m = method.toLowerCase();
  const cls = METHODS.has(m) ? m : 'other';
  const short = m === 'delete' ? 'DEL' : m === 'options' ? 'OPT' : m.toUpperCase();
  return `<span class="q-method q-method-${cls}">${escapeHtml(short.slice(0, 5))}</span>`;
}

/**
 * Markup varies between pages of a scope only in `aria-current` and `open`; the sidebar is built once
 * per scope with NUL-delimited slot markers (escaped text never contains NUL) and each page fills
 * the slots, so a page costs one pass over prebuilt strings.
 */
type Slot = { kind: 'current'; path: string } | { kind: 'open'; group: NavGroup };

interface Builder {
  ctx: SiteContext;
  slots: Slot[];
}

const slot = (b: Builder, s: Slot) => `\u0000${b.slots.push(s) - 1}\u0000`;

function pageItem(b: Builder, p: NavPage): string {
  if (p.hidden || !p.path) return '';
  const ico = p.icon ? configIcon(p.icon) : '';
  return `<li${audienceAttrs(b.ctx.audienceOf(p.path))}><a class="q-nav-link" href="${b.ctx.pageHref(p.path)}"${slot(b, { kind: 'current', path: p.path })}>${methodBadge(p.method)}${ico}<span class="q-nav-text">${escapeHtml(pageLabel(p))}</span></a></li>`;
}

/** Whether a group's subtree shows a link (links are open to everyone). */
function hasVisibleLink(nodes: NavNode[]): boolean {
  return nodes.some((n) => (n.type === 'link' ? true : n.type === 'group' && !n.hidden && hasVisibleLink(n.children)));
}

/** ` data-audience="…"` for a group whose every entry is a gated page ('' otherwise). */
function groupAudience(b: Builder, g: NavGroup): string {
  if (hasVisibleLink(g.children)) return '';
  return audienceAttrs(b.ctx.allGatedAudience(visiblePages([g])));
}

function nodeItems(b: Builder, nodes: NavNode[]): string {
  let out = '';
  for (const n of nodes) {
    if (n.type === 'page') out += pageItem(b, n);
    else if (n.type === 'group') out += nestedGroup(b, n);
    else if (n.type === 'link') {
      const href = b.ctx.configHref(n.href);
      if (!href) continue;
      const ext = isExternalHref(n.href);
      out += `<li><a class="q-nav-link" href="${href}"${externalAttrs(n.href)}>${configIcon(n.icon)}<span class="q-nav-text">${escapeHtml(n.title)}</span>${ext ? icon('arrow-up-right', 'q-icon q-ext') : ''}</a></li>`;
    }
  }
  return out;
}

function groupTitle(g: NavGroup): string {
  const tag = g.tag ? ` <span class="q-tag">${escapeHtml(g.tag)}</span>` : '';
  return `${configIcon(g.icon)}<span class="q-nav-text">${escapeHtml(g.title)}</span>${tag}`;
}

/**
 * The group's title as a link to its root page; for a gated root page, followed by the plain title
 * for visitors who cannot open it (each marked, audience.ts).
 */
function groupRootLink(b: Builder, g: NavGroup & { root: string }, className: string): string {
  const tags = b.ctx.audienceOf(g.root);
  const link = `<a class="${className}" href="${b.ctx.pageHref(g.root)}"${audienceAttrs(tags)}${slot(b, { kind: 'current', path: g.root })}>${groupTitle(g)}</a>`;
  return tags ? `${link}<span${className ? ` class="${className}"` : ''}${audienceAttrs(undefined, tags)}>${groupTitle(g)}</span>` : link;
}

function nestedGroup(b: Builder, g: NavGroup): string {
  if (g.hidden) return '';
  const inner = nodeItems(b, g.children);
  if (!inner && !g.root) return '';
  if (!g.title) return inner;
  const root = g.root ? groupRootLink(b, { ...g, root: g.root }, 'q-nav-group-root') : groupTitle(g);
  return (
    `<li class="${NAV_GROUP_CLASS}"${groupAudience(b, g)}><details${slot(b, { kind: 'open', group: g })}><summary class="q-nav-summary">${root}${icon('chevron-right', 'q-icon q-chevron')}</summary>` +
    `<ul class="q-nav-list">${inner}</ul></details></li>`
  );
}

function topGroup(b: Builder, g: NavGroup): string {
  if (g.hidden) return '';
  const inner = nodeItems(b, g.children);
  if (!inner) return '';
  const heading = !g.title
    ? ''
    : `<p class="${NAV_HEADING_CLASS}">${g.root ? groupRootLink(b, { ...g, root: g.root }, '') : groupTitle(g)}</p>`;
  return `<div class="${NAV_SECTION_CLASS}"${groupAudience(b, g)}>${heading}<ul class="q-nav-list">${inner}</ul></div>`;
}

/** The sidebar of one scope, ready to be filled for any of its pages. */
export interface SidebarTemplate {
  /**
   * The sidebar for a page (`current` = page path, undefined on the 404 page): the current page's
   * links get aria-current="page"; nested groups are open when in `open` (the groups containing the
   * current page), marked `expanded`, or rooted at the current page.
   */
  render(current: string | undefined, open: readonly NavGroup[]): string;
}

/** Builds the sidebar of a scope once (anchors, switchers, groups). */
export function createSidebarTemplate(ctx: SiteContext, scope: NavScope): SidebarTemplate {
  const b: Builder = { ctx, slots: [] };
  let body = '';
  let loose = '';
  const flush = () => {
    if (loose) body += `<div class="${NAV_SECTION_CLASS}"><ul class="q-nav-list">${loose}</ul></div>`;
    loose = '';
  };
  for (const n of scope.items) {
    if (n.type === 'group') {
      flush();
      body += topGroup(b, n);
    } else loose += nodeItems(b, [n]);
  }
  flush();
  const top = renderAnchors(ctx, scope) + renderSwitchers(ctx, scope, 'sidebar');
  const html =
    `<aside class="q-sidebar" id="q-sidebar" aria-label="Sidebar"><div class="q-sidebar-inner">` +
    `<div class="q-drawer-head"><span class="q-drawer-title">${ctx.name}</span><button class="q-icon-btn" type="button" data-q-drawer-close aria-label="Close navigation">${icon('close')}</button></div>${renderDrawerLinks(ctx, scope)}` +
    `<nav class="q-nav" aria-label="Documentation">${top ? `<div class="q-nav-top">${top}</div>` : ''}${body}</nav></div></aside>`;
  // even indexes: static markup; odd indexes: slot numbers
  const parts = html.split('\u0000');
  const slots = b.slots;
  return {
    render(current, open) {
      let out = parts[0]!;
      for (let i = 1; i < parts.length; i += 2) {
        const s = slots[Number(parts[i])]!;
        if (s.kind === 'current') {
          if (s.path === current) out += ' aria-current="page"';
        } else if (s.group.expanded === true || (current !== undefined && s.group.root === current) || open.includes(s.group)) {
          out += ' open';
        }
        out += parts[i + 1]!;
      }
      return out;
    },
  };
}
