/**
 * Cards and grids (site-look.md: "whole card clickable, subtle hover lift"; "responsive grid (cols)"):
 * `Card` (`title`, `icon`, `href`, `img`, `horizontal`, `cta`, `arrow`), `CardGroup`/`Columns` (`cols`),
 * `Column`, `Tile` (`href`, `title`, `description`).
 * A clickable card's title is the link and stretches over the card (`.q-card-link::after`), so links inside
 * the card's text stay valid HTML (no nested `<a>`).
 */
import { escapeHtml } from '../html';
import { bool, html, iconHtml, inlineHtml, str, type Component } from './types';

function cols(value: unknown): number {
  const n = typeof value === 'number' ? value : Number(value);
  return Number.isInteger(n) && n >= 1 && n <= 6 ? n : 2;
}

const card: Component = (ctx) => {
  const { props } = ctx;
  const href = str(props, 'href');
  const title = inlineHtml(props, 'title');
  const img = str(props, 'img');
  const classes = ['q-card'];
  if (href) classes.push('q-card-clickable');
  if (bool(props, 'horizontal')) classes.push('q-card-horizontal');
  const titleHtml = title
    ? href
      ? `<a class="q-card-title q-card-link" href="${escapeHtml(href)}">${title}</a>`
      : `<div class="q-card-title">${title}</div>`
    : href
      ? `<a class="q-card-link" href="${escapeHtml(href)}" aria-label="Open"></a>`
      : '';
  const cta = str(props, 'cta');
  return (
    `<div class="${classes.join(' ')}">` +
    (img ? `<img class="q-card-img" src="${escapeHtml(img)}" alt="" />` : '') +
    `<div class="q-card-inner">${iconHtml(props.icon, 'q-icon q-card-icon')}` +
    `<div class="q-card-content">${titleHtml}<div class="q-card-body">${ctx.children()}</div>` +
    (cta ? `<span class="q-card-cta">${escapeHtml(cta)}</span>` : '') +
    `</div></div></div>`
  );
};

const grid: Component = (ctx) => `<div class="q-columns" data-cols="${cols(ctx.props.cols)}">${ctx.children()}</div>`;

/** The card components by name. */
export const cardComponents: Record<string, Component> = {
  Card: card,
  CardGroup: grid,
  Columns: grid,
  Column: (ctx) => `<div class="q-column">${ctx.children()}</div>`,
  Tile: (ctx) => {
    const href = str(ctx.props, 'href');
    const title = inlineHtml(ctx.props, 'title');
    const description = html(ctx.props, 'description');
    const head = href ? `<a class="q-tile-title q-card-link" href="${escapeHtml(href)}">${title}</a>` : `<div class="q-tile-title">${title}</div>`;
    return (
      `<div class="q-tile${href ? ' q-card-clickable' : ''}"><div class="q-tile-preview">${ctx.children()}</div>` +
      `${head}${description ? `<div class="q-tile-description">${description}</div>` : ''}</div>`
    );
  },
};
