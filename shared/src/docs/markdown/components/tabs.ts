/**
 * Tab strips (site-look.md: "underlined tab strip; CodeGroup shows file names/languages as tabs over one
 * code frame with a copy button; the chosen language syncs across the page"): `Tabs`/`Tab`, `CodeGroup`,
 * `RequestExample`, `ResponseExample`. Without JavaScript the first panel shows; components.js switches
 * panels (`data-q-tabs`, `data-q-tab`, `data-q-panel`) and syncs `data-sync` labels across the page.
 */
import { parseFenceMeta } from '../fence-meta';
import { escapeHtml } from '../html';
import type { UNode } from '../mdx-nodes';
import { childElements, iconHtml, propsOf, str, type Component, type ComponentContext } from './types';

/**
 * A tab strip with panels; `labels[i]` is plain text, `panels[i]` HTML. `id` must be unique on the page
 * (for components: from the page's id allocator): tab `i` gets the id `{id}-tab-{i}` and
 * `aria-controls` naming its panel, panel `i` gets `{id}-panel-{i}` and `aria-labelledby` naming its
 * tab, so each panel's accessible name is its tab's label (WAI-ARIA tabs pattern).
 */
export function tabSet(id: string, className: string, labels: { text: string; icon?: string }[], panels: string[], selected = 0): string {
  const sel = selected >= 0 && selected < labels.length ? selected : 0;
  const base = escapeHtml(id);
  const tabs = labels
    .map(
      (l, i) =>
        `<button type="button" class="q-tabset-tab" role="tab" id="${base}-tab-${i}" aria-controls="${base}-panel-${i}" data-q-tab="${i}" data-sync="${escapeHtml(l.text)}" aria-selected="${i === sel}">` +
        `${l.icon ?? ''}${escapeHtml(l.text)}</button>`,
    )
    .join('');
  const body = panels
    .map(
      (p, i) =>
        `<div class="q-tabpanel" role="tabpanel" id="${base}-panel-${i}" aria-labelledby="${base}-tab-${i}" data-q-panel="${i}"${i === sel ? '' : ' hidden="hidden"'}>${p}</div>`,
    )
    .join('');
  return `<div class="${className}" data-q-tabs><div class="q-tablist" role="tablist">${tabs}</div>${body}</div>`;
}

/**
 * A page-unique id base for a tab set. Taken from the page's id allocator (the same allocator as headings)
 * with a `q-` prefix so that no heading's id changes because of a tab set before it; the ids of its
 * `count` tabs and panels are recorded as the engine's (kept by the sanitizer).
 */
function tabSetId(ctx: ComponentContext, kind: string, count: number): string {
  const base = ctx.headings.id(`q-${kind}`);
  for (let i = 0; i < count; i++) {
    ctx.headings.reserve(`${base}-tab-${i}`);
    ctx.headings.reserve(`${base}-panel-${i}`);
  }
  return base;
}

const tabsComponent: Component = (ctx) => {
  const tabs = childElements(ctx.node, ['Tab']);
  if (tabs.length === 0) return `<div class="q-tabset">${ctx.children()}</div>`;
  const labels = tabs.map((t, i) => {
    const p = propsOf(t);
    return { text: str(p, 'title') ?? `Tab ${i + 1}`, icon: iconHtml(p.icon, 'q-icon q-tab-icon') || undefined };
  });
  const selected = Number(str(ctx.props, 'defaultTabIndex') ?? 0);
  return tabSet(tabSetId(ctx, 'tabs', labels.length), 'q-tabset', labels, tabs.map((t) => ctx.render(t.children)), selected);
};

/** A group of fenced code blocks as tabs over one frame; titles from the fence meta, else the language. */
function codeGroup(className: string): Component {
  return (ctx: ComponentContext) => {
    const blocks = (ctx.node.children as UNode[]).filter((c) => c.type === 'code');
    const others = (ctx.node.children as UNode[]).filter((c) => c.type !== 'code');
    if (blocks.length === 0) return `<div class="${className}">${ctx.children()}</div>`;
    const labels = blocks.map((b) => {
      const lang = typeof b.lang === 'string' ? b.lang : '';
      return { text: parseFenceMeta(typeof b.meta === 'string' ? b.meta : '').title || lang || 'Code' };
    });
    const panels = blocks.map((b) =>
      ctx.highlighter.highlightSync(String(b.value ?? ''), typeof b.lang === 'string' ? b.lang : '', typeof b.meta === 'string' ? b.meta : '', {
        titleBar: false,
        line: b.position?.start.line,
      }),
    );
    return tabSet(tabSetId(ctx, 'code', labels.length), `q-code-group ${className}`, labels, panels) + (others.length ? ctx.render(others) : '');
  };
}

/** The tab components by name. */
export const tabComponents: Record<string, Component> = {
  Tabs: tabsComponent,
  Tab: (ctx) => `<div class="q-tab-single"><div class="q-tab-single-title">${escapeHtml(str(ctx.props, 'title') ?? '')}</div>${ctx.children()}</div>`,
  CodeGroup: codeGroup('q-codegroup'),
  RequestExample: codeGroup('q-request-example'),
  ResponseExample: codeGroup('q-response-example'),
};
