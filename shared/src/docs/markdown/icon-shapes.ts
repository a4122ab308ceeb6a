/**
 * The one icon set of Quire: the drawings used by page components (Card, Callout, Step, Tab... `icon`
 * props) and by the site theme (header, sidebar, config icons). Each value is the inner markup of a
 * 24x24 SVG drawn with strokes of `currentColor` (width 2, round caps and joins), in the style of
 * Lucide (ISC); written for Quire, not copied from an icon package.
 *
 * Names are the Font Awesome / Lucide spellings docs authors write in `icon="..."` and docs.json; the
 * aliases map the other spellings met in the corpora (pezzo, agentops, trigger-dev) to the closest drawing.
 */

/** Inner SVG markup of the numbers 1-9 in a 5x9 box (x 9.5-14.5, y 7.5-16.5), for `circle-1`...`circle-9`. */
const DIGITS = [
  '<path d="M10.5 9.5 12.5 7.5v9"/>',
  '<path d="M9.5 10a2.5 2.5 0 0 1 5 0c0 2.5-5 3.5-5 6.5h5"/>',
  '<path d="M9.5 8a2.5 2.2 0 0 1 5 .7c0 1.4-1.1 2.3-2.5 2.3 1.4 0 2.5 1.1 2.5 2.6a2.5 2.5 0 0 1-5 .6"/>',
  '<path d="M13.5 16.5v-9l-4 6h5"/>',
  '<path d="M14.5 7.5H10l-.5 4a2.8 2.8 0 1 1 0 3.6"/>',
  '<circle cx="12" cy="14" r="2.5"/><path d="M14 7.5c-2.5 0-4.5 2.5-4.5 6.5"/>',
  '<path d="M9.5 7.5h5l-3.5 9"/>',
  '<circle cx="12" cy="9.7" r="2.2"/><circle cx="12" cy="14.2" r="2.3"/>',
  '<circle cx="12" cy="10" r="2.5"/><path d="M14.5 10c0 4-2 6.5-4.5 6.5"/>',
] as const;

const numberedCircles = Object.fromEntries(DIGITS.map((d, i) => [`circle-${i + 1}`, `<circle cx="12" cy="12" r="10"/>${d}`]));

/** The neutral glyph shown for an icon name the set does not know (a ring with a dot). */
export const FALLBACK_ICON = '<circle cx="12" cy="12" r="9"/><circle cx="12" cy="12" r="1.5"/>';

