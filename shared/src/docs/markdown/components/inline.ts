/**
 * Inline components: `Tooltip` (`tip`, `headline`, `cta`, `href`; shown on hover and keyboard focus by
 * components.css from the `data-tip` attribute, with `title` as a fallback) and `Badge` (`color`, `size`,
 * `shape`, `icon`, `disabled`).
 */
import { escapeHtml } from '../html';
import { bool, iconHtml, str, type Component } from './types';

/** The inline components by name. */
export const inlineComponents: Record<string, Component> = {
  Tooltip: (ctx) => {
    const tip = [str(ctx.props, 'headline'), str(ctx.props, 'tip')].filter(Boolean).join(': ');
    const href = str(ctx.props, 'href');
    const cta = str(ctx.props, 'cta');
    const link = href ? ` <a class="q-tooltip-cta" href="${escapeHtml(href)}">${escapeHtml(cta ?? 'Learn more')}</a>` : '';
    return (
      `<span class="q-tooltip" tabindex="0" data-tip="${escapeHtml(tip)}" title="${escapeHtml(tip)}">${ctx.children()}</span>${link}`
    );
  },
  Badge: (ctx) => {
    const color = str(ctx.props, 'color');
    const size = str(ctx.props, 'size');
    const shape = str(ctx.props, 'shape');
    const classes = ['q-badge', 'q-badge-custom'];
    if (color && /^[a-z-]+$/.test(color)) classes.push(`q-badge-${color}`);
    if (size && /^[a-z]+$/.test(size)) classes.push(`q-badge-${size}`);
    if (shape && /^[a-z]+$/.test(shape)) classes.push(`q-badge-${shape}`);
    if (bool(ctx.props, 'disabled')) classes.push('q-badge-disabled');
    return `<span class="${classes.join(' ')}">${iconHtml(ctx.props.icon, 'q-icon q-badge-icon')}${ctx.children()}</span>`;
  },
};
