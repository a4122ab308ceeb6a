/**
 * A disclosure menu listing sibling divisions (dropdowns, products, versions, languages, menus) or
 * the site's versions: a native <details>, so it works without JavaScript and by keyboard;
 * site.js only closes it on outside clicks and Escape.
 */
import { escapeHtml, externalAttrs } from './escape';

const EXTERNAL = externalAttrs('https://');
import { configIcon, icon } from './icons';

/** One entry of a switcher. */
export interface SwitcherItem {
  /** raw (unescaped) label */
  title: string;
  /** escaped href */
  href: string;
  description?: string;
  icon?: string;
  current: boolean;
  external?: boolean;
  /** extra attributes of the item's `<li>`, with a leading space (the gated-entry marks of audience.ts) */
  attrs?: string;
}

/**
 * Markup of a switcher. `label` (raw) names it for assistive technology (`Version`, `Language`):
 * the `<details>` group is named by it, its summary by it and the current item (`Language: Français`);
 * the summary shows the current item's title, or the label when none is current.
 */
export function renderSwitcher(label: string, items: SwitcherItem[], className: string): string {
  const current = items.find((i) => i.current);
  const summaryIcon = current?.icon ? `<span class="q-switcher-icon">${configIcon(current.icon)}</span>` : '';
  const currentDesc = current?.description ? `<span class="q-switcher-desc">${escapeHtml(current.description)}</span>` : '';
  const options = items
    .map((i) => {
      const attrs = i.current ? ' aria-current="true"' : '';
      const ico = i.icon ? `<span class="q-switcher-icon">${configIcon(i.icon)}</span>` : '';
      const desc = i.description ? `<span class="q-switcher-desc">${escapeHtml(i.description)}</span>` : '';
      return `<li${i.attrs ?? ''}><a href="${i.href}"${attrs}${i.external ? EXTERNAL : ''}>${ico}<span class="q-switcher-text"><span class="q-switcher-title">${escapeHtml(i.title)}</span>${desc}</span></a></li>`;
    })
    .join('');
  return (
    `<details class="q-switcher ${className}" data-q-switcher aria-label="${escapeHtml(label)}"><summary aria-label="${escapeHtml(label)}: ${escapeHtml(current?.title ?? '')}">` +
    `${summaryIcon}<span class="q-switcher-text"><span class="q-switcher-title">${escapeHtml(current?.title ?? label)}</span>${currentDesc}</span>` +
    `${icon('chevron-down', 'q-icon q-switcher-chevron')}</summary><ul class="q-switcher-menu">${options}</ul></details>`
  );
}
