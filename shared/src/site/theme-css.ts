/**
 * The per-site stylesheet: the customer's colors from docs.json as design tokens. The builder
 * writes it to its own hashed file (`theme-<hash>.css`) and passes its URL as `siteCss`, so the
 * colors never need an inline style attribute (decisions.md section 10 CSP).
 */
import type { SiteConfig } from '../docs/types';
import { mixHex, parseHex, readableOn } from './color';

/** Quire's default primary color when the config names none (or an unusable one). */
export const DEFAULT_PRIMARY = '#0d9373';

const HEX = /^#(?:[0-9a-f]{3,4}|[0-9a-f]{6}|[0-9a-f]{8})$/i;
const FUNC = /^(?:rgba?|hsla?|oklch|oklab|lab|lch)\([\d\s.,%/+-]*(?:deg|turn|rad)?[\d\s.,%/+-]*\)$/i;
const NAMED = /^[a-z]{3,20}$/i;

/**
 * Returns the color when it is a plain CSS color literal (hex, rgb()/hsl()/oklch()... with numbers
 * only, or a keyword), else undefined: config values reach a stylesheet, so anything that could
 * close the rule (`;`, `}`, `url(`) is refused rather than escaped.
 */
export function cssColor(value: string | undefined): string | undefined {
  if (typeof value !== 'string') return undefined;
  const v = value.trim();
  return HEX.test(v) || FUNC.test(v) || NAMED.test(v) ? v : undefined;
}

/**
 * CSS for one site: `--q-primary` (colors.primary: links, the active item, focus rings in light
 * mode), `--q-primary-light` (colors.light: the accent in dark mode) and `--q-primary-dark`
 * (colors.dark: filled buttons in light mode); missing variants are derived from primary (mixed
 * toward white / black). `--q-primary-fg` is the readable text color on filled surfaces of each
 * mode. `--q-bg` comes from colors.background.light/dark when given. tokens.css maps the accent per
 * mode.
 */
export function siteThemeCss(site: SiteConfig): string {
  const primary = cssColor(site.colors?.primary) ?? DEFAULT_PRIMARY;
  const p = parseHex(primary);
  const light = cssColor(site.colors?.light) ?? (p ? mixHex(p, WHITE, 0.62) : `color-mix(in srgb, ${primary} 62%, #fff)`);
  const dark = cssColor(site.colors?.dark) ?? (p ? mixHex(p, BLACK, 0.82) : `color-mix(in srgb, ${primary} 82%, #000)`);
  const lightRgb = parseHex(light);
  const darkRgb = parseHex(dark);
  let css = `:root{--q-primary:${primary};--q-primary-light:${light};--q-primary-dark:${dark}`;
  css += darkRgb ? `;--q-primary-fg:${readableOn(darkRgb)}}\n` : '}\n';
  if (lightRgb) css += `html[data-theme="dark"]{--q-primary-fg:${readableOn(lightRgb)}}\n`;
  const bgLight = cssColor(site.colors?.background?.light);
  const bgDark = cssColor(site.colors?.background?.dark);
  if (bgLight) css += `html:not([data-theme="dark"]){--q-bg:${bgLight}}\n`;
  if (bgDark) css += `html[data-theme="dark"]{--q-bg:${bgDark}}\n`;
  return css + PREVIEW_BANNER_CSS;
}

const WHITE: [number, number, number] = [255, 255, 255];
const BLACK: [number, number, number] = [0, 0, 0];

/**
 * The look of the preview banner (shared/src/site/preview-banner.ts), which site hosting puts at
 * the top of the pages of preview deployments only. It ships in every site's stylesheet so that a
 * page file is the same in production and in previews. One line of about 36 px in the amber
 * "not production" tint of both color schemes (text on it keeps the theme's AA contrast); the
 * "Changed pages" panel drops down over the page (above the sticky top bar) and fits a 390 px
 * screen, where secondary words (`.q-preview-wide`) are visually hidden but still read out.
 */
