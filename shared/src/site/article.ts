/**
 * The content column of a page (site-look.md "Content column"): eyebrow (group name), title, lead
 * description, the page body, then feedback, "Edit this page", last-updated date and previous/next
 * cards (gated ones marked for site hosting, audience.ts).
 */
import { editUrlFor } from '../docs/edit-link';
import type { NavPage } from '../docs/types';
import { audienceAttrs } from './audience';
import type { SiteContext } from './context';
import { escapeHtml, safeHref } from './escape';
import { icon } from './icons';
import { pageLabel } from './sidebar';

const DATE = new Intl.DateTimeFormat('en-US', { year: 'numeric', month: 'long', day: 'numeric', timeZone: 'UTC' });

/** `<time>` for an ISO date ('' when the value is not a date). */
export function renderLastUpdated(value: string | undefined): string {
  if (!value) return '';
  const d = new Date(value);
  if (Number.isNaN(d.getTime())) return '';
  return `<p class="q-updated">Last updated <time datetime="${escapeHtml(d.toISOString())}">${DATE.format(d)}</time></p>`;
}

/** Gated candidates a previous/next card looks past at most before giving up on an ungated one. */
export const PAGER_MAX_GATED = 12;

/**
 * Previous/next cards ('' when the page has neither). Without gated pages (audience.ts) each side is
 * one card: `before[0]` and `after[0]`. Gated pages are written as candidates: a side lists the
 * pages in reading order up to the first ungated one (at most {@link PAGER_MAX_GATED} gated ones),
 * each card shown only to visitors who can open it and hidden from those who can open a closer
 * one, so every visitor sees the nearest page they can read on each side (and the empty
 * placeholder keeping the layout when they can read none before).
 * @param before pages before the current one, nearest first; `after` likewise
 */
export function renderPager(ctx: SiteContext, before: readonly NavPage[], after: readonly NavPage[]): string {
  const card = (p: NavPage, dir: 'prev' | 'next', attrs: string) =>
    `<a class="q-pager-card q-pager-${dir}" href="${ctx.pageHref(p.path)}" rel="${dir}"${attrs}>` +
    `<span class="q-pager-label">${dir === 'prev' ? `${icon('chevron-left')}Previous` : `Next${icon('chevron-right')}`}</span>` +
    `<span class="q-pager-title">${escapeHtml(pageLabel(p))}</span></a>`;
  const side = (pages: readonly NavPage[], dir: 'prev' | 'next'): { html: string; fallback?: string[] } => {
    let html = '';
    const closer = new Set<string>();
    let gated = 0;
    for (const p of pages) {
      const tags = ctx.audienceOf(p.path);
      // a gated page every visitor who could open it sees a closer card for: never shown
      if (tags && tags.every((t) => closer.has(t))) continue;
      html += card(p, dir, audienceAttrs(tags, closer));
      if (!tags) return { html };
      for (const t of tags) closer.add(t);
      if (++gated >= PAGER_MAX_GATED) break;
    }
    return { html, ...(closer.size ? { fallback: [...closer] } : {}) };
  };
  const prev = side(before, 'prev');
  const next = side(after, 'next');
  if (!prev.html && !next.html) return '';
  // the empty first cell when there is no previous page (for visitors who can open none of the gated ones)
  const placeholder = !prev.html ? '<span></span>' : prev.fallback ? `<span${audienceAttrs(undefined, prev.fallback)}></span>` : '';
  return `<nav class="q-pager" aria-label="Previous and next pages">${prev.html}${placeholder}${next.html}</nav>`;
}

/**
 * The feedback question "Was this page helpful?" (site-look.md "Content column"). assets/feedback.js
 * makes it work: Yes/No, then an optional comment and Send, posted to the site's
 * `/_quire/feedback/page`; it also adds the section votes next to h2/h3 headings.
 */
export const FEEDBACK_HTML =
  '<div class="q-feedback" data-q-feedback><span class="q-feedback-question" id="q-feedback-q">Was this page helpful?</span>' +
  '<span class="q-feedback-buttons" role="group" aria-labelledby="q-feedback-q">' +
  '<button type="button" class="q-btn-ghost" data-q-feedback-value="yes">Yes</button>' +
  '<button type="button" class="q-btn-ghost" data-q-feedback-value="no">No</button></span>' +
  '<span class="q-feedback-thanks" role="status"></span></div>';

/** Parts of the article besides the body. */
export interface ArticleParts {
  eyebrow?: string;
  title: string;
  description?: string;
  /** trusted, sanitized page body */
  html: string;
  tocDisclosure: string;
  editHref?: string;
  lastUpdated?: string;
  pager: string;
  feedback: boolean;
  /** the page actions, beside the title and after it in reading order (page-actions.ts `renderPageActions`); none when absent */
  pageActions?: string;
}

/** The <article> markup. */
export function renderArticle(a: ArticleParts): string {
  const eyebrow = a.eyebrow ? `<p class="q-eyebrow">${escapeHtml(a.eyebrow)}</p>` : '';
  const lead = a.description ? `<p class="q-lead">${escapeHtml(a.description)}</p>` : '';
  const edit = a.editHref
    ? `<a class="q-edit" href="${a.editHref}" rel="noopener" target="_blank">${icon('pencil')}Edit this page</a>`
    : '';
  const updated = renderLastUpdated(a.lastUpdated);
  const meta = edit || updated ? `<div class="q-page-meta">${edit}${updated}</div>` : '';
  const actions = a.feedback || meta ? `<div class="q-page-actions">${a.feedback ? FEEDBACK_HTML : ''}${meta}</div>` : '';
  return (
    `<article class="q-article"><header class="q-page-header">${eyebrow}<h1 class="q-title">${escapeHtml(a.title)}</h1>${a.pageActions ?? ''}${lead}</header>` +
    `${a.tocDisclosure}<div class="q-prose">${a.html}</div>` +
    `<footer class="q-page-footer">${actions}${a.pager}</footer></article>`
  );
}

/**
 * Escaped "Edit this page" URL of a page file (docs/edit-link.ts `editUrlFor`: the template's `{path}`
 * replaced, or the path appended to a base), undefined without a template or when unsafe.
 */
export function editHref(editBaseUrl: string | undefined, filePath: string): string | undefined {
  return safeHref(editUrlFor(editBaseUrl, filePath));
}
