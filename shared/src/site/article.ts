/**
 * The content column of a page (site-look.md "Content column"): eyebrow (group name), title, lead
 * description, the page body, then feedback, "Edit this page", last-updated date and previous/next
 * cards.
 */
import type { NavPage } from '../docs/types';
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

/** Previous/next cards ('' when the page has neither). */
export function renderPager(ctx: SiteContext, prev: NavPage | undefined, next: NavPage | undefined): string {
  if (!prev && !next) return '';
  const card = (p: NavPage, dir: 'prev' | 'next') =>
    `<a class="q-pager-card q-pager-${dir}" href="${ctx.pageHref(p.path)}" rel="${dir}">` +
    `<span class="q-pager-label">${dir === 'prev' ? `${icon('chevron-left')}Previous` : `Next${icon('chevron-right')}`}</span>` +
    `<span class="q-pager-title">${escapeHtml(pageLabel(p))}</span></a>`;
  return `<nav class="q-pager" aria-label="Previous and next pages">${prev ? card(prev, 'prev') : '<span></span>'}${next ? card(next, 'next') : ''}</nav>`;
}

/** The feedback question; site.js answers "Thanks" (the feedback API is wired later). */
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
    `<article class="q-article"><header class="q-page-header">${eyebrow}<h1 class="q-title">${escapeHtml(a.title)}</h1>${lead}</header>` +
    `${a.tocDisclosure}<div class="q-prose">${a.html}</div>` +
    `<footer class="q-page-footer">${actions}${a.pager}</footer></article>`
  );
}

/** Escaped "Edit this page" URL: base + file path, undefined without a base or when unsafe. */
export function editHref(editBaseUrl: string | undefined, filePath: string): string | undefined {
  if (!editBaseUrl) return undefined;
  const base = editBaseUrl.endsWith('/') ? editBaseUrl : `${editBaseUrl}/`;
  return safeHref(base + filePath.split('/').map(encodeURIComponent).join('/'));
}
