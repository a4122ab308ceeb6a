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

/** A tab strip with panels; `labels[i]` is plain text, `panels[i]` HTML. */
export function tabSet(className: string, labels: { text: string; icon?: string }[], panels: string[], selected = 0): string {
  const sel = selected >= 0 && selected < labels.length ? selected : 0;
  const tabs = labels
    .map(
      (l, i) =>
        `<button type="button" class="q-tabset-tab" role="tab" data-q-tab="${i}" data-sync="${escapeHtml(l.text)}" aria-selected="${i === sel}">` +
        `${l.icon ?? ''}${escapeHtml(l.text)}</button>`,
    )
    .join('');
  const body = panels
    .map((p, i) => `<div class="q-tabpanel" role="tabpanel" data-q-panel="${i}"${i === sel ? '' : ' hidden="hidden"'}>${p}</div>`)
    .join('');
  return `<div class="${className}" data-q-tabs><div class="q-tablist" role="tablist">${tabs}</div>${body}</div>`;
}

const tabsComponent: Component = (ctx) => {
  const tabs = childElements(ctx.node, ['Tab']);
  if (tabs.length === 0) return `<div class="q-tabset">${ctx.children()}</div>`;
  const labels = tabs.map((t, i) => {
    const p = propsOf(t);
    return { text: str(p, 'title') ?? `Tab ${i + 1}`, icon: iconHtml(p.icon, 'q-icon q-tab-icon') || undefined };
  });
  const selected = Number(str(ctx.props, 'defaultTabIndex') ?? 0);
  return tabSet('q-tabset', labels, tabs.map((t) => ctx.render(t.children)), selected);
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
      }),
    );
    return tabSet(`q-code-group ${className}`, labels, panels) + (others.length ? ctx.render(others) : '');
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