/** Every drawing by its canonical name. */
export const ICON_SHAPES = {
  // callouts and page furniture
  info: '<circle cx="12" cy="12" r="10"/><path d="M12 16v-4M12 8h.01"/>',
  pencil: '<path d="M12 20h9"/><path d="M16.5 3.5a2.1 2.1 0 0 1 3 3L7 19l-4 1 1-4Z"/>',
  lightbulb: '<path d="M9 18h6M10 22h4"/><path d="M12 2a7 7 0 0 0-4 12.7V16h8v-1.3A7 7 0 0 0 12 2Z"/>',
  warning: '<path d="M10.3 3.9 1.8 18a2 2 0 0 0 1.7 3h17a2 2 0 0 0 1.7-3L13.7 3.9a2 2 0 0 0-3.4 0Z"/><path d="M12 9v4M12 17h.01"/>',
  triangle: '<path d="M10.3 3.9 1.8 18a2 2 0 0 0 1.7 3h17a2 2 0 0 0 1.7-3L13.7 3.9a2 2 0 0 0-3.4 0Z"/>',
  check: '<path d="M20 6 9 17l-5-5"/>',
  'circle-check': '<circle cx="12" cy="12" r="10"/><path d="m9 12 2 2 4-4"/>',
  danger: '<circle cx="12" cy="12" r="10"/><path d="m15 9-6 6M9 9l6 6"/>',
  ban: '<circle cx="12" cy="12" r="10"/><path d="m4.9 4.9 14.2 14.2"/>',
  'circle-question': '<circle cx="12" cy="12" r="10"/><path d="M9.1 9a3 3 0 0 1 5.8 1c0 2-2.9 3-2.9 3M12 17h.01"/>',
  copy: '<rect x="9" y="9" width="13" height="13" rx="2"/><path d="M5 15H4a2 2 0 0 1-2-2V4a2 2 0 0 1 2-2h9a2 2 0 0 1 2 2v1"/>',
  ...numberedCircles,
  // arrows and interface
  'arrow-right': '<path d="M5 12h14M12 5l7 7-7 7"/>',
  'arrow-up-right': '<path d="M7 7h10v10"/><path d="M7 17 17 7"/>',
  'chevron-right': '<path d="m9 18 6-6-6-6"/>',
  'chevron-left': '<path d="m15 18-6-6 6-6"/>',
  'chevron-down': '<path d="m6 9 6 6 6-6"/>',
  menu: '<path d="M4 6h16M4 12h16M4 18h16"/>',
  close: '<path d="M18 6 6 18M6 6l12 12"/>',
  search: '<circle cx="11" cy="11" r="8"/><path d="m21 21-4.3-4.3"/>',
  sun: '<circle cx="12" cy="12" r="4"/><path d="M12 2v2M12 20v2M4.93 4.93l1.41 1.41M17.66 17.66l1.41 1.41M2 12h2M20 12h2M6.34 17.66l-1.41 1.41M19.07 4.93l-1.41 1.41"/>',
  moon: '<path d="M12 3a6 6 0 0 0 9 9 9 9 0 1 1-9-9Z"/>',
  eye: '<path d="M2 12s3.5-7 10-7 10 7 10 7-3.5 7-10 7S2 12 2 12Z"/><circle cx="12" cy="12" r="3"/>',
  link: '<path d="M10 13a5 5 0 0 0 7.5.5l3-3a5 5 0 0 0-7-7l-1.7 1.7"/><path d="M14 11a5 5 0 0 0-7.5-.5l-3 3a5 5 0 0 0 7 7l1.7-1.7"/>',
  list: '<path d="M8 6h13M8 12h13M8 18h13M3 6h.01M3 12h.01M3 18h.01"/>',
  table: '<rect x="3" y="3" width="18" height="18" rx="2"/><path d="M3 9h18M3 15h18M12 3v18"/>',
  compress: '<path d="M8 3v3a2 2 0 0 1-2 2H3M21 8h-3a2 2 0 0 1-2-2V3M3 16h3a2 2 0 0 1 2 2v3M16 21v-3a2 2 0 0 1 2-2h3"/>',
  loader: '<path d="M21 12a9 9 0 1 1-6.2-8.6"/>',
  download: '<path d="M21 15v4a2 2 0 0 1-2 2H5a2 2 0 0 1-2-2v-4M7 10l5 5 5-5M12 15V3"/>',
  trash: '<path d="M3 6h18M19 6v14a2 2 0 0 1-2 2H7a2 2 0 0 1-2-2V6M8 6V4a2 2 0 0 1 2-2h4a2 2 0 0 1 2 2v2M10 11v6M14 11v6"/>',
  stop: '<rect x="5" y="5" width="14" height="14" rx="2"/>',
  play: '<path d="m6 3 14 9-14 9V3Z"/>',
  // documents and writing
  book: '<path d="M4 19.5A2.5 2.5 0 0 1 6.5 17H20V2H6.5A2.5 2.5 0 0 0 4 4.5v15Z"/><path d="M4 19.5A2.5 2.5 0 0 0 6.5 22H20v-5"/>',
  'book-open': '<path d="M2 3h6a4 4 0 0 1 4 4v14a3 3 0 0 0-3-3H2Z"/><path d="M22 3h-6a4 4 0 0 0-4 4v14a3 3 0 0 1 3-3h7Z"/>',
  notebook: '<rect x="4" y="2" width="16" height="20" rx="2"/><path d="M16 2v20M2 7h4M2 12h4M2 17h4"/>',
  scroll: '<path d="M19 17V5a2 2 0 0 0-2-2H4"/><path d="M8 21h12a2 2 0 0 0 2-2v-2H10v2a2 2 0 1 1-4 0V5a2 2 0 1 0-4 0v3h4"/>',
  newspaper: '<path d="M4 22h16a2 2 0 0 0 2-2V4a2 2 0 0 0-2-2H8a2 2 0 0 0-2 2v16a2 2 0 0 1-2 2Zm0 0a2 2 0 0 1-2-2v-9c0-1.1.9-2 2-2h2"/><path d="M18 14h-8M15 18h-5M10 6h8v4h-8Z"/>',
  file: '<path d="M14 2H6a2 2 0 0 0-2 2v16a2 2 0 0 0 2 2h12a2 2 0 0 0 2-2V8Z"/><path d="M14 2v6h6M16 13H8M16 17H8"/>',
  folder: '<path d="M4 20h16a2 2 0 0 0 2-2V8a2 2 0 0 0-2-2h-7.9a2 2 0 0 1-1.7-.9l-.8-1.2A2 2 0 0 0 7.9 3H4a2 2 0 0 0-2 2v13a2 2 0 0 0 2 2Z"/>',
  bookmark: '<path d="m19 21-7-4-7 4V5a2 2 0 0 1 2-2h10a2 2 0 0 1 2 2Z"/>',
  markdown: '<rect x="2" y="5" width="20" height="14" rx="2"/><path d="M6 15V9l3 3 3-3v6M17 9v6M15 13l2 2 2-2"/>',
  image: '<rect x="3" y="3" width="18" height="18" rx="2"/><circle cx="9" cy="9" r="2"/><path d="m21 15-5-5L5 21"/>',
  film: '<rect x="3" y="3" width="18" height="18" rx="2"/><path d="M7 3v18M17 3v18M3 7.5h4M3 12h18M3 16.5h4M17 7.5h4M17 16.5h4"/>',
  calendar: '<rect x="3" y="4" width="18" height="18" rx="2"/><path d="M16 2v4M8 2v4M3 10h18"/>',
  clock: '<circle cx="12" cy="12" r="10"/><path d="M12 6v6l4 2"/>',
  alarm: '<circle cx="12" cy="13" r="8"/><path d="M12 9v4M12 17h.01M5 3 2 6M22 6l-3-3"/>',
  hourglass: '<path d="M5 22h14M5 2h14M17 22v-4.2a2 2 0 0 0-.6-1.4L12 12l-4.4 4.4a2 2 0 0 0-.6 1.4V22M7 2v4.2a2 2 0 0 0 .6 1.4L12 12l4.4-4.4a2 2 0 0 0 .6-1.4V2"/>',
  // code and infrastructure
  code: '<path d="m16 18 6-6-6-6M8 6l-6 6 6 6"/>',
  'square-code': '<rect x="3" y="3" width="18" height="18" rx="2"/><path d="m10 9-3 3 3 3M14 9l3 3-3 3"/>',
  terminal: '<path d="m4 17 6-6-6-6M12 19h8"/>',
  browser: '<rect x="2" y="4" width="20" height="16" rx="2"/><path d="M2 9h20M6 6.5h.01M9 6.5h.01"/>',
  monitor: '<rect x="2" y="3" width="20" height="14" rx="2"/><path d="M8 21h8M12 17v4"/>',
  server: '<rect x="2" y="2" width="20" height="8" rx="2"/><rect x="2" y="14" width="20" height="8" rx="2"/><path d="M6 6h.01M6 18h.01"/>',
  database: '<ellipse cx="12" cy="5" rx="9" ry="3"/><path d="M3 5v14c0 1.7 4 3 9 3s9-1.3 9-3V5"/><path d="M3 12c0 1.7 4 3 9 3s9-1.3 9-3"/>',
  cloud: '<path d="M17.5 19H9a7 7 0 1 1 6.7-9h1.8a4.5 4.5 0 1 1 0 9Z"/>',
  hexagon: '<path d="M21 16V8a2 2 0 0 0-1-1.7l-7-4a2 2 0 0 0-2 0l-7 4A2 2 0 0 0 3 8v8a2 2 0 0 0 1 1.7l7 4a2 2 0 0 0 2 0l7-4a2 2 0 0 0 1-1.7Z"/>',
  gauge: '<path d="m12 14 4-4"/><path d="M3.3 19a10 10 0 1 1 17.4 0"/>',
  cpu: '<rect x="6" y="6" width="12" height="12" rx="2"/><rect x="9" y="9" width="6" height="6"/><path d="M9 2v4M15 2v4M9 18v4M15 18v4M2 9h4M2 15h4M18 9h4M18 15h4"/>',
  bot: '<rect x="4" y="8" width="16" height="12" rx="2"/><path d="M12 8V4M8 2h8M2 14h2M20 14h2M9 13v2M15 13v2"/>',
  box: '<path d="M21 8 12 3 3 8v8l9 5 9-5Z"/><path d="m3 8 9 5 9-5M12 13v8"/>',
  layers: '<path d="m12 2 10 5-10 5L2 7Z"/><path d="m2 12 10 5 10-5M2 17l10 5 10-5"/>',
  stack: '<rect x="3" y="9" width="18" height="12" rx="2"/><path d="M5 6h14M7 3h10"/>',
  webhook: '<circle cx="6" cy="17" r="3"/><circle cx="18" cy="17" r="3"/><circle cx="12" cy="6" r="3"/><path d="M9 17h6M7.5 14.4l3-5.8M16.5 14.4l-3-5.8"/>',
  workflow: '<rect x="3" y="3" width="8" height="6" rx="1"/><rect x="13" y="15" width="8" height="6" rx="1"/><path d="M7 9v4a2 2 0 0 0 2 2h4"/>',
  split: '<path d="M16 3h5v5M8 3H3v5M21 3l-7 7M3 3l7.5 7.5A5 5 0 0 1 12 14v8"/>',
  plug: '<path d="M12 22v-5M9 8V2M15 8V2M18 8v5a6 6 0 0 1-12 0V8Z"/>',
  puzzle: '<path d="M19.4 13.5a2.5 2.5 0 1 0 0-3H17V7a1 1 0 0 0-1-1h-3.5a2.5 2.5 0 1 0-3 0H6a1 1 0 0 0-1 1v3.5a2.5 2.5 0 1 1 0 3V17a1 1 0 0 0 1 1h3.5a2.5 2.5 0 1 1 3 0H16a1 1 0 0 0 1-1v-3.5Z"/>',
  atom: '<circle cx="12" cy="12" r="1"/><ellipse cx="12" cy="12" rx="10" ry="4"/><ellipse cx="12" cy="12" rx="10" ry="4" transform="rotate(60 12 12)"/><ellipse cx="12" cy="12" rx="10" ry="4" transform="rotate(120 12 12)"/>',
  helm: '<circle cx="12" cy="12" r="7"/><circle cx="12" cy="12" r="2"/><path d="M12 2v8M12 14v8M2 12h8M14 12h8M4.9 4.9l5.7 5.7M13.4 13.4l5.7 5.7M4.9 19.1l5.7-5.7M13.4 10.6l5.7-5.7"/>',
  bug: '<rect x="7" y="6" width="10" height="14" rx="5"/><path d="M12 20v-9M9 6a3 3 0 0 1 6 0M3 13h4M17 13h4M4 7l3 2M20 7l-3 2M4 20l3-2M20 20l-3-2"/>',
  github: '<path d="M15 22v-4a4.8 4.8 0 0 0-1-3.5c3 0 6-2 6-5.5.1-1.3-.3-2.5-1-3.5.3-1.2.3-2.4 0-3.5 0 0-1 0-3 1.5a10.4 10.4 0 0 0-5.5 0C8 2 7 2 7 2c-.3 1.1-.3 2.3 0 3.5A5.4 5.4 0 0 0 6 9c0 3.5 3 5.5 6 5.5-.4.5-.7 1-.8 1.6-.2.6-.3 1.2-.2 1.9v4"/><path d="M9 18c-4.5 2-5-2-7-2"/>',
  instagram: '<rect x="2" y="2" width="20" height="20" rx="5"/><circle cx="12" cy="12" r="4"/><path d="M17.5 6.5h.01"/>',
  // tools, actions, energy
  gear: '<circle cx="12" cy="12" r="3"/><path d="M19.4 15a1.7 1.7 0 0 0 .3 1.8l.1.1a2 2 0 1 1-2.8 2.8l-.1-.1a1.7 1.7 0 0 0-1.8-.3 1.7 1.7 0 0 0-1 1.5V21a2 2 0 1 1-4 0v-.1a1.7 1.7 0 0 0-1.1-1.5 1.7 1.7 0 0 0-1.8.3l-.1.1a2 2 0 1 1-2.8-2.8l.1-.1a1.7 1.7 0 0 0 .3-1.8 1.7 1.7 0 0 0-1.5-1H3a2 2 0 1 1 0-4h.1a1.7 1.7 0 0 0 1.5-1.1 1.7 1.7 0 0 0-.3-1.8l-.1-.1a2 2 0 1 1 2.8-2.8l.1.1a1.7 1.7 0 0 0 1.8.3H9a1.7 1.7 0 0 0 1-1.5V3a2 2 0 1 1 4 0v.1a1.7 1.7 0 0 0 1 1.5 1.7 1.7 0 0 0 1.8-.3l.1-.1a2 2 0 1 1 2.8 2.8l-.1.1a1.7 1.7 0 0 0-.3 1.8V9a1.7 1.7 0 0 0 1.5 1H21a2 2 0 1 1 0 4h-.1a1.7 1.7 0 0 0-1.5 1Z"/>',
  wrench: '<path d="M14.7 6.3a1 1 0 0 0 0 1.4l1.6 1.6a1 1 0 0 0 1.4 0l3.8-3.8a6 6 0 0 1-7.9 7.9l-6.9 6.9a2.1 2.1 0 0 1-3-3l6.9-6.9a6 6 0 0 1 7.9-7.9Z"/>',
  briefcase: '<rect x="2" y="7" width="20" height="14" rx="2"/><path d="M16 7V5a2 2 0 0 0-2-2h-4a2 2 0 0 0-2 2v2M2 13h20"/>',
  rocket: '<path d="M4.5 16.5c-1.5 1.3-2 5-2 5s3.7-.5 5-2c.7-.8.7-2.1-.1-2.9a2.2 2.2 0 0 0-2.9-.1Z"/><path d="M12 15l-3-3a22 22 0 0 1 2-4A12.9 12.9 0 0 1 22 2c0 2.7-.8 7.5-6 11a22.4 22.4 0 0 1-4 2Z"/><path d="M9 12H4s.6-3 2-4c1.6-1.1 5 0 5 0M12 15v5s3-.6 4-2c1.1-1.6 0-5 0-5"/>',
  ship: '<path d="M4.5 18 3 13l9-4 9 4-1.5 5"/><path d="M8 11V6h8v5M12 6V2"/><path d="M2 21c2 0 2-1.5 4-1.5s2 1.5 4 1.5 2-1.5 4-1.5 2 1.5 4 1.5 2-1.5 4-1.5"/>',
  train: '<rect x="5" y="3" width="14" height="14" rx="3"/><path d="M5 11h14M12 3v8M8 21l2-4M16 21l-2-4M9 14h.01M15 14h.01"/>',
  bolt: '<path d="M13 2 3 14h9l-1 8 10-12h-9l1-8Z"/>',
  fire: '<path d="M8.5 14.5A2.5 2.5 0 0 0 11 12c0-1.4-.5-2-1-3-1.1-2.1-.2-4 2-6 .5 2.5 2 4.9 4 6.5 2 1.6 3 3.5 3 5.5a7 7 0 1 1-14 0c0-1.2.4-2.3 1-3.3.3 1.6 1.5 2.8 2.5 2.8Z"/>',
  activity: '<path d="M2 12h4l3-8 6 16 3-8h4"/>',
  sparkles: '<path d="M10 3 11.9 8.1 17 10l-5.1 1.9L10 17l-1.9-5.1L3 10l5.1-1.9Z"/><path d="M19 14v6M16 17h6"/>',
  wand: '<path d="m3 21 11-11M15 3v3M15 12v3M9 7.5h3M18 7.5h3M12.5 4.9l1.4 1.4M16.1 8.6l1.4 1.4M16.1 6.3l1.4-1.4"/>',
  star: '<path d="m12 2 3.1 6.3 6.9 1-5 4.9 1.2 6.8L12 17.8 5.8 21l1.2-6.8-5-4.9 6.9-1Z"/>',
  target: '<circle cx="12" cy="12" r="10"/><circle cx="12" cy="12" r="6"/><circle cx="12" cy="12" r="2"/>',
  megaphone: '<path d="m3 11 18-5v12L3 14Z"/><path d="M11.6 16.8a3 3 0 1 1-5.8-1.6"/>',
  bell: '<path d="M6 8a6 6 0 0 1 12 0c0 7 3 9 3 9H3s3-2 3-9M10.3 21a1.9 1.9 0 0 0 3.4 0"/>',
  chart: '<path d="M3 3v18h18M7 16v-5M12 16V8M17 16v-9"/>',
  mountain: '<path d="m8 3 4 8 5-5 5 15H2Z"/>',
  // people, places, communication
  user: '<circle cx="12" cy="8" r="4"/><path d="M4 21a8 8 0 0 1 16 0"/>',
  users: '<path d="M16 21v-2a4 4 0 0 0-4-4H6a4 4 0 0 0-4 4v2"/><circle cx="9" cy="7" r="4"/><path d="M22 21v-2a4 4 0 0 0-3-3.9M16 3.1a4 4 0 0 1 0 7.8"/>',
  hand: '<path d="M18 11V6a2 2 0 0 0-4 0v5M14 10V4a2 2 0 0 0-4 0v6M10 10.5V6a2 2 0 0 0-4 0v8a8 8 0 0 0 16 0v-2a2 2 0 0 0-4 0"/>',
  brain: '<path d="M12 4.5a3 3 0 0 0-5 1.5 3 3 0 0 0-2.5 4.5 3 3 0 0 0 .5 5 3 3 0 0 0 3.5 3.5 2.5 2.5 0 0 0 3.5 1Z"/><path d="M12 4.5a3 3 0 0 1 5 1.5 3 3 0 0 1 2.5 4.5 3 3 0 0 1-.5 5 3 3 0 0 1-3.5 3.5 2.5 2.5 0 0 1-3.5 1"/>',
  phone: '<path d="M22 16.9v3a2 2 0 0 1-2.2 2 19.8 19.8 0 0 1-8.6-3.1 19.5 19.5 0 0 1-6-6A19.8 19.8 0 0 1 2.1 4.2 2 2 0 0 1 4.1 2h3a2 2 0 0 1 2 1.7c.1.9.4 1.8.7 2.7a2 2 0 0 1-.5 2.1L8 9.8a16 16 0 0 0 6 6l1.3-1.3a2 2 0 0 1 2.1-.4c.9.3 1.8.6 2.7.7a2 2 0 0 1 1.7 2Z"/>',
  message: '<path d="M21 15a2 2 0 0 1-2 2H7l-4 4V5a2 2 0 0 1 2-2h14a2 2 0 0 1 2 2Z"/>',
  envelope: '<rect x="2" y="4" width="20" height="16" rx="2"/><path d="m22 7-10 6L2 7"/>',
  heart: '<path d="M19 14c1.5-1.5 3-3.2 3-5.5A5.5 5.5 0 0 0 16.5 3c-1.8 0-3 .5-4.5 2-1.5-1.5-2.7-2-4.5-2A5.5 5.5 0 0 0 2 8.5c0 2.3 1.5 4 3 5.5l7 7Z"/>',
  globe: '<circle cx="12" cy="12" r="10"/><path d="M2 12h20M12 2a15.3 15.3 0 0 1 4 10 15.3 15.3 0 0 1-4 10 15.3 15.3 0 0 1-4-10 15.3 15.3 0 0 1 4-10Z"/>',
  house: '<path d="m3 9 9-7 9 7v11a2 2 0 0 1-2 2H5a2 2 0 0 1-2-2Z"/><path d="M9 22V12h6v10"/>',
  // security
  key: '<circle cx="7.5" cy="15.5" r="5.5"/><path d="m21 2-9.6 9.6M15.5 7.5l3 3L22 7l-3-3"/>',
  lock: '<rect x="3" y="11" width="18" height="11" rx="2"/><path d="M7 11V7a5 5 0 0 1 10 0v4"/>',
  shield: '<path d="M12 22s8-4 8-10V5l-8-3-8 3v7c0 6 8 10 8 10Z"/>',
} as const satisfies Record<string, string>;

