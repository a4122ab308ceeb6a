/**
 * The Content-Security-Policy of a site's pages (decisions.md section 10): only the site's own scripts
 * run. Site hosting (server/src/sites/security-headers.ts) and `quire-docs dev` send it.
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

