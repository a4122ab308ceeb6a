/**
 * Ids and names written by page authors are prefixed so they cannot clobber DOM globals (DOM clobbering:
 * `<img name="body">` makes `document.body` that image, `<a id="x">` defines `window.x`), nor take the
 * theme's own ids (`q-sidebar`, `q-search`). The prefix is GitHub's `user-content-`; ids the engine
 * generates itself (heading anchors, tab and component ids: the page's HeadingCollector) are kept.
 * components.js scrolls to `user-content-<hash>` when no element has the URL's hash as id, so links
 * written `#x` (on the page or from elsewhere) still reach `id="x"`.
 * Limit: an author element that reuses an engine id *before* the engine's element keeps it, and the
 * engine's element is prefixed instead (the sanitizer cannot tell who wrote an attribute; ids are unique
 * either way, and such an id clobbers nothing the engine's id did not already).
 */

/** The prefix of author-supplied `id` and `name` values. */
export const USER_ID_PREFIX = 'user-content-';

/**
 * Which ids of a fragment the engine generated: a set (the page's HeadingCollector.ids), or 'all' for
 * HTML built by Quire only from escaped text, with no author HTML in it (an OpenAPI operation).
 */
export type OwnIds = ReadonlySet<string> | 'all';

/** Attributes whose value is a whitespace-separated list of ids (HTML and WAI-ARIA IDREF(S)). */
const ID_REFERENCES = [
  'for',
  'headers',
  'aria-labelledby',
  'aria-describedby',
  'aria-controls',
  'aria-owns',
  'aria-activedescendant',
  'aria-details',
  'aria-errormessage',
  'aria-flowto',
];

/**
 * Elements whose `id`/`name` become named properties of `document` itself (HTML standard, "Document
 * object, named properties"); their ids are prefixed even when they equal an engine id.
 */
const DOCUMENT_NAMED = new Set(['img', 'iframe', 'object', 'embed', 'form']);

function prefixed(value: string): string {
  return value.startsWith(USER_ID_PREFIX) ? value : USER_ID_PREFIX + value;
}

/**
 * Prefixes the author-supplied `id`, `name` and id references of one element's attributes, in place.
 * An `id` listed in `own` stays as is the first time it occurs (`seen` remembers it: the engine writes
 * each of its ids once, so a repeat is an author's copy) and never on the elements `document` exposes
 * by id; reference tokens listed in `own` stay as they are; `name` is always prefixed (the engine writes
 * none). Empty values and values already prefixed are left alone, so sanitizing twice changes nothing.
 */
export function prefixUserIds(tag: string, attribs: Record<string, string>, own: OwnIds, seen: Set<string>): void {
  const id = attribs.id;
  if (id) {
    const keep = !DOCUMENT_NAMED.has(tag) && (own === 'all' || (own.has(id) && !seen.has(id)));
    if (keep) seen.add(id);
    else attribs.id = prefixed(id);
  }
  if (attribs.name) attribs.name = prefixed(attribs.name);
  for (const attr of ID_REFERENCES) {
    const value = attribs[attr];
    if (!value) continue;
    attribs[attr] = value
      .split(/\s+/)
      .filter(Boolean)
      .map((id) => (own === 'all' || own.has(id) ? id : prefixed(id)))
      .join(' ');
  }
}
