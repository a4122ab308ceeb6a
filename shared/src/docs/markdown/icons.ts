/**
 * A handful of small inline SVG icons (24x24, stroke = currentColor). There is no icon font offline,
 * so `icon="..."` names outside this set render no icon at all (brief H4: "no broken boxes, no warnings").
 * Names follow Font Awesome / Lucide spellings used by Mintlify docs; aliases map to the same drawing.
 */

const PATHS: Record<string, string> = {
  info: '<circle cx="12" cy="12" r="10"/><path d="M12 16v-4M12 8h.01"/>',
  note: '<path d="M12 20h9"/><path d="M16.5 3.5a2.1 2.1 0 0 1 3 3L7 19l-4 1 1-4Z"/>',
  lightbulb: '<path d="M9 18h6M10 22h4"/><path d="M12 2a7 7 0 0 0-4 12.7V16h8v-1.3A7 7 0 0 0 12 2Z"/>',
  warning: '<path d="M10.3 3.9 1.8 18a2 2 0 0 0 1.7 3h17a2 2 0 0 0 1.7-3L13.7 3.9a2 2 0 0 0-3.4 0Z"/><path d="M12 9v4M12 17h.01"/>',
  check: '<path d="M20 6 9 17l-5-5"/>',
  'circle-check': '<circle cx="12" cy="12" r="10"/><path d="m9 12 2 2 4-4"/>',
  danger: '<circle cx="12" cy="12" r="10"/><path d="m15 9-6 6M9 9l6 6"/>',
  copy: '<rect x="9" y="9" width="13" height="13" rx="2"/><path d="M5 15H4a2 2 0 0 1-2-2V4a2 2 0 0 1 2-2h9a2 2 0 0 1 2 2v1"/>',
  'arrow-right': '<path d="M5 12h14M12 5l7 7-7 7"/>',
  'chevron-right': '<path d="m9 18 6-6-6-6"/>',
  link: '<path d="M10 13a5 5 0 0 0 7.5.5l3-3a5 5 0 0 0-7-7l-1.7 1.7"/><path d="M14 11a5 5 0 0 0-7.5-.5l-3 3a5 5 0 0 0 7 7l1.7-1.7"/>',
  book: '<path d="M4 19.5A2.5 2.5 0 0 1 6.5 17H20V2H6.5A2.5 2.5 0 0 0 4 4.5v15Z"/><path d="M4 19.5A2.5 2.5 0 0 0 6.5 22H20v-5"/>',
  code: '<path d="m16 18 6-6-6-6M8 6l-6 6 6 6"/>',
  terminal: '<path d="m4 17 6-6-6-6M12 19h8"/>',
  rocket: '<path d="M4.5 16.5c-1.5 1.3-2 5-2 5s3.7-.5 5-2c.7-.8.7-2.1-.1-2.9a2.2 2.2 0 0 0-2.9-.1Z"/><path d="M12 15l-3-3a22 22 0 0 1 2-4A12.9 12.9 0 0 1 22 2c0 2.7-.8 7.5-6 11a22.4 22.4 0 0 1-4 2Z"/><path d="M9 12H4s.6-3 2-4c1.6-1.1 5 0 5 0M12 15v5s3-.6 4-2c1.1-1.6 0-5 0-5"/>',
  gear: '<circle cx="12" cy="12" r="3"/><path d="M19.4 15a1.7 1.7 0 0 0 .3 1.8l.1.1a2 2 0 1 1-2.8 2.8l-.1-.1a1.7 1.7 0 0 0-1.8-.3 1.7 1.7 0 0 0-1 1.5V21a2 2 0 1 1-4 0v-.1a1.7 1.7 0 0 0-1.1-1.5 1.7 1.7 0 0 0-1.8.3l-.1.1a2 2 0 1 1-2.8-2.8l.1-.1a1.7 1.7 0 0 0 .3-1.8 1.7 1.7 0 0 0-1.5-1H3a2 2 0 1 1 0-4h.1a1.7 1.7 0 0 0 1.5-1.1 1.7 1.7 0 0 0-.3-1.8l-.1-.1a2 2 0 1 1 2.8-2.8l.1.1a1.7 1.7 0 0 0 1.8.3H9a1.7 1.7 0 0 0 1-1.5V3a2 2 0 1 1 4 0v.1a1.7 1.7 0 0 0 1 1.5 1.7 1.7 0 0 0 1.8-.3l.1-.1a2 2 0 1 1 2.8 2.8l-.1.1a1.7 1.7 0 0 0-.3 1.8V9a1.7 1.7 0 0 0 1.5 1H21a2 2 0 1 1 0 4h-.1a1.7 1.7 0 0 0-1.5 1Z"/>',
  globe: '<circle cx="12" cy="12" r="10"/><path d="M2 12h20M12 2a15.3 15.3 0 0 1 4 10 15.3 15.3 0 0 1-4 10 15.3 15.3 0 0 1-4-10 15.3 15.3 0 0 1 4-10Z"/>',
  key: '<circle cx="7.5" cy="15.5" r="5.5"/><path d="m21 2-9.6 9.6M15.5 7.5l3 3L22 7l-3-3"/>',
  lock: '<rect x="3" y="11" width="18" height="11" rx="2"/><path d="M7 11V7a5 5 0 0 1 10 0v4"/>',
  user: '<circle cx="12" cy="8" r="4"/><path d="M4 21a8 8 0 0 1 16 0"/>',
  folder: '<path d="M4 20h16a2 2 0 0 0 2-2V8a2 2 0 0 0-2-2h-7.9a2 2 0 0 1-1.7-.9l-.8-1.2A2 2 0 0 0 7.9 3H4a2 2 0 0 0-2 2v13a2 2 0 0 0 2 2Z"/>',
  file: '<path d="M14 2H6a2 2 0 0 0-2 2v16a2 2 0 0 0 2 2h12a2 2 0 0 0 2-2V8Z"/><path d="M14 2v6h6"/>',
  database: '<ellipse cx="12" cy="5" rx="9" ry="3"/><path d="M3 5v14c0 1.7 4 3 9 3s9-1.3 9-3V5"/><path d="M3 12c0 1.7 4 3 9 3s9-1.3 9-3"/>',
  cloud: '<path d="M17.5 19H9a7 7 0 1 1 6.7-9h1.8a4.5 4.5 0 1 1 0 9Z"/>',
  star: '<path d="m12 2 3.1 6.3 6.9 1-5 4.9 1.2 6.8L12 17.8 5.8 21l1.2-6.8-5-4.9 6.9-1Z"/>',
  bolt: '<path d="M13 2 3 14h9l-1 8 10-12h-9l1-8Z"/>',
  play: '<path d="m6 3 14 9-14 9V3Z"/>',
  download: '<path d="M21 15v4a2 2 0 0 1-2 2H5a2 2 0 0 1-2-2v-4M7 10l5 5 5-5M12 15V3"/>',
  search: '<circle cx="11" cy="11" r="8"/><path d="m21 21-4.3-4.3"/>',
  house: '<path d="m3 9 9-7 9 7v11a2 2 0 0 1-2 2H5a2 2 0 0 1-2-2Z"/><path d="M9 22V12h6v10"/>',
  bell: '<path d="M6 8a6 6 0 0 1 12 0c0 7 3 9 3 9H3s3-2 3-9M10.3 21a1.9 1.9 0 0 0 3.4 0"/>',
  github: '<path d="M15 22v-4a4.8 4.8 0 0 0-1-3.5c3 0 6-2 6-5.5.1-1.3-.3-2.5-1-3.5.3-1.2.3-2.4 0-3.5 0 0-1 0-3 1.5a10.4 10.4 0 0 0-5.5 0C8 2 7 2 7 2c-.3 1.1-.3 2.3 0 3.5A5.4 5.4 0 0 0 6 9c0 3.5 3 5.5 6 5.5-.4.5-.7 1-.8 1.6-.2.6-.3 1.2-.2 1.9v4"/><path d="M9 18c-4.5 2-5-2-7-2"/>',
  puzzle: '<path d="M19.4 13.5a2.5 2.5 0 1 0 0-3H17V7a1 1 0 0 0-1-1h-3.5a2.5 2.5 0 1 0-3 0H6a1 1 0 0 0-1 1v3.5a2.5 2.5 0 1 1 0 3V17a1 1 0 0 0 1 1h3.5a2.5 2.5 0 1 1 3 0H16a1 1 0 0 0 1-1v-3.5Z"/>',
  chart: '<path d="M3 3v18h18M7 16v-5M12 16V8M17 16v-9"/>',
  message: '<path d="M21 15a2 2 0 0 1-2 2H7l-4 4V5a2 2 0 0 1 2-2h14a2 2 0 0 1 2 2Z"/>',
  envelope: '<rect x="2" y="4" width="20" height="16" rx="2"/><path d="m22 7-10 6L2 7"/>',
  heart: '<path d="M19 14c1.5-1.5 3-3.2 3-5.5A5.5 5.5 0 0 0 16.5 3c-1.8 0-3 .5-4.5 2-1.5-1.5-2.7-2-4.5-2A5.5 5.5 0 0 0 2 8.5c0 2.3 1.5 4 3 5.5l7 7Z"/>',
  plug: '<path d="M12 22v-5M9 8V2M15 8V2M18 8v5a6 6 0 0 1-12 0V8Z"/>',
  shield: '<path d="M12 22s8-4 8-10V5l-8-3-8 3v7c0 6 8 10 8 10Z"/>',
  clock: '<circle cx="12" cy="12" r="10"/><path d="M12 6v6l4 2"/>',
  list: '<path d="M8 6h13M8 12h13M8 18h13M3 6h.01M3 12h.01M3 18h.01"/>',
};

