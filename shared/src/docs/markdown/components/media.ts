/**
 * Media and visual components: `Frame` (`caption`, `hint`; site-look.md: "image with rounded border and
 * optional caption; images zoom on click"), `Icon` (`icon`, `size`, `color`), `Color` / `Color.Row` /
 * `Color.Item` (`name`, `value`: a swatch).
 */
import { escapeHtml } from '../html';
import { html, iconHtml, str, type Component } from './types';

const SAFE_COLOR = /^(#[0-9a-f]{3,8}|rgba?\([\d\s.,%]+\)|hsla?\([\d\s.,%deg]+\)|[a-z]{3,20})$/i;

/** The media components by name. */
export const mediaComponents: Record<string, Component> = {
  Frame: (ctx) => {
    const caption = html(ctx.props, 'caption');
    const hint = html(ctx.props, 'hint');
    return (
      `<figure class="q-frame">${hint ? `<div class="q-frame-hint">${hint}</div>` : ''}` +
      `<div class="q-frame-body">${ctx.children()}</div>` +
      (caption ? `<figcaption class="q-frame-caption">${caption}</figcaption>` : '') +
      `</figure>`
    );
  },
  Icon: (ctx) => {
    const icon = iconHtml(ctx.props.icon, 'q-icon q-icon-inline');
    return icon ? `<span class="q-icon-wrap">${icon}</span>` : '';
  },
  Color: (ctx) => `<div class="q-colors">${ctx.children()}</div>`,
  'Color.Row': (ctx) => {
    const title = html(ctx.props, 'title');
    return `<div class="q-color-row">${title ? `<div class="q-color-row-title">${title}</div>` : ''}<div class="q-color-row-items">${ctx.children()}</div></div>`;
  },
  'Color.Item': (ctx) => {
    const value = str(ctx.props, 'value') ?? '';
    const swatch = SAFE_COLOR.test(value.trim())
      ? `<span class="q-color-swatch" style="background-color:${escapeHtml(value.trim())}"></span>`
      : `<span class="q-color-swatch"></span>`;
    return (
      `<div class="q-color-item" data-copy-value="${escapeHtml(value)}">${swatch}` +
      `<span class="q-color-name">${html(ctx.props, 'name')}</span><code class="q-color-value">${escapeHtml(value)}</code></div>`
    );
  },
};
