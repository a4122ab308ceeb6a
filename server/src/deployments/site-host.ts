/**
 * Site host names (decisions.md sections 3, 4 and 6).
 *
 * - production: `<slug>-docs.<sitesDomain>` (any port)
 * - preview:    `<branch-slug>--<slug>-docs.<sitesDomain>` (project slugs never hold `--`, so the
 *   last `--` of the first label separates the branch slug from the project slug)
 */

/** What a site host name names: a project slug and, for previews, the branch slug ("" for production). */
export interface SiteHost {
  slug: string;
  previewName: string;
}

const SLUG = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
const PREVIEW_NAME = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/**
 * The site host name of a project's production site (`<slug>-docs.<sitesDomain>`), or of one of its
 * preview channels (`<previewName>--<slug>-docs.<sitesDomain>`), lower case, without port.
 */
export function siteHostName(slug: string, sitesDomain: string, previewName = ''): string {
  const production = `${slug}-docs.${sitesDomain.toLowerCase()}`;
  return previewName ? `${previewName}--${production}` : production;
}

/** Lower-cases a Host header value and strips its port (`Acme-Docs.localhost:4000` → `acme-docs.localhost`). */
export function hostName(host: string): string {
  const lower = host.toLowerCase();
  if (lower.startsWith('[')) return lower.slice(0, lower.indexOf(']') + 1);
  const colon = lower.indexOf(':');
  const name = colon === -1 ? lower : lower.slice(0, colon);
  return name.endsWith('.') ? name.slice(0, -1) : name;
}

/**
 * Parses a host name (already passed through {@link hostName}) as a site host of `sitesDomain`.
 * @returns the slug and preview name; `null` for a `*-docs.<sitesDomain>` name that no project
 *   can have (still a site host: it gets the plain 404); `undefined` when `name` is not a site
 *   host of the sites domain (the request belongs to the API, or to a custom domain).
 */
export function parseSiteHost(name: string, sitesDomain: string): SiteHost | null | undefined {
  const suffix = `-docs.${sitesDomain.toLowerCase()}`;
  if (!name.endsWith(suffix)) return undefined;
  const label = name.slice(0, -suffix.length);
  if (label.length === 0 || label.includes('.')) return null;
  const sep = label.lastIndexOf('--');
  const slug = sep === -1 ? label : label.slice(sep + 2);
  const previewName = sep === -1 ? '' : label.slice(0, sep);
  if (!SLUG.test(slug)) return null;
  if (sep !== -1 && !PREVIEW_NAME.test(previewName)) return null;
  return { slug, previewName };
}

/** Longest DNS label (RFC 1035); browsers refuse longer ones. */
const MAX_LABEL = 63;

/**
 * The branch slug of a preview host: lower case, every run of characters other than `a-z0-9`
 * becomes one `-`, no leading/trailing `-`, cut so that `<branch-slug>--<slug>-docs` fits in one
 * 63-character DNS label (at least 1 character). `feature/New_UI` → `feature-new-ui`.
 * A branch of only symbols gives `branch`.
 */
export function branchSlug(branch: string, projectSlug: string): string {
  const base = branch.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '') || 'branch';
  const room = Math.max(1, MAX_LABEL - projectSlug.length - '---docs'.length);
  return base.slice(0, room).replace(/-+$/, '') || base.slice(0, 1);
}

/**
 * A preview site's URL from the production site URL of the same project:
 * `http://acme-docs.localhost:4000/` + `feature-x` → `http://feature-x--acme-docs.localhost:4000/`.
 */
export function previewSiteUrl(productionUrl: string, previewName: string): string {
  const url = new URL(productionUrl);
  url.hostname = `${previewName}--${url.hostname}`;
  return url.toString();
}