const ALIASES: Record<string, string> = {
  'circle-info': 'info', 'info-circle': 'info', 'pencil': 'note', 'pen': 'note', 'sticky-note': 'note',
  'triangle-exclamation': 'warning', 'exclamation-triangle': 'warning', 'triangle-alert': 'warning', 'alert-triangle': 'warning',
  'circle-exclamation': 'danger', 'circle-x': 'danger', 'ban': 'danger', 'xmark': 'danger',
  'check-circle': 'circle-check', 'badge-check': 'circle-check', 'square-check': 'circle-check',
  'arrow-up-right-from-square': 'link', 'external-link': 'link', 'link-simple': 'link',
  'book-open': 'book', 'books': 'book', 'book-bookmark': 'book', 'code-simple': 'code', 'brackets-curly': 'code', 'file-code': 'code',
  'square-terminal': 'terminal', 'rectangle-terminal': 'terminal', 'rocket-launch': 'rocket',
  'gears': 'gear', 'cog': 'gear', 'settings': 'gear', 'sliders': 'gear', 'wrench': 'gear', 'screwdriver-wrench': 'gear',
  'earth-americas': 'globe', 'earth': 'globe', 'globe-pointer': 'globe', 'lock-keyhole': 'lock', 'unlock': 'lock',
  'user-group': 'user', 'users': 'user', 'circle-user': 'user', 'folder-open': 'folder', 'file-lines': 'file',
  'page': 'file', 'server': 'database', 'cloud-arrow-up': 'cloud', 'stars': 'star', 'sparkles': 'star', 'wand-magic-sparkles': 'star',
  'bolt-lightning': 'bolt', 'zap': 'bolt', 'flash': 'bolt', 'circle-play': 'play', 'video': 'play', 'youtube': 'play',
  'magnifying-glass': 'search', 'home': 'house', 'puzzle-piece': 'puzzle', 'chart-line': 'chart', 'chart-simple': 'chart',
  'chart-bar': 'chart', 'comment': 'message', 'comments': 'message', 'discord': 'message', 'slack': 'message',
  'messages': 'message', 'envelope-open': 'envelope', 'mail': 'envelope', 'shield-check': 'shield', 'shield-halved': 'shield',
  'clock-rotate-left': 'clock', 'list-check': 'list', 'list-ul': 'list', 'square-list': 'list', 'lightbulb-on': 'lightbulb',
  'tip': 'lightbulb', 'angle-right': 'chevron-right', 'arrow-right-long': 'arrow-right',
};

/**
 * Returns the inline SVG for an icon name (case-insensitive, `fa-` prefixes ignored), or undefined when
 * the name is not in the bundled set. The SVG is decorative: `aria-hidden="true"`.
 */
export function iconSvg(name: string | undefined, className = 'q-icon'): string | undefined {
  if (!name) return undefined;
  const key = name.trim().toLowerCase().replace(/^fa-/, '');
  const body = PATHS[key] ?? PATHS[ALIASES[key] ?? ''];
  if (!body) return undefined;
  return (
    `<svg class="${className}" aria-hidden="true" xmlns="http://www.w3.org/2000/svg" width="16" height="16" viewBox="0 0 24 24" ` +
    `fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round" stroke-linejoin="round">${body}</svg>`
  );
}

/** True when an `icon` prop is a URL or a root-relative image path rather than an icon name. */
export function isIconUrl(icon: string): boolean {
  return /^(https?:\/\/|\/)/.test(icon) || /\.(svg|png|jpe?g|gif|webp)$/i.test(icon);
}
