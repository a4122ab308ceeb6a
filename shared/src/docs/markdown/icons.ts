/**
 * Inline SVG icons from Quire's one icon set ({@link ICON_SHAPES}), for page components and the site
 * theme alike. There is no icon font offline: an icon is a small decorative `<svg>` (stroke =
 * currentColor, `aria-hidden`), CSP-safe. Names follow Font Awesome / Lucide spellings (case-insensitive,
 * `fa-` prefix ignored); aliases map other spellings to the closest drawing; a name the set does not
 * know gets a neutral glyph where an icon was asked for, so a card never lacks its icon when its
 * siblings have one (and no warning is raised).
 */
import { FALLBACK_ICON, ICON_ALIASES, ICON_SHAPES, type IconName } from './icon-shapes';

export type { IconName } from './icon-shapes';

const SHAPES: Record<string, string> = ICON_SHAPES;

/** The drawing of a known name or alias, else undefined. */
function shapeOf(name: string): string | undefined {
  const key = name.trim().toLowerCase().replace(/^fa-/, '');
  if (Object.hasOwn(SHAPES, key)) return SHAPES[key];
  const alias = Object.hasOwn(ICON_ALIASES, key) ? ICON_ALIASES[key] : undefined;
  return alias ? SHAPES[alias] : undefined;
}

/** The `<svg>` element around a drawing; `className` goes on the svg (decorative: aria-hidden). */
function svg(body: string, className: string): string {
  return (
    `<svg class="${className}" viewBox="0 0 24 24" width="16" height="16" fill="none" stroke="currentColor" stroke-width="2" ` +
    `stroke-linecap="round" stroke-linejoin="round" aria-hidden="true" focusable="false">${body}</svg>`
  );
}

/**
 * The inline SVG of an icon name or alias, or undefined when the name is not in the set (callers that
 * need an icon whatever the name use {@link iconSvgOrFallback}).
 */
export function iconSvg(name: string | undefined, className = 'q-icon'): string | undefined {
  if (!name) return undefined;
  const body = shapeOf(name);
  return body === undefined ? undefined : svg(body, className);
}

/** The inline SVG of an icon name; the neutral fallback glyph for unknown names; '' for an empty name. */
export function iconSvgOrFallback(name: string | undefined, className = 'q-icon'): string {
  if (!name?.trim()) return '';
  return svg(shapeOf(name) ?? FALLBACK_ICON, className);
}

/** The inline SVG of a drawing by its canonical (type-checked) name. */
export function namedIcon(name: IconName, className = 'q-icon'): string {
  return svg(ICON_SHAPES[name], className);
}

/** True when an `icon` prop is a URL or a root-relative image path rather than an icon name. */
export function isIconUrl(icon: string): boolean {
  return /^(https?:\/\/|\/)/.test(icon) || /\.(svg|png|jpe?g|gif|webp)$/i.test(icon);
}
