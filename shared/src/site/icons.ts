/**
 * The theme's own line icons (24 px grid, stroke = currentColor; Lucide-style shapes) and the
 * mapping from the icon names docs authors put in docs.json (Font Awesome / Lucide names) to the
 * closest built-in shape. No icon font is loaded: icons are inline SVG (no scripts, CSP-safe).
 */
import { escapeHtml, safeHref } from './escape';

const SHAPES = {
  'book-open': '<path d="M2 3h6a4 4 0 0 1 4 4v14a3 3 0 0 0-3-3H2z"/><path d="M22 3h-6a4 4 0 0 0-4 4v14a3 3 0 0 1 3-3h7z"/>',
  code: '<path d="m16 18 6-6-6-6"/><path d="m8 6-6 6 6 6"/>',
  terminal: '<path d="m4 17 6-6-6-6"/><path d="M12 19h8"/>',
  zap: '<path d="M13 2 3 14h9l-1 8 10-12h-9l1-8z"/>',
  globe: '<circle cx="12" cy="12" r="10"/><path d="M12 2a14.5 14.5 0 0 0 0 20 14.5 14.5 0 0 0 0-20"/><path d="M2 12h20"/>',
  house: '<path d="M3 10.5 12 3l9 7.5V20a1 1 0 0 1-1 1h-5v-6H9v6H4a1 1 0 0 1-1-1z"/>',
  message: '<path d="M7.9 20A9 9 0 1 0 4 16.1L2 22z"/>',
  users: '<path d="M16 21v-2a4 4 0 0 0-4-4H6a4 4 0 0 0-4 4v2"/><circle cx="9" cy="7" r="4"/><path d="M22 21v-2a4 4 0 0 0-3-3.87"/><path d="M16 3.13a4 4 0 0 1 0 7.75"/>',
  newspaper: '<path d="M4 22h16a2 2 0 0 0 2-2V4a2 2 0 0 0-2-2H8a2 2 0 0 0-2 2v16a2 2 0 0 1-2 2zm0 0a2 2 0 0 1-2-2v-9c0-1.1.9-2 2-2h2"/><path d="M18 14h-8"/><path d="M15 18h-5"/><path d="M10 6h8v4h-8z"/>',
  github: '<path d="M15 22v-4a4.8 4.8 0 0 0-1-3.5c3 0 6-2 6-5.5.08-1.25-.27-2.48-1-3.5.28-1.15.28-2.35 0-3.5 0 0-1 0-3 1.5-2.64-.5-5.36-.5-8 0C6 2 5 2 5 2c-.3 1.15-.3 2.35 0 3.5A5.4 5.4 0 0 0 4 9c0 3.5 3 5.5 6 5.5-.39.49-.68 1.05-.85 1.65-.17.6-.22 1.23-.15 1.85v4"/><path d="M9 18c-4.51 2-5-2-7-2"/>',
  file: '<path d="M15 2H6a2 2 0 0 0-2 2v16a2 2 0 0 0 2 2h12a2 2 0 0 0 2-2V7z"/><path d="M14 2v4a2 2 0 0 0 2 2h4"/><path d="M16 13H8"/><path d="M16 17H8"/><path d="M10 9H8"/>',
  key: '<circle cx="7.5" cy="15.5" r="5.5"/><path d="m21 2-9.6 9.6"/><path d="m15.5 7.5 3 3L22 7l-3-3"/>',
  server: '<rect width="20" height="8" x="2" y="2" rx="2"/><rect width="20" height="8" x="2" y="14" rx="2"/><path d="M6 6h.01"/><path d="M6 18h.01"/>',
  bookmark: '<path d="m19 21-7-4-7 4V5a2 2 0 0 1 2-2h10a2 2 0 0 1 2 2z"/>',
  search: '<circle cx="11" cy="11" r="8"/><path d="m21 21-4.3-4.3"/>',
  sun: '<circle cx="12" cy="12" r="4"/><path d="M12 2v2"/><path d="M12 20v2"/><path d="m4.93 4.93 1.41 1.41"/><path d="m17.66 17.66 1.41 1.41"/><path d="M2 12h2"/><path d="M20 12h2"/><path d="m6.34 17.66-1.41 1.41"/><path d="m19.07 4.93-1.41 1.41"/>',
  moon: '<path d="M12 3a6 6 0 0 0 9 9 9 9 0 1 1-9-9z"/>',
  menu: '<path d="M4 6h16"/><path d="M4 12h16"/><path d="M4 18h16"/>',
  close: '<path d="M18 6 6 18"/><path d="m6 6 12 12"/>',
  'chevron-right': '<path d="m9 18 6-6-6-6"/>',
  'chevron-left': '<path d="m15 18-6-6 6-6"/>',
  'chevron-down': '<path d="m6 9 6 6 6-6"/>',
  'arrow-up-right': '<path d="M7 7h10v10"/><path d="M7 17 17 7"/>',
  pencil: '<path d="M12 20h9"/><path d="M16.5 3.5a2.12 2.12 0 0 1 3 3L7 19l-4 1 1-4z"/>',
  list: '<path d="M8 6h13"/><path d="M8 12h13"/><path d="M8 18h13"/><path d="M3 6h.01"/><path d="M3 12h.01"/><path d="M3 18h.01"/>',
} as const;

