import type { Redirect } from '../types';

/** Where a matched redirect sends the visitor. */
export interface RedirectTarget {
  /** destination with parameters and wildcards substituted; anchors (`#x`) kept */
  location: string;
  /** 308 when `permanent` (the default), 307 otherwise */
  status: 307 | 308;
}

/**
 * Whether a redirect's location is a path of the same site (`/guides/setup`), not another site
 * (`https://…`, or `//host/…` and `/\host` which browsers read as another host). Site hosting puts a
 * version's base path before such locations; the MCP server follows them to a page.
 */
export function isSitePathLocation(location: string): boolean {
  return /^\/(?![/\\])/.test(location);
}

/** One source segment that matches exactly one path segment. */
type Atom =
  | { kind: 'literal'; text: string }
  /** `:name`: any non-empty segment */
  | { kind: 'param'; name: string }
  /** `article-*`: the literal pieces around each `*` (at least two pieces) */
  | { kind: 'glob'; pieces: string[] };

/** A parsed source: the atoms before the rest wildcard `:name*`, and the rest wildcard with the atoms after it. */
interface Compiled {
  head: Atom[];
  rest?: { name: string; tail: Atom[] };
  /** false for a source with more than one `:name*` segment, which never matches */
  usable: boolean;
}

/** What a match captured, in source order. */
interface Captures {
  named: Map<string, string>;
  /** one value per in-segment `*` */
  stars: string[];
}

const NAME = /^[A-Za-z0-9_]+$/;

/**
 * Why a redirect source cannot be matched, or undefined when it can: a source may hold at most one
 * `:name*` segment (matching any run of whole segments), so that matching stays linear.
 * The build skips such a redirect with a warning; the matcher never matches it.
 * @param source a redirect source, e.g. `/beta/:slug*`
 */
export function redirectSourceProblem(source: string): string | undefined {
  return compile(source).usable ? undefined : 'may hold at most one :name* segment';
}

/** Splits a source into atoms (MINTLIFY-FORMAT.md section 7). Empty segments are ignored. */
function compile(source: string): Compiled {
  const head: Atom[] = [];
  let rest: Compiled['rest'];
  let usable = true;
  for (const seg of source.split('/')) {
    if (seg === '') continue;
    const name = seg.startsWith(':') ? (seg.endsWith('*') ? seg.slice(1, -1) : seg.slice(1)) : '';
    let atom: Atom;
    if (NAME.test(name) && seg.endsWith('*')) {
      if (rest) usable = false;
      else rest = { name, tail: [] };
      continue;
    } else if (NAME.test(name)) atom = { kind: 'param', name };
    else if (seg.includes('*')) atom = { kind: 'glob', pieces: seg.split('*') };
    else atom = { kind: 'literal', text: seg };
    (rest ? rest.tail : head).push(atom);
  }
  return { head, rest, usable };
}

const compiledCache = new WeakMap<Redirect, Compiled>();

/** The parsed source of `r`, parsed once per redirect object (the manifest's redirects live as long as the deployment). */
function compiled(r: Redirect): Compiled {
  let c = compiledCache.get(r);
  if (!c) {
    c = compile(r.source);
    compiledCache.set(r, c);
  }
  return c;
}

/**
 * Matches one glob segment: the first piece is a prefix, the last a suffix, and each middle piece is
 * found at its leftmost place after the previous one, so each `*` but the last captures as little as
 * it can. `indexOf` is linear, so this is O(segment + pattern).
 */
function matchGlob(pieces: string[], seg: string, stars: string[]): boolean {
  const first = pieces[0]!;
  const last = pieces[pieces.length - 1]!;
  const end = seg.length - last.length;
  if (end < first.length || !seg.startsWith(first) || !seg.endsWith(last)) return false;
  let pos = first.length;
  for (let i = 1; i < pieces.length - 1; i++) {
    const piece = pieces[i]!;
    const at = seg.indexOf(piece, pos);
    if (at < 0 || at + piece.length > end) return false;
    stars.push(seg.slice(pos, at));
    pos = at + piece.length;
  }
  stars.push(seg.slice(pos, end));
  return true;
}

function matchAtom(atom: Atom, seg: string, caps: Captures): boolean {
  if (atom.kind === 'literal') return seg === atom.text;
  if (atom.kind === 'param') {
    if (seg === '') return false;
    caps.named.set(atom.name, seg);
    return true;
  }
  return matchGlob(atom.pieces, seg, caps.stars);
}

