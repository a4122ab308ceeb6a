/**
 * Where each page of a site goes: the navigation with sidebar labels from the pages' frontmatter,
 * which pages are hidden, gated or in a language, and the home page. The builder
 * (server/src/builder/pipeline.ts) and `quire-docs dev` (cli/src/dev/) lay a site out with this one
 * function. Node-free.
 */
import { defaultFirst, fillTitles, flattenPages, languageResolver, walkPages, type PageLabel } from '../docs/nav/index';
import { isHiddenVisit } from '../docs/nav/walk';
import type { NavNode } from '../docs/types';

/** One page as {@link layoutSite} reads it: its path, file, title and frontmatter, and the operation of a generated OpenAPI page. */
export interface LayoutEntry {
  /** page path (`guides/setup`) */
  path: string;
  /** docs-root file path; absent for generated OpenAPI pages */
  filePath?: string;
  title: string;
  frontmatter: Record<string, unknown>;
  /** the operation a generated page shows: its method is the sidebar's badge; `hidden` (`x-hidden`) keeps it out of the sidebar */
  operation?: { method: string; hidden?: boolean };
}

/** Where one page sits. */
export interface SiteLayoutPage {
  path: string;
  filePath?: string;
  /** out of the sidebar, search, llms.txt and the sitemap (frontmatter `hidden`/`noindex`, nav `hidden`, `x-hidden`, or not in the navigation) */
  hidden: boolean;
  /** frontmatter `audience` tags: the page is gated (decisions.md section 6) */
  audience?: string[];
  /** the code of the navigation language the page is in (`fr`; nav/languages.ts `languageResolver`) */
  language?: string;
}

/** What {@link layoutSite} gives. */
export interface SiteLayout {
  /** the navigation with titles, sidebar titles, icons, hidden flags and method badges filled */
  nav: NavNode[];
  /** one per entry, in the entries' order */
  pages: SiteLayoutPage[];
  /** the home page: `index` when it exists, else the first visible page of the default navigation, else the first page */
  home: string;
}

/**
 * Lays a site out (see the module comment).
 * @param nav the project's navigation (shared/src/docs/config `loadProject`)
 * @param entries the site's pages, at least one
 */
export function layoutSite(nav: NavNode[], entries: readonly LayoutEntry[]): SiteLayout {
  const labels = new Map<string, PageLabel>();
  for (const e of entries) {
    const fm = e.frontmatter;
    labels.set(e.path, {
      title: e.title,
      ...(typeof fm.sidebarTitle === 'string' ? { sidebarTitle: fm.sidebarTitle } : {}),
      ...(typeof fm.icon === 'string' ? { icon: fm.icon } : {}),
      ...(fm.hidden === true ? { hidden: true } : {}),
      ...(e.operation ? { method: e.operation.method } : {}),
    });
  }
  const filled = fillTitles(nav, labels);
  const languageOf = languageResolver(filled);
  const inNav = new Set<string>();
  const navHidden = new Set<string>();
  for (const visit of walkPages(filled)) {
    if (isHiddenVisit(visit)) navHidden.add(visit.node.path);
    else inNav.add(visit.node.path);
  }
  const pages = entries.map((e): SiteLayoutPage => {
    const fm = e.frontmatter;
    const audience = typeof fm.audience === 'string' ? [fm.audience] : Array.isArray(fm.audience) ? fm.audience.filter((a): a is string => typeof a === 'string') : [];
    const hidden = fm.hidden === true || fm.noindex === true || e.operation?.hidden === true || !inNav.has(e.path);
    const language = languageOf(e.path);
    return {
      path: e.path,
      ...(e.filePath ? { filePath: e.filePath } : {}),
      hidden,
      ...(audience.length ? { audience } : {}),
      ...(language ? { language } : {}),
    };
  });
  const exists = new Set(pages.map((p) => p.path));
  const home = exists.has('index') ? 'index' : (flattenPages(defaultFirst(filled)).find((p) => exists.has(p.path) && !navHidden.has(p.path))?.path ?? pages[0]!.path);
  return { nav: filled, pages, home };
}
