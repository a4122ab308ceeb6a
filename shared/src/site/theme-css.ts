/**
 * The per-site stylesheet: the customer's colors from docs.json as design tokens. The builder
 * writes it to its own hashed file (`theme-<hash>.css`) and passes its URL as `siteCss`, so the
 * colors never need an inline style attribute (decisions.md section 10 CSP).
 */
import type { SiteConfig } from '../docs/types';

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
 * mode), `--q-primary-light` (colors.light: the accent in dark mode; derived from primary when
 * absent) and `--q-primary-dark` (colors.dark: buttons and hover; derived when absent), plus
 * `--q-bg` from colors.background.light/dark when given. tokens.css maps the accent per mode.
 */
export function siteThemeCss(site: SiteConfig): string {
  const primary = cssColor(site.colors?.primary) ?? DEFAULT_PRIMARY;
  const light = cssColor(site.colors?.light) ?? `color-mix(in srgb, ${primary} 62%, #fff)`;
  const dark = cssColor(site.colors?.dark) ?? `color-mix(in srgb, ${primary} 82%, #000)`;
  let css = `:root{--q-primary:${primary};--q-primary-light:${light};--q-primary-dark:${dark}}\n`;
  const bgLight = cssColor(site.colors?.background?.light);
  const bgDark = cssColor(site.colors?.background?.dark);
  if (bgLight) css += `html:not([data-theme="dark"]){--q-bg:${bgLight}}\n`;
  if (bgDark) css += `html[data-theme="dark"]{--q-bg:${bgDark}}\n`;
  return css;
}
