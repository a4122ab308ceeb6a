/**
 * What an embedded iframe may do (decisions.md section 10: a page must not run script in the site's
 * origin). Used by the sanitizer for every `<iframe>` that survives (https `src` only).
 */

/**
 * The sandbox every iframe gets, whatever the page wrote: scripts, popups (opened unsandboxed, so a
 * video's "watch on ..." link works) and presentation, enough for video players. Never
 * `allow-same-origin` together with `allow-scripts`: with both, the framed document may remove its own
 * sandbox (HTML standard, "sandboxing" note), and a same-origin `src` would be script in the site's
 * origin. No top navigation, forms, downloads or modals.
 */
export const IFRAME_SANDBOX = 'allow-scripts allow-popups allow-popups-to-escape-sandbox allow-presentation';

/**
 * Permissions-policy features an embed may ask for in `allow=`: what video players need, none that
 * reads the reader's devices, location or money (camera, microphone, geolocation, payment, usb,
 * serial, display-capture... are dropped, as is any name not listed here).
 */
const ALLOWED_FEATURES = new Set([
  'fullscreen',
  'picture-in-picture',
  'encrypted-media',
  'autoplay',
  'clipboard-write',
  'accelerometer',
  'gyroscope',
  'web-share',
]);

/** Allowlist values that do not widen the default (the frame's own `src` origin, or the page's). */
const SAFE_ORIGINS = new Set(["'self'", "'src'"]);

/**
 * Filters an iframe `allow` attribute (Permissions Policy "allow attribute" syntax: directives
 * separated by `;`, each a feature name followed by an optional allowlist of origins). A directive is
 * kept only when its feature is in the list above and its allowlist is empty, `'self'` or `'src'`;
 * `*`, `'none'`, URLs or anything else drop it.
 * @returns the kept directives joined by `; ` (feature names lowercased), or undefined when none is kept
 */
export function filterIframeAllow(value: string): string | undefined {
  const kept: string[] = [];
  for (const directive of value.split(';')) {
    const [feature, ...origins] = directive.trim().split(/\s+/);
    const name = (feature ?? '').toLowerCase();
    if (!ALLOWED_FEATURES.has(name)) continue;
    if (!origins.every((o) => SAFE_ORIGINS.has(o.toLowerCase()))) continue;
    kept.push([name, ...origins.map((o) => o.toLowerCase())].join(' '));
  }
  return kept.length > 0 ? kept.join('; ') : undefined;
}
