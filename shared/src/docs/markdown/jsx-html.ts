/**
 * Lowercase JSX elements (`<div className="x">`, `<iframe src=...>`, an `<svg>` passed as a prop) written
 * back as plain HTML. The result is still untrusted: the page's sanitizer decides what survives.
 */
import { escapeHtml } from './html';

const VOID = new Set(['area', 'base', 'br', 'col', 'embed', 'hr', 'img', 'input', 'link', 'meta', 'source', 'track', 'wbr']);
const RENAMED: Record<string, string> = { className: 'class', htmlFor: 'for', srcSet: 'srcset', tabIndex: 'tabindex', colSpan: 'colspan', rowSpan: 'rowspan', allowFullScreen: 'allowfullscreen', autoPlay: 'autoplay', playsInline: 'playsinline', frameBorder: 'frameborder', referrerPolicy: 'referrerpolicy', crossOrigin: 'crossorigin' };
const SVG_CAMEL = /^(stroke|fill|clip|stop|font|text|dominant|alignment|color|flood|lighting|marker|shape|word|letter|image|pointer|vector)[A-Z]/;

/** Maps a JSX attribute name to its HTML spelling (`className` → `class`, `strokeWidth` → `stroke-width`). */
export function htmlAttributeName(name: string): string {
  if (Object.hasOwn(RENAMED, name)) return RENAMED[name]!;
  if (/^(aria|data)[A-Z]/.test(name) || SVG_CAMEL.test(name)) return name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
  return name;
}

/**
 * Serializes attributes: strings and numbers as values, `true` as a bare attribute; false, null,
 * undefined, objects (e.g. `style={{...}}`) and invalid names are left out.
 */
export function attributesHtml(attrs: Record<string, unknown>): string {
  let out = '';
  for (const [name, value] of Object.entries(attrs)) {
    const attr = htmlAttributeName(name);
    if (!/^[a-zA-Z_:][\w:.-]*$/.test(attr)) continue;
    if (value === true) out += ` ${attr}`;
    else if (typeof value === 'string' || typeof value === 'number') out += ` ${attr}="${escapeHtml(String(value))}"`;
  }
  return out;
}

/** `<tag attrs>children</tag>` (void tags without children); '' + children for an invalid tag name. */
export function elementHtml(tag: string, attrs: Record<string, unknown>, childrenHtml: string): string {
  if (!/^[a-z][a-z0-9-]*$/i.test(tag)) return childrenHtml;
  const t = tag.toLowerCase();
  const open = `<${t}${attributesHtml(attrs)}>`;
  return VOID.has(t) ? open : `${open}${childrenHtml}</${t}>`;
}
