/**
 * Escaping for everything the theme interpolates into HTML: config strings, page titles,
 * descriptions, labels and hrefs all come from the customer's repository and are untrusted
 * (decisions.md section 10: the site may run only its own scripts).
 */

import { escapeHtml } from '../docs/markdown/html';

/** The page renderer's escaper serves the theme too. */
export { escapeHtml };

/**
 * Returns an href that is safe to put in an attribute, escaped, or undefined when the value must
 * not become a link. Allowed: `http:`/`https:`/`mailto:` URLs, root-relative (`/x`), relative
 * (`x`, `./x`, `../x`), fragments (`#x`) and queries. Refused: every other scheme (`javascript:`,
 * `data:`, `vbscript:`...), protocol-relative `//host` and values containing control characters
 * (which browsers strip, so `java\tscript:` would otherwise slip through).
 */
export function safeHref(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  const v = value.trim();
  if (v === '' || hasControlChar(v)) return undefined;
  if (v.startsWith('//') || v.startsWith('\\')) return undefined;
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(v);
  if (scheme) {
    const s = scheme[1]!.toLowerCase();
    if (s !== 'http' && s !== 'https' && s !== 'mailto') return undefined;
  }
  return escapeHtml(v);
}

function hasControlChar(v: string): boolean {
  for (let i = 0; i < v.length; i++) {
    const c = v.charCodeAt(i);
    if (c < 0x20 || c === 0x7f) return true;
  }
  return false;
}

/** True when the href leaves the site for another web site (an absolute http(s) URL). */
export function isExternalHref(value: string): boolean {
  return /^https?:/i.test(value.trim());
}

/** Attributes opening an external http(s) link in a new tab (`''` for internal and mailto links). */
export function externalAttrs(value: string | undefined): string {
  return value !== undefined && isExternalHref(value) ? ' rel="noopener" target="_blank"' : '';
}
