/**
 * "On this page": the right rail (>= 1280 px, scroll-spy by site.js) and, on narrower screens, the
 * same list as a disclosure at the top of the page (site-look.md "Phone").
 */
import type { TocEntry } from '../docs/types';
import { escapeHtml } from './escape';
import { icon } from './icons';

/** The rail and the disclosure for a page's h2/h3 entries; both '' when the page has none. */
export function renderToc(toc: TocEntry[]): { rail: string; disclosure: string } {
  if (toc.length === 0) return { rail: '', disclosure: '' };
  const items = toc
    .map((e) => `<li class="q-toc-d${e.depth === 3 ? 3 : 2}"><a href="#${escapeHtml(encodeURIComponent(e.id))}" data-q-toc>${escapeHtml(e.text)}</a></li>`)
    .join('');
  return {
    rail: `<aside class="q-toc" aria-labelledby="q-toc-title"><div class="q-toc-inner"><p class="q-toc-title" id="q-toc-title">${icon('list')}On this page</p><ul class="q-toc-list">${items}</ul></div></aside>`,
    disclosure: `<details class="q-toc-mobile"><summary>${icon('list')}<span>On this page</span>${icon('chevron-right', 'q-icon q-chevron')}</summary><ul class="q-toc-list">${items}</ul></details>`,
  };
}
