/** Tiny HTML string helpers shared by the renderers (escaping only; no parsing). */

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;', '\u0000': '\ufffd' };

/**
 * Escapes text for use inside an element or a double-quoted attribute value; the one escaper of
 * the page renderer and the site theme. NUL becomes U+FFFD (as an HTML parser would), which also
 * keeps it free for the theme's internal template markers.
 */
export function escapeHtml(text: string): string {
  // eslint-disable-next-line no-control-regex -- NUL is matched on purpose (replaced, see above)
  return text.replace(/[&<>"'\u0000]/g, (c) => ESCAPES[c]!);
}

/** Reverses the five entities produced by {@link escapeHtml} plus numeric references and `&nbsp;`. */
export function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|amp|lt|gt|quot|apos|nbsp|#39);/gi, (_m, e: string) => {
    const k = e.toLowerCase();
    if (k === 'amp') return '&';
    if (k === 'lt') return '<';
    if (k === 'gt') return '>';
    if (k === 'quot') return '"';
    if (k === 'apos' || k === '#39') return "'";
    if (k === 'nbsp') return '\u00a0';
    const code = k.startsWith('#x') ? parseInt(k.slice(2), 16) : parseInt(k.slice(1), 10);
    return Number.isFinite(code) && code > 0 && code < 0x110000 ? String.fromCodePoint(code) : '';
  });
}
