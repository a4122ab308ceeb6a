/**
 * Gated navigation in built pages (decisions.md section 6: gated pages, frontmatter `audience`, never
 * appear to visitors without access). The builder renders every page once, with the full navigation;
 * each piece of chrome that names a gated page carries the audience tags that open it:
 *
 * - `data-audience="partners internal"`: shown only to a visitor whose tags include one of these
 *   (a sidebar entry, a group holding only gated pages, a tab or anchor leading only to them, a
 *   previous/next card);
 * - `data-audience-unless="partners internal"`: shown only to a visitor whose tags include none of
 *   these (the stand-in for a gated alternative: the next readable previous/next card, a group's
 *   title without the link to its gated root page).
 *
 * An element may carry both. Site hosting (server/src/sites/audience-variants.ts) finds these
 * elements in the chrome of a built file and cuts out, per visitor, those their tags do not show;
 * nothing is rendered at request time. Tags are written percent-encoded (RFC 3986 unreserved
 * characters kept), sorted and space-separated, so any tag text survives and the attribute value
 * never needs HTML escaping.
 */

/** Attribute of an element shown only to visitors whose tags open one of its tags. */
export const AUDIENCE_ATTR = 'data-audience';
/** Attribute of an element hidden from visitors whose tags open one of its tags. */
export const AUDIENCE_UNLESS_ATTR = 'data-audience-unless';

/** Percent-encodes one tag keeping only RFC 3986 unreserved characters (`A-Z a-z 0-9 - . _ ~`). */
function encodeTag(tag: string): string {
  return encodeURIComponent(tag).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

/**
 * The attribute value of a tag list: each tag percent-encoded, unique, sorted, joined by one space
 * (`["internal", "beta testers"]` → `beta%20testers internal`).
 */
export function encodeAudienceTags(tags: Iterable<string>): string {
  return [...new Set([...tags].filter((t) => t !== '').map(encodeTag))].sort().join(' ');
}

/**
 * The tags of an attribute value written by {@link encodeAudienceTags}; a malformed escape keeps
 * the text as written (it then matches no real tag).
 */
export function decodeAudienceTags(value: string): string[] {
  const out: string[] = [];
  for (const part of value.split(' ')) {
    if (part === '') continue;
    try {
      out.push(decodeURIComponent(part));
    } catch {
      out.push(part);
    }
  }
  return out;
}

/**
 * The attributes of a conditional element, with a leading space (`''` when both lists are empty):
 * ` data-audience="…"` when `shownTo` has tags, ` data-audience-unless="…"` when `hiddenFrom` has.
 */
export function audienceAttrs(shownTo?: Iterable<string>, hiddenFrom?: Iterable<string>): string {
  const shown = shownTo ? encodeAudienceTags(shownTo) : '';
  const hidden = hiddenFrom ? encodeAudienceTags(hiddenFrom) : '';
  return (shown ? ` ${AUDIENCE_ATTR}="${shown}"` : '') + (hidden ? ` ${AUDIENCE_UNLESS_ATTR}="${hidden}"` : '');
}

/**
 * The gate rule (decisions.md section 6): a visitor may read a page gated with `pageTags` when
 * their token's tags include at least one of them (exact, case-sensitive comparison). An ungated
 * page (`pageTags` empty) is open to everyone.
 */
export function opensAudience(visitorTags: ReadonlySet<string> | readonly string[], pageTags: readonly string[]): boolean {
  if (pageTags.length === 0) return true;
  const has = visitorTags instanceof Set ? (t: string) => visitorTags.has(t) : (t: string) => (visitorTags as readonly string[]).includes(t);
  return pageTags.some(has);
}
