/**
 * Every term of an index with its document frequency: what a query term may be expanded to.
 * Prefixes ("instal" → "install", "installation") come from a binary search in the sorted terms;
 * typos ("instlal" → "install") from the terms of the same length ±1 within one edit
 * (insertion, deletion, substitution or two neighbouring letters swapped: Damerau's restricted
 * distance 1), or ±2 within two such edits for long words ({@link Vocabulary.neighbours}).
 */

/** A term an expansion found, with how many records hold it. */
export interface TermMatch {
  term: string;
  df: number;
}

/** The sorted terms of an index and their record counts. */
export class Vocabulary {
  private readonly index = new Map<string, number>();
  /** term indexes by term length (typo candidates), built on first use */
  private byLength?: Map<number, number[]>;

  /**
   * @param terms distinct terms sorted by UTF-16 code units (`Array.prototype.sort` order)
   * @param df records holding each term, same order
   */
  constructor(
    readonly terms: readonly string[],
    readonly df: ArrayLike<number>,
  ) {
    for (let i = 0; i < terms.length; i++) this.index.set(terms[i]!, i);
  }

  /** Records holding `term` (0 when it is not a term of the index). */
  frequency(term: string): number {
    const i = this.index.get(term);
    return i === undefined ? 0 : this.df[i]!;
  }

  /**
   * Terms longer than `prefix` that start with it, the `k` most frequent (at most `scan` terms are
   * looked at, in order: a one-letter prefix does not walk the whole vocabulary).
   */
  completions(prefix: string, k: number, scan = 400): TermMatch[] {
    let lo = 0;
    let hi = this.terms.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.terms[mid]! < prefix) lo = mid + 1;
      else hi = mid;
    }
    const found: TermMatch[] = [];
    for (let i = lo; i < this.terms.length && i < lo + scan; i++) {
      const t = this.terms[i]!;
      if (!t.startsWith(prefix)) break;
      if (t.length > prefix.length) found.push({ term: t, df: this.df[i]! });
    }
    return top(found, k);
  }

  /**
   * Terms within `edits` (1 or 2) edits of `term` (itself excluded; see the module comment), the `k` most frequent. At two
   * edits a term of the same length ±2 counts when it is within two edits (optimal string alignment distance).
   */
  neighbours(term: string, k: number, edits: 1 | 2 = 1): TermMatch[] {
    const byLength = (this.byLength ??= this.lengthBuckets());
    const found: TermMatch[] = [];
    for (let len = term.length - edits; len <= term.length + edits; len++) {
      for (const i of byLength.get(len) ?? []) {
        const t = this.terms[i]!;
        if (t !== term && (edits === 1 ? withinOneEdit(term, t) : withinTwoEdits(term, t))) found.push({ term: t, df: this.df[i]! });
      }
    }
    return top(found, k);
  }


  private lengthBuckets(): Map<number, number[]> {
    const m = new Map<number, number[]>();
    for (let i = 0; i < this.terms.length; i++) {
      const len = this.terms[i]!.length;
      let list = m.get(len);
      if (!list) m.set(len, (list = []));
      list.push(i);
    }
    return m;
  }
}

/** The `k` most frequent matches (ties: the order found, i.e. alphabetical). */
function top(found: TermMatch[], k: number): TermMatch[] {
  if (found.length <= k) return found.sort((a, b) => b.df - a.df);
  return found.sort((a, b) => b.df - a.df).slice(0, k);
}

/** Whether `a` and `b` are at most one insertion, deletion, substitution or adjacent swap apart. */
export function withinOneEdit(a: string, b: string): boolean {
  const la = a.length;
  const lb = b.length;
  if (la - lb > 1 || lb - la > 1) return false;
  let i = 0;
  while (i < la && i < lb && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  if (i === la && i === lb) return true;
  if (la === lb) {
    // a substitution at i, or i and i+1 swapped
    if (sameFrom(a, i + 1, b, i + 1)) return true;
    return i + 1 < la && a.charCodeAt(i) === b.charCodeAt(i + 1) && a.charCodeAt(i + 1) === b.charCodeAt(i) && sameFrom(a, i + 2, b, i + 2);
  }
  // one letter inserted or deleted at i
  return la > lb ? sameFrom(a, i + 1, b, i) : sameFrom(a, i, b, i + 1);
}

/**
 * Whether `a` and `b` are at most two insertions, deletions, substitutions or adjacent swaps apart (optimal string
 * alignment distance <= 2; a band of the dynamic programme around the diagonal, stopping once every cell of a row is over 2).
 */
export function withinTwoEdits(a: string, b: string): boolean {
  const la = a.length;
  const lb = b.length;
  if (la - lb > 2 || lb - la > 2) return false;
  // rows i-2, i-1, i of the distance table; cells outside the band count as 3 (over the limit)
  let prev2 = new Array<number>(lb + 1).fill(3);
  let prev = Array.from({ length: lb + 1 }, (_, j) => (j <= 2 ? j : 3));
  for (let i = 1; i <= la; i++) {
    const row = new Array<number>(lb + 1).fill(3);
    if (i <= 2) row[0] = i;
    let best = row[0]!;
    for (let j = Math.max(1, i - 2); j <= Math.min(lb, i + 2); j++) {
      const cost = a.charCodeAt(i - 1) === b.charCodeAt(j - 1) ? 0 : 1;
      let d = Math.min(prev[j]! + 1, row[j - 1]! + 1, prev[j - 1]! + cost);
      if (i > 1 && j > 1 && a.charCodeAt(i - 1) === b.charCodeAt(j - 2) && a.charCodeAt(i - 2) === b.charCodeAt(j - 1)) d = Math.min(d, prev2[j - 2]! + 1);
      row[j] = Math.min(d, 3);
      if (row[j]! < best) best = row[j]!;
    }
    if (best > 2) return false;
    prev2 = prev;
    prev = row;
  }
  return prev[lb]! <= 2;
}

/** Whether `a` from `ia` and `b` from `ib` are the same text (no allocation: this runs for thousands of terms per query). */
function sameFrom(a: string, ia: number, b: string, ib: number): boolean {
  if (a.length - ia !== b.length - ib) return false;
  for (; ia < a.length; ia++, ib++) if (a.charCodeAt(ia) !== b.charCodeAt(ib)) return false;
  return true;
}