/** A drawing's canonical name. */
export type IconName = keyof typeof ICON_SHAPES;

/** Other spellings (Font Awesome, Lucide, brand names) mapped to the closest drawing. */
export const ICON_ALIASES: Record<string, IconName> = {
  // callouts
  'circle-info': 'info', 'info-circle': 'info', note: 'pencil', pen: 'pencil', 'pen-nib': 'pencil', 'pen-to-square': 'pencil', 'sticky-note': 'pencil',
  'triangle-exclamation': 'warning', 'exclamation-triangle': 'warning', 'triangle-alert': 'warning', 'alert-triangle': 'warning',
  'circle-exclamation': 'danger', 'circle-x': 'danger', 'circle-xmark': 'danger', xmark: 'close', x: 'close',
  'check-circle': 'circle-check', 'badge-check': 'circle-check', 'square-check': 'circle-check',
  'lightbulb-on': 'lightbulb', tip: 'lightbulb', question: 'circle-question', 'circle-help': 'circle-question', help: 'circle-question',
  // interface
  'arrow-up-right-from-square': 'arrow-up-right', 'external-link': 'arrow-up-right', 'link-simple': 'link',
  'angle-right': 'chevron-right', 'angle-left': 'chevron-left', 'angle-down': 'chevron-down', 'arrow-right-long': 'arrow-right',
  bars: 'menu', 'magnifying-glass': 'search', 'magnifying-glass-chart': 'search',
  'list-check': 'list', 'list-ul': 'list', 'square-list': 'list', 'rectangle-list': 'list', 'line-height': 'list',
  'table-cells': 'table', minimize: 'compress', spinner: 'loader', 'spinner-third': 'loader', 'circle-notch': 'loader',
  'trash-can': 'trash', 'circle-play': 'play', video: 'film', youtube: 'play', 'circle-stop': 'stop', square: 'stop',
  // documents
  books: 'book', 'book-bookmark': 'book', library: 'book', 'lines-leaning': 'book', 'graduation-cap': 'book-open',
  'file-lines': 'file', 'file-text': 'file', 'file-csv': 'file', page: 'file', 'folder-open': 'folder', flag: 'bookmark',
  blog: 'newspaper', rss: 'newspaper', changelog: 'newspaper', photo: 'image', images: 'image', 'calendar-clock': 'calendar',
  'calendar-days': 'calendar', 'clock-rotate-left': 'clock', 'alarm-exclamation': 'alarm', 'alarm-clock': 'alarm',
  'hourglass-half': 'hourglass',
  // code and infrastructure
  js: 'square-code', 'square-js': 'square-code', 'square-e': 'square-code', 'node-js': 'hexagon', node: 'hexagon',
  'gauge-simple-low': 'gauge', 'gauge-high': 'gauge', 'gauge-simple': 'gauge', speedometer: 'gauge',
  'code-simple': 'code', 'brackets-curly': 'code', 'file-code': 'code', braces: 'code', api: 'code', snake: 'code', python: 'code',
  'terminal-square': 'terminal', 'square-terminal': 'terminal', 'rectangle-terminal': 'terminal', cli: 'terminal',
  computer: 'monitor', desktop: 'monitor', laptop: 'monitor', 'window-maximize': 'browser', 'app-window': 'browser',
  aws: 'cloud', 'cloud-arrow-up': 'cloud', microchip: 'cpu', 'microchip-ai': 'cpu',
  robot: 'bot', 'message-bot': 'bot', docker: 'box', cube: 'box', cubes: 'box', package: 'box', 'person-carry-box': 'box',
  'layer-group': 'layers', pancakes: 'layers', 'rectangle-history': 'stack',
  'diagram-project': 'workflow', 'diagram-subtask': 'workflow', sitemap: 'workflow', 'arrows-split-up-and-left': 'split',
  'code-branch': 'split', git: 'split', 'puzzle-piece': 'puzzle', react: 'atom', dharmachakra: 'helm', kubernetes: 'helm',
  'github-alt': 'github', 'square-github': 'github', 'square-instagram': 'instagram',
  // tools and energy
  hammer: 'wrench', cog: 'gear', gears: 'gear', settings: 'gear', sliders: 'gear', 'screwdriver-wrench': 'wrench', toolbox: 'wrench', tools: 'wrench',
  'rocket-launch': 'rocket', zap: 'bolt', flash: 'bolt', 'bolt-lightning': 'bolt', flame: 'fire', 'wave-pulse': 'activity',
  'person-running': 'activity', 'wand-magic-sparkles': 'wand', 'wand-magic': 'wand', magic: 'wand', stars: 'sparkles',
  'bullseye-pointer': 'target', bullseye: 'target', bullhorn: 'megaphone', 'chart-line': 'chart', 'chart-simple': 'chart',
  'chart-bar': 'chart', 'chart-column': 'chart', 'hill-rockslide': 'mountain', 'train-tram': 'train',
  // people and communication
  'user-group': 'users', 'people-group': 'users', 'people-arrows': 'users', community: 'users', 'circle-user': 'user',
  'hand-point-up': 'hand', 'hand-peace': 'hand', 'hand-wave': 'hand', comment: 'message', comments: 'message', messages: 'message',
  'message-lines': 'message', 'message-exclamation': 'message', 'message-circle': 'message', 'messages-square': 'message',
  discord: 'message', slack: 'message', 'life-ring': 'message', support: 'message', headset: 'message', mail: 'envelope',
  'envelope-open': 'envelope', earth: 'globe', 'earth-americas': 'globe', 'globe-pointer': 'globe', website: 'globe', web: 'globe',
  home: 'house', 'house-chimney': 'house', mobile: 'phone',
  // security
  'lock-keyhole': 'lock', unlock: 'lock', 'user-lock': 'lock', 'shield-check': 'shield', 'shield-halved': 'shield',
  'shield-exclamation': 'shield', fingerprint: 'key',
};
