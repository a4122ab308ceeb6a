/**
 * The preview banner: the slim bar site hosting puts at the top of every HTML page of a preview
 * deployment (a branch, a pull request or a review; decisions.md section 4), naming what the
 * preview shows and listing the pages it adds, changes and removes against production.
 *
 * Its data is `_quire/preview.json`, written into the preview deployment by the build
 * (server/src/jobs/preview-changes.ts) and read by site hosting (server/src/sites), which renders
 * the banner once per page file. Markup only: no script (decisions.md section 10, the site CSP),
 * no inline style; the look is `PREVIEW_BANNER_CSS` in theme-css.ts. The changes list is a
 * `<details>` disclosure, so it works without JavaScript.
 */
import { z } from 'zod';
import { escapeHtml, safeHref } from './escape';
import { icon } from './icons';

/** Where the preview data lives inside a preview deployment. */
export const PREVIEW_INFO_FILE = '_quire/preview.json';

/** One page in the changes list: its page path (`guides/setup`, no extension) and title. */
export const PreviewPageSchema = z.object({ path: z.string(), title: z.string() });
/** See {@link PreviewPageSchema}. */
export type PreviewPage = z.infer<typeof PreviewPageSchema>;

/** Pages of a preview against the production deployment it was compared with, each list in navigation (manifest) order. */
export const PreviewChangesSchema = z.object({
  added: z.array(PreviewPageSchema),
  changed: z.array(PreviewPageSchema),
  removed: z.array(PreviewPageSchema),
});
/** See {@link PreviewChangesSchema}. */
export type PreviewChanges = z.infer<typeof PreviewChangesSchema>;

/** What a preview shows: a branch, a pull request (webhooks) or a review's change set. */
export type PreviewKind = 'branch' | 'pull_request' | 'review';

/**
 * The content of `_quire/preview.json`.
 * - `label`: what the banner names. Branch: the branch name (`feature/login`). Pull request:
 *   `#12 Add login docs` (number, then the title). Review: the review's title (`Fix the intro`;
 *   previews built before that say `Review rev_x: title`, shown as the title alone).
 * - `branch`: the branch built; `pullRequest`: the pull request's number (kind `pull_request`).
 * - `productionUrl`: the project's production site (`http://acme-docs.localhost:4000/`); removed
 *   pages and the "View production" link point there.
 */
export const PreviewInfoSchema = z.object({
  kind: z.enum(['branch', 'pull_request', 'review']),
  label: z.string(),
  branch: z.string(),
  pullRequest: z.number().int().positive().optional(),
  productionUrl: z.string(),
  changes: PreviewChangesSchema,
});
/** See {@link PreviewInfoSchema}. */
export type PreviewInfo = z.infer<typeof PreviewInfoSchema>;

/**
 * What the banner can show: everything of {@link PreviewInfo}, or for a preview deployment without
 * (valid) preview data only its channel name (`{ channel: 'feature-login' }`): the banner then says
 * it is a preview, without a changes list or a production link.
 */
export type PreviewBannerInput = PreviewInfo | { channel: string };

/** Entries listed in the banner at most (the count in the summary is always complete). */
export const PREVIEW_BANNER_MAX_LISTED = 50;

/**
 * Returns a function rendering the banner of one page: `render(pagePath)` gives the markup for
 * the page at `pagePath` (its link in the list gets `aria-current="page"`, and "View production"
 * opens the same page on production when production has it); `render()` for other HTML files
 * (the not-found page). Everything that came from users (branch names, pull request and page
 * titles, paths) is escaped; hrefs are root-relative to the preview for added and changed pages
 * and absolute on production for removed ones.
 *
 * Markup: `<aside class="q-preview" aria-label="Preview">` holding one line (a "Preview" badge,
 * the sentence "Preview of branch feature/login" / "Preview of pull request #12: Add login docs" /
 * "Preview of review Fix the intro", a `<details>` "Changed pages (N)" whose panel groups the
 * pages under Added, Changed and Removed (at most {@link PREVIEW_BANNER_MAX_LISTED} entries, then
 * "and N more"), and a "View production" link).
 */
export function previewBannerRenderer(input: PreviewBannerInput): (pagePath?: string) => string {
  if ('channel' in input) {
    const channel = channelName(input.channel);
    const html =
      `<aside class="q-preview" aria-label="Preview"><div class="q-preview-bar">${BADGE}` +
      `<p class="q-preview-label" title="${escapeHtml(`Preview ${channel}`)}">This is a preview (<strong>${escapeHtml(channel)}</strong>), not the production site</p>` +
      `</div></aside>`;
    return () => html;
  }
  const production = safeHref(input.productionUrl) ? input.productionUrl.replace(/\/+$/, '') : undefined;
  const { text, html: labelHtml } = describe(input);
  const added = new Set(input.changes.added.map((p) => p.path));
  const head = `<aside class="q-preview" aria-label="Preview"><div class="q-preview-bar">${BADGE}<p class="q-preview-label" title="${escapeHtml(text)}">${labelHtml}</p>`;
  const total = input.changes.added.length + input.changes.changed.length + input.changes.removed.length;
  return (pagePath) => {
    const list = total === 0 ? '<span class="q-preview-none">No changed pages</span>' : changesHtml(input.changes, total, production, pagePath);
    // The same page on production when production has it (every page the preview did not add), else its home.
    const onProduction = pagePath !== undefined && !added.has(pagePath) ? pagePath : undefined;
    const prodLink = production
      ? `<a class="q-preview-production" href="${escapeHtml(onProduction !== undefined ? pageUrl(production, onProduction) : `${production}/`)}">${wide('View ')}production${icon('arrow-up-right')}</a>`
      : '';
    return `${head}${list}${prodLink}</div></aside>`;
  };
}