export const PREVIEW_BANNER_CSS =
  '.q-preview{position:relative;z-index:45;font-size:13px;line-height:1.4;color:var(--q-fg);' +
  'background:color-mix(in srgb,var(--q-warning) 12%,var(--q-bg));border-bottom:1px solid color-mix(in srgb,var(--q-warning) 40%,var(--q-border))}\n' +
  '.q-preview-bar{position:relative;display:flex;align-items:center;gap:12px;max-width:var(--q-max);min-height:36px;margin:0 auto;padding:4px 32px}\n' +
  '.q-preview-badge{display:inline-flex;align-items:center;gap:5px;flex:none;padding:1px 8px;border-radius:999px;font-size:12px;font-weight:600;' +
  'color:var(--q-fg-strong);background:color-mix(in srgb,var(--q-warning) 26%,var(--q-bg))}\n' +
  '.q-preview-badge .q-icon{width:14px;height:14px}\n' +
  '.q-preview-label{flex:1;min-width:0;margin:0;white-space:nowrap;overflow:hidden;text-overflow:ellipsis}\n' +
  '.q-preview-label strong{font-weight:600;color:var(--q-fg-strong)}\n' +
  '.q-preview-none{flex:none;color:var(--q-muted)}\n' +
  '.q-preview-changes{flex:none}\n' +
  '.q-preview-changes>summary{display:inline-flex;align-items:center;gap:4px;padding:2px 8px;border-radius:6px;list-style:none;cursor:pointer;font-weight:500;white-space:nowrap}\n' +
  '.q-preview-changes>summary::-webkit-details-marker{display:none}\n' +
  '.q-preview-changes>summary:hover,.q-preview-changes[open]>summary{background:color-mix(in srgb,var(--q-warning) 20%,transparent)}\n' +
  '.q-preview-chevron{width:14px;height:14px;transition:transform .15s}\n' +
  '.q-preview-changes[open] .q-preview-chevron{transform:rotate(180deg)}\n' +
  '.q-preview-panel{position:absolute;top:calc(100% + 4px);right:32px;width:min(28rem,calc(100vw - 32px));max-height:min(70vh,34rem);overflow:auto;' +
  'padding:10px 14px;background:var(--q-bg-raised);border:1px solid var(--q-border);border-radius:var(--q-radius-sm);box-shadow:var(--q-shadow)}\n' +
  '.q-preview-group{display:flex;align-items:center;gap:6px;margin:10px 0 2px;font-size:12px;font-weight:600;letter-spacing:.03em;text-transform:uppercase;color:var(--q-muted)}\n' +
  '.q-preview-group:first-child{margin-top:0}\n' +
  '.q-preview-group::before{content:"";width:8px;height:8px;border-radius:50%;background:var(--q-check)}\n' +
  '.q-preview-changed::before{background:var(--q-warning)}\n' +
  '.q-preview-removed::before{background:var(--q-danger)}\n' +
  '.q-preview-count{font-weight:500;color:var(--q-muted)}\n' +
  '.q-preview-panel ul{margin:0;padding:0;list-style:none}\n' +
  '.q-preview-panel li{display:flex;align-items:baseline;gap:10px;min-width:0;padding:3px 0}\n' +
  '.q-preview-panel a{display:inline-flex;align-items:center;gap:2px;min-width:0;color:var(--q-primary);font-weight:500;text-decoration:none;overflow-wrap:anywhere}\n' +
  '.q-preview-panel a:hover{text-decoration:underline}\n' +
  '.q-preview-panel a[aria-current="page"]{color:var(--q-fg-strong);font-weight:700}\n' +
  '.q-preview-panel .q-icon{width:13px;height:13px}\n' +
  '.q-preview-path{margin-left:auto;max-width:45%;overflow:hidden;text-overflow:ellipsis;white-space:nowrap;font-family:var(--q-font-mono);font-size:12px;color:var(--q-muted)}\n' +
  '.q-preview-more{color:var(--q-muted)}\n' +
  '.q-preview-production{flex:none;color:var(--q-fg);font-weight:500;white-space:nowrap;text-decoration:underline;text-underline-offset:2px}\n' +
  '.q-preview-production .q-icon{width:13px;height:13px;margin-left:2px;vertical-align:-2px}\n' +
  '@media (max-width:767px){.q-preview-bar{gap:8px;padding:4px 12px}.q-preview-panel{right:8px;width:calc(100vw - 16px)}' +
  '.q-preview-wide{position:absolute;width:1px;height:1px;margin:-1px;padding:0;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap;border:0}}\n' +
  '@media (prefers-reduced-motion:reduce){.q-preview-chevron{transition:none}}\n';
