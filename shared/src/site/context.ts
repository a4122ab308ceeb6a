/**
 * What createSiteRenderer receives, and the per-site context every part of the chrome shares
 * (computed once per site: the nav index, URL helpers, escaped site strings).
 */
import type { NavNode, SiteConfig, TocEntry } from '../docs/types';
import { escapeHtml, safeHref } from './escape';
import { buildNavIndex, type NavIndex } from './nav-index';

/** Input of createSiteRenderer (the builder calls it once per build). */
export interface SiteRendererInput {
  site: SiteConfig;
  /** the navigation with titles filled (NavPage.title set from frontmatter by the builder) */
  nav: NavNode[];
  /**
   * URLs of the hashed asset files, e.g. `/_quire/assets/site.3f9a1c.css`; `katexCss` and `mermaidJs`
   * are linked only by pages holding math or a diagram (page-assets.ts), none when absent
   */
  assets: { css: string; js: string; themeJs: string; katexCss?: string; mermaidJs?: string };
  /** URL of the per-site theme css (siteThemeCss written to its own hashed file) */
  siteCss: string;
  /**
   * "Edit this page" links: a template with `{path}` for the page's file path under the docs folder
   * (docs/edit-link.ts `editUrlTemplate`, e.g. `https://gitlab.com/acme/docs/-/edit/main/docs/{path}`),
   * or a base the file path is appended to (`https://github.com/acme/docs/edit/main/docs/`). No edit
   * link when absent.
   */
  editBaseUrl?: string;
  /** URL prefix of this deployment when it is not served at the site root, e.g. `/v1` (version) */
  basePath?: string;
  /**
   * gated pages (frontmatter `audience`, decisions.md section 6): page path → the tags that open it.
   * Every piece of chrome naming such a page is marked with its tags (audience.ts), so site hosting
   * can leave it out for visitors without access. Absent: no page is gated.
   */
  audiences?: Readonly<Record<string, readonly string[]>>;
}

/** Input of SiteRenderer.page for one page. */
export interface SitePageInput {
  /** page path (`guides/setup`); `index` is the home page, served at `/` */
  path: string;
  title: string;
  /** meta description; also the lead paragraph under the title unless `lead` is false */
  description?: string;
  /**
   * false: `description` only feeds the meta tags and is not shown as the lead, because the body
   * already shows it (a description derived from the body, e.g. generated OpenAPI pages whose body
   * holds the operation description). Default true.
   */
  lead?: boolean;
  /** the rendered, sanitized page body (RenderedPage.html) */
  html: string;
  toc: TocEntry[];
  /** ISO date or date-time (frontmatter lastUpdated or the last commit touching the file) */
  lastUpdated?: string;
  /** frontmatter hidden: the page is built but asks search engines not to index it */
  hidden?: boolean;
  /** the page's file path (`guides/setup.mdx`) for the edit link; defaults to `<path>.mdx` */
  filePath?: string;
}

/** Shared, precomputed per-site state. */
export interface SiteContext {
  input: SiteRendererInput;
  site: SiteConfig;
  index: NavIndex;
  /** normalized base path: '' or '/v1' (no trailing slash) */
  base: string;
  /** escaped site name */
  name: string;
  /** escaped URL of a page path ('index' -> the base root) */
  pageHref(pagePath: string): string;
  /**
   * escaped URL of a path from the config (logo, favicon, icon, navbar link): root-relative and bare
   * relative paths get the base path, absolute http(s)/mailto URLs stay; undefined when unsafe
   */
  configHref(value: string | undefined): string | undefined;
  /** the tags opening a gated page (non-empty), undefined for an ungated page */
  audienceOf(pagePath: string): readonly string[] | undefined;
  /**
   * for a list of pages that are all gated: the union of their tags (a visitor opening none of them
   * can read none of the pages); undefined when the list is empty or holds an ungated page
   */
  allGatedAudience(pages: readonly { path: string }[]): string[] | undefined;
}

/** Builds the shared context. */
export function createSiteContext(input: SiteRendererInput): SiteContext {
  const base = (input.basePath ?? '').replace(/\/+$/, '').replace(/^(?!\/)(?=.)/, '/');
  const encodePath = (p: string) => p.split('/').map(encodeURIComponent).join('/');
  const audiences = new Map(Object.entries(input.audiences ?? {}).filter(([, tags]) => tags.length > 0));
  const audienceOf = (pagePath: string) => audiences.get(pagePath);
  return {
    input,
    site: input.site,
    index: buildNavIndex(input.nav, { isGated: (p) => audiences.has(p) }),
    base,
    name: escapeHtml(input.site.name || 'Documentation'),
    pageHref: (pagePath) => escapeHtml(pagePath === 'index' || pagePath === '' ? `${base}/` : `${base}/${encodePath(pagePath)}`),
    configHref: (value) => {
      if (value === undefined) return undefined;
      const v = value.trim();
      if (/^[a-z][a-z0-9+.-]*:/i.test(v) || v.startsWith('#')) return safeHref(v);
      const rooted = v.startsWith('/') ? v : `/${v.replace(/^\.\//, '')}`;
      return safeHref(rooted.startsWith('//') ? undefined : base + rooted);
    },
    audienceOf,
    allGatedAudience: (pages) => {
      if (pages.length === 0) return undefined;
      const union = new Set<string>();
      for (const p of pages) {
        const tags = audienceOf(p.path);
        if (!tags) return undefined;
        for (const t of tags) union.add(t);
      }
      return [...union];
    },
  };
}
