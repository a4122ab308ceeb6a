/**
 * The URLs the preview frames load from the core (served by preview-files.ts): root-relative, so they
 * resolve against the app's page (a `srcdoc` frame's base URL is its parent's), in web mode on the
 * core's HTTP server and in Electron through the shell's `file:` handler.
 */

/** The URL path prefix of everything the preview loads from the core. */
export const PREVIEW_PREFIX = '/_quire-preview/';
/** The URL of KaTeX's stylesheet for previews (its fonts are beside it, under `fonts/`). */
export const PREVIEW_KATEX_CSS = `${PREVIEW_PREFIX}_assets/katex.css`;
/** The URL of the site's deferred scripts (`site.<hash>.js` of a build: shared/src/site/asset-files.ts `SITE_JS_FILES`). */
export const PREVIEW_SITE_JS = `${PREVIEW_PREFIX}_assets/site.js`;
/** The URL of the bundled mermaid the site loads on pages holding a diagram. */
export const PREVIEW_MERMAID_JS = `${PREVIEW_PREFIX}_assets/mermaid.js`;
/** The URL of the preview frame's own script (preview-frame-script.ts: scroll sync by message). */
export const PREVIEW_FRAME_JS = `${PREVIEW_PREFIX}_assets/frame.js`;

/**
 * The base path of a project's published files in the preview (`/_quire-preview/local%3Aab12`, no
 * trailing slash): `/images/a.png` of the site is `<base>/images/a.png` here.
 */
export function previewBasePath(projectId: string): string {
  return `${PREVIEW_PREFIX}${encodeURIComponent(projectId)}`;
}
