/**
 * Icons of the site chrome: the theme draws from Quire's one icon set (shared with page components,
 * docs/markdown/icon-shapes.ts) — built-in names for its own buttons, and the icon names docs authors
 * put in docs.json (Font Awesome / Lucide spellings; unknown names get the set's neutral glyph) or
 * image paths. No icon font is loaded: icons are inline SVG (no scripts, CSP-safe).
 */
import { iconSvgOrFallback, namedIcon, type IconName } from '../docs/markdown/icons';
import { escapeHtml, safeHref } from './escape';
import { SOCIAL_SHAPES } from './social-shapes';

export type { IconName } from '../docs/markdown/icons';

/** SVG markup of a built-in icon; `className` is added to the svg (decorative: aria-hidden). */
export function icon(name: IconName, className = 'q-icon'): string {
  return namedIcon(name, className);
}

/**
 * Markup for an icon named in the config: an image when it is a URL or a path (`/icons/x.svg`),
 * otherwise the icon set's drawing for the name (unknown names get the neutral glyph).
 */
export function configIcon(value: string | undefined, className = 'q-icon'): string {
  if (!value) return '';
  if (/[/.]/.test(value)) {
    const src = safeHref(value);
    return src ? `<img class="${className}" src="${src}" alt="" width="16" height="16" loading="lazy">` : '';
  }
  return iconSvgOrFallback(value, className);
}

/** Escaped human label for a social network type from the config footer (`github` -> `GitHub`). */
export function socialLabel(type: string): string {
  const known: Record<string, string> = {
    github: 'GitHub', x: 'X', twitter: 'X', discord: 'Discord', slack: 'Slack', linkedin: 'LinkedIn',
    youtube: 'YouTube', facebook: 'Facebook', instagram: 'Instagram', medium: 'Medium', reddit: 'Reddit',
    telegram: 'Telegram', website: 'Website', 'hacker-news': 'Hacker News', bluesky: 'Bluesky', threads: 'Threads',
  };
  const label = known[type.toLowerCase()] ?? type.charAt(0).toUpperCase() + type.slice(1);
  return escapeHtml(label);
}

/**
 * The icon of a footer social link (`footer.socials` type): the network's brand mark (social-shapes.ts),
 * or the icon set's drawing for the name (`website` -> globe; unknown names get the neutral glyph).
 * Decorative (aria-hidden): the link carries the network's name as its accessible name.
 */
export function socialIcon(type: string, className = 'q-icon q-social-icon'): string {
  const shape = SOCIAL_SHAPES[type.toLowerCase()];
  if (shape === undefined) return iconSvgOrFallback(type.toLowerCase() === 'website' ? 'globe' : type, className);
  return `<svg class="${className}" viewBox="0 0 24 24" width="20" height="20" fill="currentColor" aria-hidden="true" focusable="false">${shape}</svg>`;
}
