/**
 * Headers every site response carries (decisions.md section 10): no MIME sniffing, a CSP that
 * lets only the site's own scripts run, and a referrer policy that never leaks full URLs to
 * other origins.
 *
 * `script-src 'self'` cannot name a path; what keeps it to the site's own scripts
 * (`/_quire/assets/`) is that no other file of a deployment is ever served with a JavaScript
 * type (repository files: see `repository-files.ts`), and with `nosniff` browsers refuse to run
 * a script of another type. `worker-src 'none'`: the theme uses no workers, so no page can
 * register a service worker or start a worker at all.
 */
export const SITE_CSP =
  "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' https: data:; " +
  "frame-src https:; worker-src 'none'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'self'";

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

/** An origin as a CSP source: scheme, host (IPv6 in brackets) and port only, nothing a policy could misread. */
const CSP_ORIGIN = /^https?:\/\/(?:[a-z0-9.-]+|\[[0-9a-f:.]+\])(?::\d{1,5})?$/i;

/**
 * The CSP of a site's own files: {@link SITE_CSP}, plus `connect-src 'self' <origins>` when the
 * site's pages send requests elsewhere (the API playground's OpenAPI servers, the deployment
 * manifest's `connectSrc`). Origins that are not plain `http(s)://host[:port]` are left out.
 */
export function siteCsp(connectOrigins: readonly string[] | undefined): string {
  const origins = [...new Set((connectOrigins ?? []).filter((o) => CSP_ORIGIN.test(o)))];
  return origins.length ? `${SITE_CSP}; connect-src 'self' ${origins.join(' ')}` : SITE_CSP;
}

/** The security headers of site responses, with {@link SITE_CSP}. */
export const SECURITY_HEADERS: readonly string[] = securityHeaders(SITE_CSP);

/** `Cache-Control` of pages and other unhashed files: always revalidate (ETag/Last-Modified make it cheap). */
export const CACHE_REVALIDATE = 'public, max-age=0, must-revalidate';
/** `Cache-Control` of content-hashed assets: their name changes whenever their bytes do. */
export const CACHE_IMMUTABLE = 'public, max-age=31536000, immutable';
