/**
 * Turns the path of a request URL into a deployment-relative file key, or refuses it: site hosting
 * (server/src/sites) and `quire-docs dev` (cli/src/dev/) read request paths with this one rule.
 *
 * The result is looked up in the set of files listed when the deployment was loaded, so it can
 * never name a file outside the deployment; refusing odd forms here is a second fence:
 * `..`/`.` segments (raw or percent-encoded, decoded exactly once, so `%252e%252e` stays the
 * literal text `%2e%2e`), backslashes, NUL and other control characters, and malformed escapes.
 */

/**
 * @param rawUrl the request target, e.g. `/guides/setup?x=1` (query and fragment are ignored)
 * @returns the decoded path without its leading slash (`guides/setup`, `""` for `/`), with a
 *   trailing slash kept as a flag; `undefined` when the path is refused.
 */
export function sitePathOf(rawUrl: string): { path: string; trailingSlash: boolean } | undefined {
  let end = rawUrl.length;
  const q = rawUrl.indexOf('?');
  if (q !== -1) end = q;
  const h = rawUrl.indexOf('#');
  if (h !== -1 && h < end) end = h;
  const target = rawUrl.slice(0, end);
  if (target.charCodeAt(0) !== 47 /* / */) return undefined;
  let decoded: string;
  try {
    decoded = target.includes('%') ? decodeURIComponent(target) : target;
  } catch {
    return undefined;
  }
  // eslint-disable-next-line no-control-regex
  if (/[\\\u0000-\u001f\u007f]/.test(decoded)) return undefined;
  const trailingSlash = decoded.length > 1 && decoded.endsWith('/');
  const segments = decoded.split('/').filter((s) => s !== '');
  for (const s of segments) if (s === '..' || s === '.') return undefined;
  return { path: segments.join('/'), trailingSlash };
}
