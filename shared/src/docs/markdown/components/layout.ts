/**
 * Page-structure components: `Update` (`label` as anchor, `description`, `tags`: changelog entries),
 * `Panel` (content for the right rail; rendered in place as an aside), `Visibility` (`for="humans"` shown,
 * `for="agents"` hidden from the HTML page), `Prompt` (`description`: a copyable prompt). `View`: view.ts.
 */
import { COPY_BUTTON } from '../highlight';
import { escapeHtml } from '../html';
import { html, str, type Component } from './types';

/** The layout components by name. */
export const layoutComponents: Record<string, Component> = {
  Update: (ctx) => {
    const label = str(ctx.props, 'label') ?? '';
    const id = str(ctx.props, 'id') ?? (label ? ctx.headings.id(label) : undefined);
    const tags = Array.isArray(ctx.props.tags) ? ctx.props.tags.filter((t): t is string => typeof t === 'string') : [];
    const description = html(ctx.props, 'description');
    return (
      `<div class="q-update"${id ? ` id="${escapeHtml(id)}"` : ''}><div class="q-update-meta">` +
      (label ? `<a class="q-update-label" href="#${escapeHtml(id ?? '')}">${escapeHtml(label)}</a>` : '') +
      (description ? `<div class="q-update-description">${description}</div>` : '') +
      (tags.length ? `<div class="q-update-tags">${tags.map((t) => `<span class="q-badge">${escapeHtml(t)}</span>`).join('')}</div>` : '') +
      `</div><div class="q-update-body">${ctx.children()}</div></div>`
    );
  },
  Panel: (ctx) => `<aside class="q-panel">${ctx.children()}</aside>`,
  Visibility: (ctx) => (str(ctx.props, 'for') === 'agents' ? '' : `<div class="q-visibility">${ctx.children()}</div>`),
  Prompt: (ctx) => {
    const description = html(ctx.props, 'description');
    return (
      `<div class="q-prompt">${description ? `<div class="q-prompt-description">${description}</div>` : ''}` +
      `<div class="q-prompt-frame"><div class="q-prompt-text" data-q-copy-source>${ctx.children()}</div>${COPY_BUTTON}</div></div>`
    );
  },
};