/** Words shown on wide screens only (kept for assistive technology on phones: visually hidden, not removed). */
const wide = (text: string) => `<span class="q-preview-wide">${text}</span>`;

/** The "Preview" badge (on phones only its icon shows; the region's name still says it). */
const BADGE = `<span class="q-preview-badge">${icon('eye')}${wide('Preview')}</span>`;


/** Characters of an id kept where one must be shown (a build id's last 6 in the desktop app too). */
const SHORT_ID = 6;

/**
 * A review preview's name for people: its label (the review's title). A label of the older form
 * `Review rev_<id>: <title>` gives its title; one naming only the review gives `…` and the last
 * {@link SHORT_ID} characters of its id.
 */
function reviewTitle(label: string): string {
  const older = /^review\s+rev_([0-9A-Za-z]+)(?::\s*([\s\S]*))?$/i.exec(label.trim());
  if (!older) return label;
  return older[2]?.trim() || `…${older[1]!.slice(-SHORT_ID)}`;
}

/** A preview channel's name for people: a review's channel (`review-<id>`) with its id cut to the last {@link SHORT_ID} characters. */
function channelName(channel: string): string {
  const review = /^review-([a-z0-9]{12,})$/.exec(channel);
  return review ? `review …${review[1]!.slice(-SHORT_ID)}` : channel;
}

/** The banner's sentence as plain text (its `title`, for the truncated line) and as markup. */
function describe(info: PreviewInfo): { text: string; html: string } {
  if (info.kind === 'pull_request' && info.pullRequest !== undefined) {
    const number = `#${info.pullRequest}`;
    const title = info.label.startsWith(number) ? info.label.slice(number.length).replace(/^[\s:–-]+/, '') : info.label;
    return {
      text: `Preview of pull request ${number}${title ? `: ${title}` : ''}`,
      html: `${wide('Preview of pull request ')}<strong>${escapeHtml(number)}</strong>${title ? `: ${escapeHtml(title)}` : ''}`,
    };
  }
  if (info.kind === 'review') {
    const title = reviewTitle(info.label);
    return { text: `Preview of review ${title}`, html: `${wide('Preview of review ')}<strong>${escapeHtml(title)}</strong>` };
  }
  const what = info.kind === 'pull_request' ? 'pull request' : 'branch';
  return { text: `Preview of ${what} ${info.label}`, html: `${wide(`Preview of ${what} `)}<strong>${escapeHtml(info.label)}</strong>` };
}

/** The `<details>` with the grouped lists, at most {@link PREVIEW_BANNER_MAX_LISTED} entries. */
function changesHtml(changes: PreviewChanges, total: number, production: string | undefined, current: string | undefined): string {
  let budget = PREVIEW_BANNER_MAX_LISTED;
  const groups: string[] = [];
  const group = (key: 'added' | 'changed' | 'removed', name: string, href: (p: PreviewPage) => string | undefined) => {
    const pages = changes[key];
    if (pages.length === 0) return;
    const shown = pages.slice(0, Math.max(0, budget));
    budget -= shown.length;
    const items = shown.map((p) => {
      const url = href(p);
      const title = escapeHtml(p.title || p.path);
      const aria = p.path === current && key !== 'removed' ? ' aria-current="page"' : '';
      const away = key === 'removed' ? `<span class="q-visually-hidden"> (on production)</span>${icon('arrow-up-right')}` : '';
      const link = url ? `<a href="${escapeHtml(url)}"${aria}>${title}${away}</a>` : title;
      return `<li>${link}<span class="q-preview-path">/${escapeHtml(p.path)}</span></li>`;
    });
    const more = pages.length - shown.length;
    if (more > 0) items.push(`<li class="q-preview-more">and ${more} more</li>`);
    const id = `q-preview-${key}`;
    groups.push(
      `<p class="q-preview-group q-preview-${key}" id="${id}">${name} <span class="q-preview-count">${pages.length}</span></p>` +
        `<ul aria-labelledby="${id}">${items.join('')}</ul>`,
    );
  };
  group('added', 'Added', (p) => pageUrl('', p.path));
  group('changed', 'Changed', (p) => pageUrl('', p.path));
  group('removed', 'Removed', (p) => (production ? pageUrl(production, p.path) : undefined));
  return (
    `<details class="q-preview-changes"><summary>Changed${wide(' pages')} (${total})${icon('chevron-down', 'q-icon q-preview-chevron')}</summary>` +
    `<div class="q-preview-panel">${groups.join('')}</div></details>`
  );
}

/** `<base>/<encoded page path>`; the home page `index` is `<base>/`. */
function pageUrl(base: string, pagePath: string): string {
  if (pagePath === 'index') return `${base}/`;
  return `${base}/${pagePath.split('/').map(encodeURIComponent).join('/')}`;
}
