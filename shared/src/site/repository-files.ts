/**
 * How a site serves the files copied from the customer's repository (as opposed to the files
 * the builder generated: pages, `404.html`, `llms.txt`, `sitemap.xml`, `_quire/assets/`): site
 * hosting (server/src/sites/cached-file.ts) and `quire-docs dev` (cli/src/dev/) answer them by this rule.
 *
 * A repository file must never run script in the site's origin (decisions.md section 10: the
 * site runs only its own scripts). Slugs are reused by other tenants, so a script, an HTML page
 * or a service worker from one repository must not act on the origin either. The rule, by the
 * file's MIME type (from its extension, the `mime` package):
 *
 * - passive types, which browsers only display or download (images other than SVG, audio,
 *   video, fonts, CSS, plain text, Markdown, CSV, YAML, JSON, PDF, archives): served with
 *   their own type, like before;
 * - SVG (`image/svg+xml`), used by pages as images: its own type, plus the inert policy
 *   {@link INERT_CSP} (`sandbox`, no script) for when it is opened directly; an `<img>` never
 *   runs an SVG's script anyway;
 * - every other text-like type (HTML, XHTML, XML, XSLT, JavaScript `.js`/`.mjs`/`.cjs`, and any
 *   other `text/*`): `text/plain; charset=utf-8`, so with `nosniff` a browser neither renders it
 *   as a document nor runs it as a script or a service worker (both need their own MIME type);
 * - everything else (WebAssembly, Flash, MHTML, unknown extensions): a download,
 *   `application/octet-stream` with `Content-Disposition: attachment`.
 *
 * Text and download answers carry {@link INERT_CSP} too. All answers keep `nosniff`.
 */

/** Per-response CSP of repository files that could hold active content: nothing loads, nothing runs, own unique origin. */
export const INERT_CSP = "default-src 'none'; style-src 'unsafe-inline'; sandbox";

/** How one repository file is answered: its `Content-Type`, and whether it is inert (CSP) or a download. */
export interface RepositoryFileType {
  /** the `Content-Type` value (without charset; the caller adds it to text types) */
  type: string;
  /** answered with {@link INERT_CSP} instead of the site's CSP */
  inert: boolean;
  /** answered with `Content-Disposition: attachment` */
  download: boolean;
}

const PASSIVE_PREFIXES = ['image/', 'audio/', 'video/', 'font/'];
const PASSIVE_TYPES = new Set([
  'text/plain', 'text/markdown', 'text/css', 'text/csv', 'text/vtt', 'text/yaml', 'text/calendar',
  'application/json', 'application/ld+json', 'application/manifest+json', 'application/yaml',
  'application/pdf', 'application/zip', 'application/gzip', 'application/x-tar', 'application/x-7z-compressed',
]);
const SVG = 'image/svg+xml';
/** Types shown as text when served as `text/plain`: all text, XML dialects, scripts. */
const TEXT_LIKE = /^text\/|[/+]xml$|\/xml-dtd$|javascript$|ecmascript$|^application\/(?:node|x-httpd-php|json5?)$|\+json$/;

/**
 * The type a repository file is served with, by the rule above.
 * @param type the file's MIME type by extension (`mime.getType`), `null` when unknown
 */
export function repositoryFileType(type: string | null): RepositoryFileType {
  if (type === SVG) return { type, inert: true, download: false };
  if (type && (PASSIVE_TYPES.has(type) || PASSIVE_PREFIXES.some((p) => type.startsWith(p)))) {
    return { type, inert: false, download: false };
  }
  if (type && TEXT_LIKE.test(type)) return { type: 'text/plain', inert: true, download: false };
  return { type: 'application/octet-stream', inert: true, download: true };
}
