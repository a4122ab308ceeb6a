/**
 * The URLs the preview frames load from the core (served by preview-files.ts): root-relative, so they
 * resolve against the app's page (a `srcdoc` frame's base URL is its parent's), in web mode on the
 * core's HTTP server and in Electron through the shell's `file:` handler.
 */

/** The URL path prefix of everything the preview loads from the core. */
export const PREVIEW_PREFIX = '/_quire-preview/';
/** The URL of KaTeX's stylesheet for previews (its fonts are beside it, under `fonts/`). */
export const PREVIEW_KATEX_CSS = `${PREVIEW_PREFIX}_assets/katex.css`;

/**
 * The base path of a project's published files in the preview (`/_quire-preview/local%3Aab12`, no
 * trailing slash): `/images/a.png` of the site is `<base>/images/a.png` here.
 */
export function previewBasePath(projectId: string): string {
  return `${PREVIEW_PREFIX}${encodeURIComponent(projectId)}`;
}
