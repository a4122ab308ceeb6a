/**
 * How a page's records go into an index (index.ts): each field's terms (tokens.ts, stop words left
 * out, each term once per field and record) and the vocabulary's record counts (a term counts once
 * per record, whichever fields hold it; a title's terms count on the page's introduction record).
 * The same walk builds an index and lays a delta over a loaded one (delta.ts), so both count alike.
 */
import type { StoredPage } from './records-file';
import { indexTerms, STOP_WORDS } from './tokens';
import { Vocabulary } from './vocabulary';

/** The fields of an index: page titles (by page number), section headings and section text (by record number). */
export type Field = 'title' | 'section' | 'body';

/** Record counts by term, kept while pages are indexed or taken out (see the module comment). */
export class TermCounts {
  private readonly ids = new Map<string, number>();
  private readonly df: number[] = [];
  /** the record a term was last counted for */
  private readonly last: number[] = [];
  /** the field (by stamp) a term was last listed for */
  private readonly seen: number[] = [];
  private stamp = 0;

  /** @param from the vocabulary of a loaded index, whose counts this goes on from (default: none) */
  constructor(from?: Vocabulary) {
    for (const w of STOP_WORDS) this.push(w, -1);
    if (from) for (let i = 0; i < from.terms.length; i++) this.push(from.terms[i]!, from.df[i]!);
  }

  private push(term: string, df: number): number {
    const id = this.df.length;
    this.ids.set(term, id);
    this.df.push(df);
    this.last.push(-1);
    this.seen.push(0);
    return id;
  }

  /**
   * The distinct terms of one field of record `record`, first occurrence kept, stop words left out;
   * each term's count moves by `sign` (1: indexed, -1: taken out) once per record.
   */
  distinct(terms: readonly string[], record: number, sign: 1 | -1 = 1): string[] {
    const out: string[] = [];
    const stamp = ++this.stamp;
    for (const t of terms) {
      const id = this.ids.get(t) ?? this.push(t, 0);
      if (this.seen[id] === stamp || this.df[id] === -1) continue;
      this.seen[id] = stamp;
      out.push(t);
      if (this.last[id] !== record) {
        this.last[id] = record;
        this.df[id]! += sign;
      }
    }
    return out;
  }

  /** The terms held by at least one record, sorted, with their counts. */
  vocabulary(): Vocabulary {
    const terms = [...this.ids.keys()].filter((t) => this.df[this.ids.get(t)!]! > 0).sort();
    return new Vocabulary(terms, terms.map((t) => this.df[this.ids.get(t)!]!));
  }
}

/**
 * Walks page `page` (page number `p`, first record `r`): counts its terms in `counts` and hands
 * each field's terms to `add` (absent: counted only, as when a page is taken out with `sign` -1).
 * @returns the record number after the page's last
 */
export function indexPage(
  page: StoredPage,
  p: number,
  r: number,
  counts: TermCounts,
  add?: (field: Field, id: number, terms: string[]) => void,
  sign: 1 | -1 = 1,
): number {
  const head = Math.max(0, page.sections.findIndex((s) => s.section === undefined));
  let terms = counts.distinct(indexTerms(page.title, true), r + head, sign);
  if (terms.length) add?.('title', p, terms);
  for (const s of page.sections) {
    terms = s.section ? counts.distinct(indexTerms(s.section, true), r, sign) : [];
    if (terms.length) add?.('section', r, terms);
    terms = counts.distinct(indexTerms(s.text, true), r, sign);
    if (terms.length) add?.('body', r, terms);
    r++;
  }
  return r;
}
