/**
 * "Did you mean": the page paths closest to a path that does not exist (site-look.md and the site's
 * 404 page: suggest the closest page paths). Pure and prepared once per deployment
 * ({@link PathSuggester}), so site hosting can answer each 404 with suggestions computed from the
 * requested path without slowing the 404 down (a few milliseconds for 10,000 pages).
 *
 * Paths are compared case-insensitively with `_` and spaces read as `-`, without a file extension
 * (`.html`, `.md`, `.mdx`) or a trailing `/index`. A page is close when its last segment is within a
 * small edit distance (Levenshtein) of the requested one (a typo, or the page moved to another
 * group: one more point when the folders differ), when the whole path is, or when the requested
 * path is a folder holding the page. Ties go to the smaller whole-path distance, then to navigation
 * order.
 */

/** A page that may be suggested. */
export interface SuggestablePage {
  /** page path as served (`guides/setup`; `index` is the home page) */
  path: string;
}

interface Prepared<P> {
  page: P;
  /** normalized whole path */
  norm: string;
  /** its folders (`guides/advanced`), '' at the root */
  dir: string;
  /** its last segment */
  last: string;
  order: number;
}

/**
 * Levenshtein distance of two strings (insertions, deletions, substitutions cost 1), or `max + 1` as
 * soon as it is known to exceed `max` (the strings' length difference, or a whole row above `max`).
 */
export function boundedEditDistance(a: string, b: string, max: number): number {
  if (a === b) return 0;
  if (Math.abs(a.length - b.length) > max) return max + 1;
  if (a.length === 0 || b.length === 0) return Math.max(a.length, b.length);
  // only the diagonal band |i - j| <= max can hold a value <= max (Ukkonen); cells outside it count as max + 1
  const m = b.length;
  const over = max + 1;
  let prev = new Int32Array(m + 1);
  let row = new Int32Array(m + 1);
  for (let j = 0; j <= m; j++) prev[j] = j <= max ? j : over;
  for (let i = 1; i <= a.length; i++) {
    const from = Math.max(1, i - max);
    const to = Math.min(m, i + max);
    row[0] = i <= max ? i : over;
    if (from > 1) row[from - 1] = over;
    let rowMin = row[0]!;
    const ca = a.charCodeAt(i - 1);
    for (let j = from; j <= to; j++) {
      const sub = prev[j - 1]! + (ca === b.charCodeAt(j - 1) ? 0 : 1);
      const del = j <= i - 1 + max ? prev[j]! + 1 : over;
      const ins = row[j - 1]! + 1;
      let v = sub < del ? (sub < ins ? sub : ins) : del < ins ? del : ins;
      if (v > over) v = over;
      row[j] = v;
      if (v < rowMin) rowMin = v;
    }
    if (to < m) row[to + 1] = over;
    if (rowMin > max) return over;
    const t = prev;
    prev = row;
    row = t;
  }
  return Math.min(prev[m]!, over);
}

/** The comparable form of a path: lowercase, `_`/spaces as `-`, no extension, no `index` ending, no slashes at the ends. */
export function normalizePagePath(path: string): string {
  return path
    .toLowerCase()
    .replace(/[_\s]+/g, '-')
    .replace(/\/+/g, '/')
    .replace(/^\/|\/$/g, '')
    .replace(/\.(?:html?|mdx?)$/, '')
    .replace(/(?:^|\/)index$/, '');
}

/** How far a whole path may be from another (a typo or two) when its last segment alone is not close. */
const WHOLE_MAX = 2;

/** How far a last segment of `length` characters may be from another and still be suggested. */
function allowance(length: number): number {
  return Math.max(1, Math.floor(length * 0.4));
}

/** A deployment's pages prepared for suggestions (build once, query per 404). */
export class PathSuggester<P extends SuggestablePage> {
  private readonly pages: Prepared<P>[];

  /** @param pages the pages that may ever be suggested, in navigation order (hidden pages left out by the caller) */
  constructor(pages: readonly P[]) {
    this.pages = pages.map((page, order) => {
      const norm = normalizePagePath(page.path);
      const cut = norm.lastIndexOf('/');
      return { page, norm, dir: cut === -1 ? '' : norm.slice(0, cut), last: cut === -1 ? norm : norm.slice(cut + 1), order };
    });
  }

  /**
   * The pages closest to a requested path, best first.
   * @param requested the path that was not found (`guids/setup`, `/Guides/Setup.html`; leading slash optional)
   * @param canSuggest whether a page may be shown to this reader (gated pages: only with access)
   * @param limit at most this many (default 5)
   */
  suggest(requested: string, canSuggest: (page: P) => boolean = () => true, limit = 5): P[] {
    const norm = normalizePagePath(requested);
    if (norm === '' || limit <= 0) return [];
    const cut = norm.lastIndexOf('/');
    const dir = cut === -1 ? '' : norm.slice(0, cut);
    const last = cut === -1 ? norm : norm.slice(cut + 1);
    const lastMax = allowance(last.length);
    const scored: { p: Prepared<P>; score: number; whole: number }[] = [];
    for (const p of this.pages) {
      let score: number;
      if (p.norm === norm) score = 0;
      else if (p.norm.length > norm.length && p.norm.charCodeAt(norm.length) === 47 /* / */ && p.norm.startsWith(norm)) score = 1;
      else {
        const seg = p.last === '' ? lastMax + 1 : boundedEditDistance(last, p.last, lastMax);
        score = seg <= lastMax ? seg + (p.dir === dir ? 0 : 1) : Infinity;
        if (score > 1) {
          // a small typo anywhere in the path (folder and name both changed a little)
          const bound = Math.min(WHOLE_MAX, score - 1);
          const whole = boundedEditDistance(norm, p.norm, bound);
          if (whole <= bound) score = whole;
        }
        if (score === Infinity) continue;
      }
      if (!canSuggest(p.page)) continue;
      scored.push({ p, score, whole: 0 });
    }
    if (scored.length === 0) return [];
    // ties at the cut are decided by the whole path's distance: computed only for those in reach
    scored.sort((x, y) => x.score - y.score || x.p.order - y.p.order);
    const worst = scored[Math.min(limit, scored.length) - 1]!.score;
    const reach = scored.filter((s) => s.score <= worst);
    for (const s of reach) s.whole = boundedEditDistance(norm, s.p.norm, 64);
    reach.sort((x, y) => x.score - y.score || x.whole - y.whole || x.p.order - y.p.order);
    return reach.slice(0, limit).map((s) => s.p.page);
  }
}
