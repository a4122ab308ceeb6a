/**
 * Headers every site response carries (decisions.md section 10): no MIME sniffing, a CSP that
 * lets only the site's own scripts run, and a referrer policy that never leaks full URLs to
 * other origins.
 */
export const SITE_CSP =
  "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' https: data:; " +
  "frame-src https:; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'self'";

/** Flat `[name, value, name, value, ...]` list, ready for `res.writeHead`. */
export const SECURITY_HEADERS: readonly string[] = [
  'X-Content-Type-Options', 'nosniff',
  'Content-Security-Policy', SITE_CSP,
  'Referrer-Policy', 'strict-origin-when-cross-origin',
];

/** `Cache-Control` of pages and other unhashed files: always revalidate (ETag/Last-Modified make it cheap). */
export const CACHE_REVALIDATE = 'public, max-age=0, must-revalidate';
/** `Cache-Control` of content-hashed assets: their name changes whenever their bytes do. */
export const CACHE_IMMUTABLE = 'public, max-age=31536000, immutable';
