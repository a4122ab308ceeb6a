/**
 * Headers every site response carries (decisions.md section 10): no MIME sniffing, the site's CSP
 * (shared/src/site/csp.ts), and a referrer policy that never leaks full URLs to other origins.
 */
import { SITE_CSP, siteCsp } from '@quire/shared/site/csp';

/** The site's CSP (shared/src/site/csp.ts: site hosting and `quire-docs dev` send the same). */
export { SITE_CSP, siteCsp };

/**
 * The security headers with a given Content-Security-Policy, as a flat
 * `[name, value, name, value, ...]` list ready for `res.writeHead`.
 */
export function securityHeaders(csp: string): string[] {
  return [
    'X-Content-Type-Options', 'nosniff',
    'Content-Security-Policy', csp,
    'Referrer-Policy', 'strict-origin-when-cross-origin',
  ];
}

/** The security headers of site responses, with {@link SITE_CSP}. */
export const SECURITY_HEADERS: readonly string[] = securityHeaders(SITE_CSP);

/** `Cache-Control` of pages and other unhashed files: always revalidate (ETag/Last-Modified make it cheap). */
export const CACHE_REVALIDATE = 'public, max-age=0, must-revalidate';
/** `Cache-Control` of content-hashed assets: their name changes whenever their bytes do. */
export const CACHE_IMMUTABLE = 'public, max-age=31536000, immutable';
