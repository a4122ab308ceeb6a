/**
 * The site's documentation versions in its pages (interface-spec.md "Versioning > Documentation
 * versions" rule 5; decisions.md section 6): the version switcher of the top bar, the banner of a
 * deprecated version, and the base path of a version deployment laid over a page body's
 * root-relative links. Which version is current is the renderer's base path: `''` is the default
 * version (served at `/`), `/<label>` the others.
 *
 * These are Quire's own `versioning.versions` (one build per version, each from its own git ref).
 * Mintlify's in-branch versions (`navigation.versions`, mint.json `versions`) are navigation
 * divisions and render with the other divisions (divisions.ts).
 */
import { defaultVersion, SWITCHER_PARAM, SWITCHER_VALUE, versionPrefix, type DocVersion } from '../docs/versions';
import type { SiteContext } from './context';
import { escapeHtml } from './escape';
import { icon } from './icons';

/** The versions of the site, the default and the current one; undefined with fewer than two versions (no switcher, rule 5). */
function versionsOf(ctx: SiteContext): { versions: DocVersion[]; def: DocVersion; current: DocVersion | undefined } | undefined {
  const versions = ctx.site.versioning?.versions ?? [];
  if (versions.length < 2) return undefined;
  const def = defaultVersion(versions)!;
  const current = versions.find((v) => versionPrefix(v, versions) === ctx.base);
  return { versions, def, current };
}

/** The URL of a page path on a version (`/v1/guides/setup`, `/` for the default's home). */
function pathOn(prefix: string, pagePath: string | undefined): string {
  if (pagePath === undefined || pagePath === '' || pagePath === 'index') return `${prefix}/`;
  return `${prefix}/${pagePath.split('/').map(encodeURIComponent).join('/')}`;
}

/** The visible text badges of a version (`latest`, `deprecated`), as markup. */
function badges(v: DocVersion, def: DocVersion): string {
  let out = '';
  if (v === def) out += ' <span class="q-badge q-badge-sm q-badge-green q-version-badge">latest</span>';
  if (v.deprecated) out += ' <span class="q-badge q-badge-sm q-badge-deprecated q-version-badge">deprecated</span>';
  return out;
}

/**
 * The version switcher of the top bar (a native `<details>`, like the other switchers, so it works
 * without JavaScript): one link per version, the default badged "latest" and deprecated ones
 * "deprecated" (visible text, part of each link's accessible name). Each link keeps the page being
 * read: it targets `/<label>/<page path>` (the default: `/<page path>`) with the
 * {@link SWITCHER_PARAM} marker, so site hosting answers a page the target version lacks with a
 * redirect to that version's first page instead of a 404. '' with fewer than two versions.
 * @param pagePath the page being rendered (`guides/setup`); undefined for the 404 page (links go to each version's root)
 */
export function renderSiteVersions(ctx: SiteContext, pagePath?: string): string {
  const known = versionsOf(ctx);
  if (!known) return '';
  const { versions, def, current } = known;
  const items = versions
    .map((v) => {
      const href = `${pathOn(versionPrefix(v, versions), pagePath)}?${SWITCHER_PARAM}=${SWITCHER_VALUE}`;
      const attrs = v === current ? ' aria-current="true"' : '';
      return `<li><a href="${escapeHtml(href)}"${attrs}><span class="q-switcher-text"><span class="q-switcher-title">${escapeHtml(v.label)}${badges(v, def)}</span></span></a></li>`;
    })
    .join('');
  const shown = current ?? def;
  return (
    `<details class="q-switcher q-switcher-header q-switcher-versions" data-q-switcher><summary aria-label="Version: ${escapeHtml(shown.label)}${shown === def ? ' (latest)' : ''}${shown.deprecated ? ' (deprecated)' : ''}">` +
    `<span class="q-switcher-text"><span class="q-switcher-title">${escapeHtml(shown.label)}${badges(shown, def)}</span></span>` +
    `${icon('chevron-down', 'q-icon q-switcher-chevron')}</summary><ul class="q-switcher-menu">${items}</ul></details>`
  );
}

/**
 * Where the version switcher goes in the top bar: the top bar is rendered once per navigation scope
 * (renderer.ts), the switcher once per page (its links keep the page path), so the top bar holds
 * this marker and {@link fillVersionSwitcher} puts the page's switcher there.
 */
export const VERSION_SWITCHER_SLOT = '<!--quire:versions-->';

/** {@link VERSION_SWITCHER_SLOT} when the site shows a version switcher (two or more versions), else ''. */
export function versionSwitcherSlot(ctx: SiteContext): string {
  return versionsOf(ctx) ? VERSION_SWITCHER_SLOT : '';
}

/** A top bar with its {@link VERSION_SWITCHER_SLOT} replaced by the switcher of `pagePath` (see {@link renderSiteVersions}). */
export function fillVersionSwitcher(ctx: SiteContext, header: string, pagePath?: string): string {
  const at = header.indexOf(VERSION_SWITCHER_SLOT);
  if (at === -1) return header;
  return header.slice(0, at) + renderSiteVersions(ctx, pagePath) + header.slice(at + VERSION_SWITCHER_SLOT.length);
}

/**
 * The banner at the top of every page of a deprecated version (rule 5): its `deprecationMessage`,
 * else a default sentence, with a link to the same page on the latest (default) version (through
 * the switcher's marker, so a page the latest version lacks lands on its first page). Escaped; ''
 * when the current version is not deprecated (or the site has fewer than two versions).
 * @param pagePath the page being rendered; undefined for the 404 page (the link goes to the latest version's root)
 */
export function renderDeprecationBanner(ctx: SiteContext, pagePath?: string): string {
  const known = versionsOf(ctx);
  if (!known?.current?.deprecated || known.current === known.def) return '';
  const { current, def } = known;
  const message = current.deprecationMessage?.trim() || `You are reading the documentation of ${current.label}, a deprecated version.`;
  const href = `${pathOn('', pagePath)}?${SWITCHER_PARAM}=${SWITCHER_VALUE}`;
  return (
    `<div class="q-banner q-version-banner" role="note" aria-label="Deprecated version"><p>${escapeHtml(message)} ` +
    `<a href="${escapeHtml(href)}">Go to the latest version (${escapeHtml(def.label)})</a></p></div>`
  );
}

/** `href="/…"`, `src="/…"` (not `//host`): root-relative URLs of rendered HTML. */
const ROOT_RELATIVE = /(\s(?:href|src|poster)=")\/(?!\/)/g;

/**
 * A page body whose root-relative links and images (`href="/guides/setup"`, `src="/images/a.png"`)
 * point into the deployment's base path (`/v1/guides/setup`): a version deployment is served under
 * `/<label>/` (rule 3), and the Markdown of its pages links as if it were at the root. Relative and
 * absolute URLs and fragments are left alone. The body is returned unchanged when `base` is ''.
 * @param base the normalized base path (`/v1`, no trailing slash) or ''
 */
export function withBasePath(html: string, base: string): string {
  if (base === '') return html;
  const prefix = escapeHtml(base);
  return html.replace(ROOT_RELATIVE, (_, attr: string) => `${attr}${prefix}/`);
}
