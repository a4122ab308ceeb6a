/**
 * `View` (mintlify.com/docs/components/view): content shown only when its view is the one chosen in the
 * page's view selector, e.g. one `<View title="JavaScript">` and one `<View title="Python">`. Props:
 * `title` (required; the selector's option, views of the same title belong together); `icon` is accepted
 * and not shown (a `<select>` option cannot hold one).
 *
 * Without JavaScript the first view's title is the one shown (its views visible, the others `hidden`).
 * code.js builds the selector (a labelled `<select>`) before the page's first view, shows the chosen
 * title's views, hides the table-of-contents entries of hidden views and remembers the choice.
 */
import { escapeHtml } from '../html';
import { str, type Component } from './types';

/** Marks (in the page's id allocator, which lives exactly as long as the page) the title shown without JavaScript. */
const SHOWN = '\uE003view:';

const view: Component = (ctx) => {
  const title = (str(ctx.props, 'title') ?? '').trim() || 'View';
  const id = ctx.headings.id('q-view');
  const ids = ctx.headings.ids;
  const first = ![...ids].some((i) => i.startsWith(SHOWN));
  if (first) ctx.headings.reserve(SHOWN + title);
  const shown = first || ids.has(SHOWN + title);
  return (
    `<section class="q-view" id="${escapeHtml(id)}" data-q-view="${escapeHtml(title)}" aria-label="${escapeHtml(title)}"` +
    `${shown ? '' : ' hidden="hidden"'}>` +
    `${ctx.children()}</section>`
  );
};

/** The view components by name. */
export const viewComponents: Record<string, Component> = { View: view };
