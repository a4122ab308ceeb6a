/**
 * createSiteRenderer: wraps rendered pages into complete HTML documents with the site's chrome
 * (looking and feeling as site-look.md describes). Everything that does
 * not depend on the page (head, footer, per-scope header) is computed once per site, so a page
 * costs a sidebar walk and string concatenation (well under 1 ms for thousands of pages).
 */
import { editHref, PAGER_MAX_GATED, renderArticle, renderPager } from './article';
import { createSiteContext, type SitePageInput, type SiteRendererInput } from './context';
import { createDocumentShell, renderHeadMeta } from './document';
import { escapeHtml } from './escape';
import { pageAssetTags } from './page-assets';
import { renderPageActions } from './page-actions';
import { fillDivisionSwitchers, scopeLanguage, withPageLanguage } from './divisions';
import { renderHeader } from './header';
import type { NavPlace, NavScope } from './nav-index';
import { didYouMeanMarker, renderNotFoundSearch } from './not-found';
import { createSidebarTemplate, pageLabel, type SidebarTemplate } from './sidebar';
import { fillVersionSwitcher, renderDeprecationBanner } from './site-versions';
import { renderToc } from './toc';

/** Renders the documents of one site build. */
export interface SiteRenderer {
  /** The full HTML document of a page (see SitePageInput). */
  page(p: SitePageInput): string;
  /** The 404 document: same chrome, links to the home page and the first pages. */
  notFound(): string;
}

/** How many pages the 404 page suggests. */
const NOT_FOUND_SUGGESTIONS = 6;

/** Creates the renderer of one site build (call once; `page` is then called for every page). */
export function createSiteRenderer(input: SiteRendererInput): SiteRenderer {
  const ctx = createSiteContext(input);
  const shell = createDocumentShell(ctx);
  const headers = new Map<NavScope, string>();
  const header = (scope: NavScope) => {
    let h = headers.get(scope);
    if (h === undefined) headers.set(scope, (h = renderHeader(ctx, scope)));
    return h;
  };

  const sidebars = new Map<NavScope, SidebarTemplate>();
  const sidebar = (scope: NavScope) => {
    let t = sidebars.get(scope);
    if (t === undefined) sidebars.set(scope, (t = createSidebarTemplate(ctx, scope)));
    return t;
  };

  /** `pagePath`: the page (undefined on the 404 page), for the version switcher and the deprecated version's banner (site-versions.ts). */
  const layout = (scope: NavScope, sidebar: string, article: string, tocRail: string, pagePath?: string) =>
    `${renderDeprecationBanner(ctx, pagePath)}${fillVersionSwitcher(ctx, fillDivisionSwitchers(ctx, header(scope), scope, pagePath), pagePath)}<div class="q-layout${tocRail ? ' q-has-toc' : ''}">${sidebar}` +
    `<div class="q-backdrop" data-q-drawer-close hidden></div>` +
    `<main class="q-main" id="content" tabindex="-1">${article}</main>${tocRail}</div>`;

  /** Previous/next candidates of a page: one page each side, more when gated pages come first (renderPager). */
  const pagerOf = (place: NavPlace | undefined) => {
    if (!place || place.position < 0) return ''; // outside the navigation, or hidden: no previous/next
    const pages = place.scope.pages;
    const i = place.position;
    const reach = PAGER_MAX_GATED + 1;
    return renderPager(ctx, pages.slice(Math.max(0, i - reach), i).reverse(), pages.slice(i + 1, i + 1 + reach));
  };

  return {
    page(p) {
      const place = ctx.index.place(p.path);
      const scope = ctx.index.scopeFor(p.path);
      const groups = place?.groups ?? [];
      const eyebrow = [...groups].reverse().find((g) => g.title)?.title;
      const toc = renderToc(p.toc);
      const article = renderArticle({
        eyebrow,
        title: p.title,
        description: p.lead === false ? undefined : p.description,
        html: p.html,
        tocDisclosure: toc.disclosure,
        editHref: editHref(input.editBaseUrl, p.filePath ?? `${p.path}.mdx`),
        lastUpdated: p.lastUpdated,
        pager: pagerOf(place),
        feedback: true,
        pageActions: renderPageActions({ options: ctx.site.contextual, path: p.path, base: ctx.base, siteName: ctx.site.name }),
      });
      return (
        withPageLanguage(shell.open, scopeLanguage(scope)) +
        renderHeadMeta(ctx, p.title, p.description, p.hidden === true) +
        pageAssetTags(input.assets, p.html) +
        shell.headEnd +
        layout(scope, sidebar(scope).render(p.path, groups), article, toc.rail, p.path) +
        shell.close
      );
    },

    notFound() {
      const scope = ctx.index.defaultScope;
      // gated pages are never suggested: the 404 page is the same for every visitor
      const suggestions = ctx.index.pages
        .filter((pg) => !ctx.audienceOf(pg.path))
        .slice(0, NOT_FOUND_SUGGESTIONS)
        .map((pg) => `<li><a href="${ctx.pageHref(pg.path)}">${escapeHtml(pageLabel(pg))}</a></li>`)
        .join('');
      const body =
        `<p>The page you are looking for does not exist, or it has moved.</p>` +
        // site hosting fills the marker with the pages closest to the requested path (not-found.ts)
        `${didYouMeanMarker(ctx.base)}${renderNotFoundSearch()}` +
        `<p><a class="q-button" href="${ctx.pageHref('index')}">Go to the home page</a></p>` +
        (suggestions ? `<h2 id="start-here">Start here</h2><ul>${suggestions}</ul>` : '');
      const article = renderArticle({
        eyebrow: 'Error 404',
        title: 'Page not found',
        html: body,
        tocDisclosure: '',
        pager: '',
        feedback: false,
      });
      return (
        shell.open +
        renderHeadMeta(ctx, 'Page not found', undefined, true) +
        shell.headEnd +
        layout(scope, sidebar(scope).render(undefined, []), article, '') +
        shell.close
      );
    },
  };
}