/** A built-in icon name. */
export type IconName = keyof typeof SHAPES;

/** Names authors use in docs.json (Font Awesome and Lucide) mapped to the nearest built-in shape. */
const ALIASES: Record<string, IconName> = {
  book: 'book-open', books: 'book-open', 'book-bookmark': 'book-open', 'graduation-cap': 'book-open', library: 'book-open',
  'square-code': 'code', 'brackets-curly': 'code', 'file-code': 'code', braces: 'code', api: 'code', plug: 'code', webhook: 'code',
  'square-terminal': 'terminal', 'terminal-square': 'terminal', 'rectangle-terminal': 'terminal', cli: 'terminal',
  rocket: 'zap', bolt: 'zap', 'bolt-lightning': 'zap', sparkles: 'zap', wand: 'zap', 'wand-magic-sparkles': 'zap', play: 'zap',
  earth: 'globe', 'earth-americas': 'globe', website: 'globe', web: 'globe', link: 'globe',
  home: 'house', 'house-chimney': 'house',
  discord: 'message', slack: 'message', comments: 'message', comment: 'message', 'message-circle': 'message', 'messages-square': 'message', 'circle-question': 'message', 'life-ring': 'message', support: 'message', 'headset': 'message',
  'user-group': 'users', 'people-group': 'users', community: 'users', user: 'users',
  blog: 'newspaper', rss: 'newspaper', 'clock-rotate-left': 'newspaper', changelog: 'newspaper', megaphone: 'newspaper', bullhorn: 'newspaper',
  'github-alt': 'github', 'square-github': 'github', git: 'github', 'code-branch': 'github',
  lock: 'key', shield: 'key', 'shield-check': 'key', 'user-lock': 'key', fingerprint: 'key',
  database: 'server', cloud: 'server', gear: 'server', gears: 'server', settings: 'server', cube: 'server', cubes: 'server', box: 'server', layers: 'server',
  'file-lines': 'file', 'file-text': 'file', page: 'file', notebook: 'file', 'list-check': 'file', flag: 'bookmark', star: 'bookmark',
};

/** SVG markup of a built-in icon; `className` is added to the svg (decorative: aria-hidden). */
export function icon(name: IconName, className = 'q-icon'): string {
  return `<svg class="${className}" viewBox="0 0 24 24" width="16" height="16" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round" stroke-linejoin="round" aria-hidden="true" focusable="false">${SHAPES[name]}</svg>`;
}

/**
 * Markup for an icon named in the config: an image when it is a URL or a path (`/icons/x.svg`),
 * otherwise the nearest built-in shape (unknown names get a neutral bookmark).
 */
export function configIcon(value: string | undefined, className = 'q-icon'): string {
  if (!value) return '';
  if (/[/.]/.test(value)) {
    const src = safeHref(value);
    return src ? `<img class="${className}" src="${src}" alt="" width="16" height="16" loading="lazy">` : '';
  }
  const key = value.toLowerCase().replace(/^fa-/, '');
  const shape: IconName = key in SHAPES ? (key as IconName) : (ALIASES[key] ?? 'bookmark');
  return icon(shape, className);
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
