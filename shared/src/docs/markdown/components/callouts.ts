/**
 * Callouts (MINTLIFY-FORMAT.md section 9; site-look.md: "tinted box, left icon, distinct hue each"):
 * `Note`, `Tip`, `Info`, `Warning`, `Check`, `Danger`, and `Callout` (`icon`, `color`).
 * Markup: `<div class="q-callout q-callout-{kind}" role="note"><span class="q-callout-icon">svg</span>
 * <div class="q-callout-body">children</div></div>`.
 */
import { escapeHtml } from '../html';
import { namedIcon, type IconName } from '../icons';
import { iconHtml, str, type Component } from './types';

/** The callout components by name, with their icon and accessible label (also drawn by the desktop's visual mode). */
export const CALLOUT_KINDS: Record<string, { icon: IconName; label: string }> = {
  Note: { icon: 'pencil', label: 'Note' },
  Tip: { icon: 'lightbulb', label: 'Tip' },
  Info: { icon: 'info', label: 'Info' },
  Warning: { icon: 'warning', label: 'Warning' },
  Check: { icon: 'circle-check', label: 'Check' },
  Danger: { icon: 'danger', label: 'Danger' },
};

function callout(kind: string, iconHtmlText: string, label: string, body: string, color?: string): string {
  const colorAttr = color && /^#[0-9a-f]{3,8}$/i.test(color) ? ` data-color="${escapeHtml(color)}"` : '';
  return (
    `<div class="q-callout q-callout-${kind}" role="note" aria-label="${escapeHtml(label)}"${colorAttr}>` +
    `<span class="q-callout-icon" aria-hidden="true">${iconHtmlText}</span>` +
    `<div class="q-callout-body">${body}</div></div>`
  );
}

/** The callout components by name. */
export const calloutComponents: Record<string, Component> = {
  ...Object.fromEntries(
    Object.entries(CALLOUT_KINDS).map(([name, k]) => [
      name,
      ((ctx) => callout(name.toLowerCase(), namedIcon(k.icon), k.label, ctx.children())) satisfies Component,
    ]),
  ),
  Callout: (ctx) =>
    callout('custom', iconHtml(ctx.props.icon) || namedIcon('info'), 'Callout', ctx.children(), str(ctx.props, 'color')),
};
