/**
 * The frame around a highlighted `<pre>` (site-look.md "code blocks"; the copy button
 * belongs in the title bar, and on a phone it never covers code):
 *
 * `<figure class="q-code [q-code-titled] [q-code-wrap] [q-code-lines] [q-code-expandable]" data-lang>`
 *   `<figcaption class="q-code-title"><span class="q-code-title-text">title</span>[copy]</figcaption>`
 *   `<div class="q-code-frame"><pre>…</pre>[copy when untitled]</div></figure>`
 *
 * An untitled block keeps the button in its frame (components.css reserves a strip above the code for
 * it on narrow screens); inside a CodeGroup the button is placed in the tab row (components.css).
 * `expandable` blocks are collapsed by code.js (without JavaScript the whole block shows).
 */
import type { FenceMeta } from './fence-meta';
import { escapeHtml } from './html';
import { namedIcon } from './icons';

/** The copy button placed in every code frame (components.js copies the block's `pre` text). */
export const COPY_BUTTON =
  `<button type="button" class="q-copy" aria-label="Copy code" data-q-copy>` +
  `${namedIcon('copy', 'q-icon q-copy-icon')}${namedIcon('check', 'q-icon q-copied-icon')}</button>`;

/** Wraps shiki's `<pre>` into Quire's code figure; `titleBar: false` drops the title bar (CodeGroup tabs show it). */
export function codeFigure(pre: string, lang: string, meta: FenceMeta, titleBar: boolean): string {
  const titled = titleBar && meta.title !== '';
  const classes = ['q-code'];
  if (titled) classes.push('q-code-titled');
  if (meta.wrap) classes.push('q-code-wrap');
  if (meta.lineNumbers) classes.push('q-code-lines');
  if (meta.expandable) classes.push('q-code-expandable');
  const copy = meta.noCopy ? '' : COPY_BUTTON;
  const title = titled
    ? `<figcaption class="q-code-title"><span class="q-code-title-text">${escapeHtml(meta.title)}</span>${copy}</figcaption>`
    : '';
  return (
    `<figure class="${classes.join(' ')}" data-lang="${escapeHtml(lang)}"${meta.expandable ? ' data-q-expandable' : ''}>` +
    `${title}<div class="q-code-frame">${pre}${titled ? '' : copy}</div></figure>`
  );
}
