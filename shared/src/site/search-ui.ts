/**
 * The markup of the site's search (site-look.md "Top bar": a search box with a `Ctrl K` hint; on
 * phones an icon): the button in the top bar, the same button on the 404 page, and the modal search
 * dialog. Behaviour lives in assets/search.js (no inline script: the site CSP allows only 'self'
 * scripts), the look in assets/search.css.
 *
 * The dialog follows the WAI-ARIA combobox pattern (APG "Combobox with Listbox Popup"): the input is a
 * `combobox` controlling a `listbox` whose options are grouped (`group`) by page, the active option
 * shown through `aria-activedescendant`. The input is `type="text"`, so browsers draw no clear button
 * of their own next to the styled Esc key.
 *
 * Results come from the site's `GET /_quire/search?q=&limit=&version=` (decisions.md section 7 hit
 * shape: `{data: [{title, path, url, section, snippet, version, score}]}`); `version` is the label of
 * the documentation version being read, written on `<html data-version>` at build time
 * ({@link searchVersionAttr}).
 */
import { escapeHtml } from './escape';
import { icon } from './icons';

/** The site's search endpoint (decisions.md section 6: the site's own endpoints live under `/_quire/`). */
export const SITE_SEARCH_PATH = '/_quire/search';

/** The id of the search dialog, the target of every `data-q-search-open` button. */
export const SEARCH_DIALOG_ID = 'q-search';

/**
 * The search button (accessible name "Search", the visible `Ctrl K` hint; search.js shows `⌘K` on
 * Apple systems). `extraClass` places it elsewhere than the top bar (the 404 page's `q-search-btn-inline`),
 * with its own accessible `label` (escaped here).
 */
export function renderSearchButton(extraClass = '', label = 'Search'): string {
  const cls = extraClass ? `q-search-btn ${extraClass}` : 'q-search-btn';
  return (
    `<button class="${cls}" type="button" data-q-search-open aria-haspopup="dialog" aria-controls="${SEARCH_DIALOG_ID}" aria-label="${escapeHtml(label)}" aria-keyshortcuts="Control+K Meta+K /">` +
    `${icon('search')}<span class="q-search-label">Search...</span><kbd class="q-kbd">Ctrl K</kbd></button>`
  );
}

/**
 * The `data-version` attribute of `<html>` for a deployment served under a base path: the
 * version label (`/v1` → ` data-version="v1"`), which search.js sends as `version` so results stay in
 * the version being read; '' for a deployment at the site root (the default version).
 * @param base the renderer's normalized base path (`SiteContext.base`: '' or `/label`)
 */
export function searchVersionAttr(base: string): string {
  const label = base.replace(/^\/+/, '').split('/')[0];
  return label ? ` data-version="${escapeHtml(label)}"` : '';
}

/** The modal search dialog, once per document (after the footer). */
export const SEARCH_DIALOG_HTML =
  `<dialog class="q-search-dialog" id="${SEARCH_DIALOG_ID}" aria-modal="true" aria-labelledby="q-search-title" data-q-search-endpoint="${SITE_SEARCH_PATH}">` +
  '<h2 class="q-visually-hidden" id="q-search-title">Search the documentation</h2>' +
  '<div class="q-search-form" role="search">' +
  `<label class="q-search-field" for="q-search-input">${icon('search')}<span class="q-visually-hidden">Search the documentation</span></label>` +
  '<input type="text" id="q-search-input" role="combobox" aria-autocomplete="list" aria-expanded="false" aria-controls="q-search-list" ' +
  'placeholder="Search the documentation" autocomplete="off" autocapitalize="off" autocorrect="off" spellcheck="false" enterkeyhint="search" maxlength="200">' +
  '<button class="q-search-close" type="button" data-q-search-close aria-label="Close search"><kbd class="q-kbd q-search-esc">Esc</kbd><span class="q-search-cancel">Cancel</span></button>' +
  '</div>' +
  '<div class="q-search-body">' +
  '<div class="q-search-list" id="q-search-list" role="listbox" aria-label="Search results" hidden></div>' +
  '<p class="q-search-status" id="q-search-status" role="status" aria-live="polite">Type to search the documentation.</p>' +
  // shown by search.js when nothing is found and the assistant is on (ask-ai.ts)
  `<button class="q-search-ask" type="button" data-q-search-ask hidden>${icon('sparkles')}<span></span></button>` +
  '</div>' +
  '<div class="q-search-foot" aria-hidden="true"><span><kbd class="q-kbd">↑</kbd><kbd class="q-kbd">↓</kbd> to navigate</span>' +
  '<span><kbd class="q-kbd">↵</kbd> to select</span><span><kbd class="q-kbd">Esc</kbd> to close</span></div>' +
  '</dialog>';
