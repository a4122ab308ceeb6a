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
  return css;
}

const WHITE: [number, number, number] = [255, 255, 255];
const BLACK: [number, number, number] = [0, 0, 0];
