/**
 * What turns a site's rendered pages into its HTML documents, for every producer of a site: the builder
 * (server/src/builder/site-writer.ts) writing a deployment and `quire-docs dev` (cli/src/dev/) serving
 * one from memory. One renderer per site ({@link createSiteShell}), one document input per page
 * ({@link pageDocumentInput}): the two give the same bytes for the same project. Node-free.
 */
import type { NavNode, RenderedPage, SiteConfig } from '../docs/types';
import type { SitePageInput } from './context';
import { createSiteRenderer, type SiteRenderer } from './renderer';
import { withBasePath } from './site-versions';

/** The URL path (`/_quire/assets/site.1a2b3c4d5e.css`) of each hashed asset a page document links (node/site-assets.ts `SiteAssets`). */
export type SiteAssetUrls = Record<'css' | 'js' | 'themeJs' | 'siteCss' | 'katexCss' | 'mermaidJs', { url: string }>;

/** What {@link createSiteShell} needs. */
export interface SiteShellInput {
  site: SiteConfig;
  /** navigation with titles filled and OpenAPI pages expanded (site-layout.ts `layoutSite`) */
  nav: NavNode[];
  /** the site's pages: the gated ones (frontmatter `audience`) are marked wherever the chrome names them */
  pages: readonly { path: string; audience?: readonly string[] }[];
  assets: SiteAssetUrls;
  /** edit link template (docs/edit-link.ts `editUrlTemplate`); none: no "Edit this page" link */
  editBaseUrl?: string;
  /** URL prefix the site is served under (`/v1`, a documentation version); '' or absent: the site root */
  basePath?: string;
}

/**
 * The site renderer of one build (renderer.ts): the asset URLs with the base path put before them,
 * the edit links, and the gated pages' tags ({@link pageAudiences}).
 */
export function createSiteShell(input: SiteShellInput): SiteRenderer {
  const base = normalBase(input.basePath);
  const { assets } = input;
  return createSiteRenderer({
    site: input.site,
    nav: input.nav,
    assets: {
      css: base + assets.css.url, js: base + assets.js.url, themeJs: base + assets.themeJs.url,
      katexCss: base + assets.katexCss.url, mermaidJs: base + assets.mermaidJs.url,
    },
    siteCss: base + assets.siteCss.url,
    ...(input.editBaseUrl ? { editBaseUrl: input.editBaseUrl } : {}),
    ...(base ? { basePath: base } : {}),
    audiences: pageAudiences(input.pages),
  });
}

/** A base path without trailing slashes: `/v1/` → `/v1`, absent → ''. */
export function normalBase(basePath: string | undefined): string {
  return (basePath ?? '').replace(/\/+$/, '');
}

/** Gated pages' tags by page path: the renderer marks every entry naming them (audience.ts), so they are part of the shell. */
export function pageAudiences(pages: readonly { path: string; audience?: readonly string[] }[]): Record<string, string[]> {
  return Object.fromEntries(pages.filter((p) => p.audience?.length).map((p) => [p.path, [...p.audience!]]));
}

/** Where a page sits in the site, as {@link pageDocumentInput} reads it (site-layout.ts `SiteLayoutPage`). */
export interface DocumentPlace {
  path: string;
  /** docs-root file path (the edit link); absent for generated OpenAPI pages */
  filePath?: string;
  /** out of the sidebar and search: the document asks search engines not to index it */
  hidden: boolean;
  /** ISO date-time of the last commit changing the page's file; frontmatter `lastUpdated` wins */
  lastChanged?: string;
}

/**
 * What a page's document is made of besides the shell (the renderer's `SitePageInput`): the body with
 * the base path put before its root-relative links (site-versions.ts `withBasePath`), the last update,
 * and the description as the lead only when the author wrote it in frontmatter.
 * @param base the site's base path ('' at the root; {@link normalBase})
 */
export function pageDocumentInput(p: DocumentPlace, page: RenderedPage, base: string): SitePageInput {
  const lastUpdated = typeof page.frontmatter.lastUpdated === 'string' ? page.frontmatter.lastUpdated : p.lastChanged;
  return {
    path: p.path,
    title: page.title,
    ...(page.description ? { description: page.description } : {}),
    // a description the author did not write in frontmatter was derived from the body (generated
    // OpenAPI pages): meta tags only, the body already shows it
    ...(typeof page.frontmatter.description === 'string' ? {} : { lead: false }),
    html: withBasePath(page.html, base),
    toc: page.toc,
    ...(lastUpdated ? { lastUpdated } : {}),
    ...(p.hidden ? { hidden: true } : {}),
    ...(p.filePath ? { filePath: p.filePath } : {}),
  };
}
