/**
 * The site theme, looking and feeling as site-look.md describes:
 * page documents with navigation chrome, the per-site theme css and the theme's asset files.
 */
export { createSiteRenderer, type SiteRenderer } from './renderer';
export type { SitePageInput, SiteRendererInput } from './context';
export { siteThemeCss, cssColor, DEFAULT_PRIMARY } from './theme-css';
export { SITE_CSS_FILES, SITE_JS_FILES, THEME_JS_FILE } from './asset-files';
export { escapeHtml, safeHref } from './escape';
