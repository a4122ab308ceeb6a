/**
 * One pass over the navigation that answers, for any page, what the theme needs to draw around it:
 * which division chain it sits in (so which tab is active, which anchors/switchers show, which
 * part of the tree fills the sidebar), its ancestors (for the eyebrow and open nested groups) and
 * its previous/next pages. Built once per site by createSiteRenderer; lookups are O(1).
 *
 * Rules (shared/src/docs/types.ts NavDivision, site-look.md):
 * - a *scope* is the list of non-division nodes under one division (or under the root); the
 *   sidebar of a page shows its scope, so switching tab/anchor/dropdown/version swaps the sidebar;
 * - previous/next stay inside the scope (never jump from one version or tab into another);
 * - a page listed twice belongs to its first occurrence; hidden pages get a scope but are never
 *   listed nor used as previous/next; a group's `root` page counts as the group's first page
 *   (reading order and traversal from shared/src/docs/nav);
 * - pages outside the navigation use the first scope of the language named by their first folder
 *   (`fr/old-page`), else, like the 404 page, the home page's scope (the default language's first
 *   page when there is no `index`), else the first one;
 * - switching language or version keeps the page when the other one has it (`counterpart`);
 * - a division's link leads to its first ungated page when it has one (gated pages, frontmatter
 *   `audience`, are marked in the chrome and left out for visitors without access; a tab must lead
 *   everyone somewhere they can read).
 */
import { counterpartPaths, defaultFirst, flattenPages, walkPages } from '../docs/nav/index';
import type { NavDivision, NavGroup, NavNode, NavPage } from '../docs/types';

/** The sidebar context shared by every page under the same division chain. */
export interface NavScope {
  /** divisions from the root down to the one owning this scope (empty for the root scope) */
  chain: NavDivision[];
  /** sibling lists along the chain: levels[0] = root nodes, levels[i] = chain[i-1].children */
  levels: NavNode[][];
  /** the sidebar body: the non-division nodes of the last level */
  items: NavNode[];
  /** visible pages of `items` in reading order */
  pages: NavPage[];
}

/** Where one page sits. */
export interface NavPlace {
  page: NavPage;
  scope: NavScope;
  /** groups from the outermost to the innermost containing the page */
  groups: NavGroup[];
  prev?: NavPage;
  next?: NavPage;
  /** index of the page in `scope.pages` (reading order), -1 when it is not listed there (hidden) */
  position: number;
}

/** The lookups built from one navigation tree. */
export interface NavIndex {
  /** place of a page path, undefined when the page is not in the navigation */
  place(pagePath: string): NavPlace | undefined;
  /** the scope used for pages outside the navigation and for the 404 page */
  defaultScope: NavScope;
  /**
   * The scope of a page: its place's, else (a page outside the navigation) the first scope with pages
   * of the language whose code is its first folder (`fr/old-page` gets the French sidebar), else
   * {@link defaultScope}.
   */
  scopeFor(pagePath: string): NavScope;
  /** every visible page in reading order (home first when it is listed first) */
  pages: NavPage[];
  /** first visible page under a division (its first ungated one when it has one), for its tab/anchor/switcher link */
  firstPage(division: NavDivision): NavPage | undefined;
  /**
   * The page of division `to` matching the page `pagePath` read under its sibling `from` (languages
   * and versions: the same page in the other language, see `counterpartPaths`), else `to`'s first page.
   */
  counterpart(pagePath: string, from: NavDivision, to: NavDivision): NavPage | undefined;
}

/** Options of {@link buildNavIndex}. */
export interface NavIndexOptions {
  /** whether a page path is gated (frontmatter `audience`); default none */
  isGated?: (pagePath: string) => boolean;
}

/** True for nodes that are divisions (tabs, anchors, dropdowns, versions...). */
export function isDivision(node: NavNode): node is NavDivision {
  return node.type === 'division';
}

/**
 * Visible pages of a node list in reading order (shared/src/docs/nav's flattenPages: group roots first,
 * hidden entries skipped), without OpenAPI entries whose path is not filled and without repeats.
 */
export function visiblePages(nodes: NavNode[]): NavPage[] {
  const seen = new Set<string>();
  return flattenPages(nodes).filter((p) => {
    if (!p.path || seen.has(p.path)) return false;
    seen.add(p.path);
    return true;
  });
}

/** Builds the index of a navigation tree (NavNode[] with titles filled). */
export function buildNavIndex(nav: NavNode[], options: NavIndexOptions = {}): NavIndex {
  const places = new Map<string, NavPlace>();
  const scopes: NavScope[] = [];
  const firstPages = new Map<NavDivision, NavPage | undefined>();
  const isGated = options.isGated ?? (() => false);
  const firstOf = (d: NavDivision) => {
    const pages = visiblePages([d]);
    return pages.find((p) => !isGated(p.path)) ?? pages[0];
  };

  const visitScope = (chain: NavDivision[], levels: NavNode[][]) => {
    const nodes = levels[levels.length - 1]!;
    const items = nodes.filter((n) => !isDivision(n));
    const scope: NavScope = { chain, levels, items, pages: visiblePages(items) };
    scopes.push(scope);
    for (const visit of walkPages(items)) {
      const p = visit.node;
      if (!p.path || places.has(p.path)) continue;
      const groups = visit.ancestors.filter((a): a is NavGroup => a.type === 'group');
      places.set(p.path, { page: p, scope, groups, position: -1 });
    }
    for (const d of nodes) {
      if (!isDivision(d)) continue;
      firstPages.set(d, firstOf(d));
      if (!d.href) visitScope([...chain, d], [...levels, d.children]);
    }
  };
  visitScope([], [nav]);

  for (const scope of scopes) {
    scope.pages.forEach((p, i) => {
      const place = places.get(p.path);
      if (!place || place.scope !== scope) return;
      place.prev = scope.pages[i - 1];
      place.next = scope.pages[i + 1];
      place.position = i;
    });
  }

  const pages = visiblePages(nav);
  const first = visiblePages(defaultFirst(nav))[0]; // the default language's (version's) first page
  const home = places.get('index') ?? (first && places.get(first.path));
  const defaultScope = home?.scope ?? scopes.find((s) => s.pages.length > 0) ?? scopes[0]!;
  const firstPage = (d: NavDivision) => (firstPages.has(d) ? firstPages.get(d) : firstOf(d));
  const languageScopes = new Map<string, NavScope>();
  for (const scope of scopes) {
    const lang = scope.chain.find((d) => d.kind === 'language');
    const code = lang?.title.toLowerCase();
    if (code !== undefined && scope.pages.length > 0 && !languageScopes.has(code)) languageScopes.set(code, scope);
  }
  const pagesUnder = new Map<NavDivision, Map<string, NavPage>>();
  return {
    place: (p) => places.get(p),
    defaultScope,
    scopeFor: (p) => places.get(p)?.scope ?? languageScopes.get(p.split('/', 1)[0]!.toLowerCase()) ?? defaultScope,
    pages,
    firstPage,
    counterpart: (pagePath, from, to) => {
      let under = pagesUnder.get(to);
      if (!under) pagesUnder.set(to, (under = new Map(visiblePages([to]).map((p) => [p.path, p]))));
      for (const candidate of counterpartPaths(pagePath, from.title, to.title)) {
        const page = under.get(candidate);
        // a gated translation only from a gated page: the reader of an open page may lack its tags
        if (page && (!isGated(page.path) || isGated(pagePath))) return page;
      }
      return firstPage(to);
    },
  };
}