/** Matches `atoms` against `segs` from index `from`, one atom per segment. */
function matchRun(atoms: Atom[], segs: string[], from: number, caps: Captures): boolean {
  for (let i = 0; i < atoms.length; i++) if (!matchAtom(atoms[i]!, segs[from + i]!, caps)) return false;
  return true;
}

/** The captures of a source against the path's segments, or undefined when it does not match. */
function matchSegments(c: Compiled, segs: string[]): Captures | undefined {
  if (!c.usable) return undefined;
  const caps: Captures = { named: new Map(), stars: [] };
  const tail = c.rest?.tail ?? [];
  const fixed = c.head.length + tail.length;
  if (c.rest ? segs.length < fixed : segs.length !== fixed) return undefined;
  if (!matchRun(c.head, segs, 0, caps)) return undefined;
  if (!c.rest) return caps;
  const tailFrom = segs.length - tail.length;
  caps.named.set(c.rest.name, segs.slice(c.head.length, tailFrom).join('/'));
  return matchRun(tail, segs, tailFrom, caps) ? caps : undefined;
}

const isNameChar = (code: number) =>
  (code >= 48 && code <= 57) || (code >= 65 && code <= 90) || (code >= 97 && code <= 122) || code === 95;

/**
 * Puts captured values into a destination in one left-to-right pass, so a captured value is never
 * substituted again: `:name` and `:name*` take the named value (`/:name*` with an empty value drops
 * its slash too), a `:word` the source did not capture stays as written, and each `*` takes the
 * next in-segment `*` capture (extra ones become empty; with no such captures `*` stays as written).
 */
function substitute(destination: string, caps: Captures): string {
  let out = '';
  let star = 0;
  let i = 0;
  while (i < destination.length) {
    const ch = destination[i]!;
    if (ch === ':') {
      let j = i + 1;
      while (j < destination.length && isNameChar(destination.charCodeAt(j))) j++;
      const value = caps.named.get(destination.slice(i + 1, j));
      if (j > i + 1 && value !== undefined) {
        const starred = destination[j] === '*';
        if (starred && value === '' && i > 0 && destination[i - 1] === '/') out = out.slice(0, -1);
        out += value;
        i = starred ? j + 1 : j;
      } else {
        out += destination.slice(i, j);
        i = j;
      }
    } else if (ch === '*' && caps.stars.length > 0) {
      out += caps.stars[star++] ?? '';
      i++;
    } else {
      out += ch;
      i++;
    }
  }
  return out === '' ? '/' : out;
}

/**
 * The first redirect (in config order) whose source matches `path`, or undefined
 * (MINTLIFY-FORMAT.md section 7).
 *
 * Sources are matched segment by segment, never through a regular expression:
 * - a plain segment (`old`) matches itself, case-sensitively;
 * - `:name` matches one non-empty segment;
 * - `:name*` matches any run of whole segments, even none (`/beta/:slug*` matches `/beta` and
 *   `/beta/a/b`; `/docs/:path*` followed by `/edit` matches `/docs/edit` and `/docs/a/b/edit`). A source may hold one;
 *   a source with more never matches (see {@link redirectSourceProblem});
 * - `*` inside a segment matches any characters within that segment, never a `/`
 *   (`/old/article-*` matches `/old/article-42`, not `/old/article-4/2`). With several `*` in a
 *   segment each captures as little as it can, left to right, and the last takes what remains
 *   (`/x/*-*` against `/x/a-b-c` captures `a` and `b-c`).
 *
 * A trailing slash on `path` is ignored, and so are its query string and fragment. Captures are put
 * into the destination: `:name`, `:name*`, and each `*` in order.
 *
 * Cost: O(path length + source length) per redirect, whatever the source holds.
 * @param path URL path of the request, e.g. `/beta/guides/setup`
 */
export function matchRedirect(redirects: Redirect[], path: string): RedirectTarget | undefined {
  let p = path;
  const cut = p.search(/[?#]/);
  if (cut >= 0) p = p.slice(0, cut);
  if (p.startsWith('/')) p = p.slice(1);
  if (p.endsWith('/')) p = p.slice(0, -1);
  const segs = p === '' ? [] : p.split('/');
  for (const r of redirects) {
    const caps = matchSegments(compiled(r), segs);
    if (caps) return { location: substitute(r.destination, caps), status: r.permanent === false ? 307 : 308 };
  }
  return undefined;
}
