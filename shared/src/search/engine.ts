/**
 * A loaded search index answering queries (the {@link SearchIndex} of index.ts). Three flexsearch
 * indexes hold the terms: page titles (by page), section headings and section text (by record);
 * each ranks a term's records by where the term comes in the field. A query's terms are expanded
 * (query.ts), every record an expansion reaches gets
 *   weight(field) × weight(expansion) × idf(expansion) × position factor
 * (a term counts once per record: its best expansion), summed over the query's terms and scaled by
 * the share of the query the record holds, squared, so records holding the whole query come first.
 * That share weighs each term by its best expansion's weight × idf, times the weight of the expansion
 * the record holds it by over the best one's: a rare word counts more than a common one, and a word
 * held only in a derived form or a typo's reading less than as written.
 * Field weights rank title over heading over body: a title match counts fully on the page's
 * introduction and less on its other sections.
 */
import type { Index } from 'flexsearch';
import type { StoredPage, StoredSection } from './records-file';
import { makeSnippet } from './snippet';
import { planQuery, typoMatches } from './query';
import { topRecords } from './select';
import type { SearchHit, SearchIndex, SearchQuery } from './types';
import type { Vocabulary } from './vocabulary';

const W_TITLE_HEAD = 6;
const W_TITLE_OTHER = 1.5;
const W_SECTION = 3.5;
const W_BODY = 1;
/** Sections of one page among the hits, at most (one page does not fill all slots). */
const MAX_SECTIONS_PER_PAGE = 3;
/** A page's further sections are listed only when they score at least this share of its best. */
const FOLLOWER_SHARE = 0.5;
/** Candidates ranked per round before filters and grouping (more rounds when filters leave too few). */
const FIRST_ROUND = 256;

/** The three term indexes of a deployment. */
export interface FieldIndexes {
  /** page titles, by page number */
  title: Index;
  /** section headings, by record number */
  section: Index;
  /** section text, by record number */
  body: Index;
}

/** What {@link SearchEngine} is made of (index.ts loads it). */
export interface EngineParts {
  pages: StoredPage[];
  fields: FieldIndexes;
  vocabulary: Vocabulary;
  /** bytes of the files it was loaded from */
  bytes: number;
  /** page numbers that are no longer current (a delta replaced or removed them: index.ts): never answered, not counted */
  removed?: ReadonlySet<number>;
}

/** Scratch space for one query, reused (queries run one at a time on a thread). */
interface Scratch {
  score: Float64Array;
  best: Float64Array;
  exp: Float64Array;
  mask: Int32Array;
  touched: Int32Array;
  termTouched: Int32Array;
  expTouched: Int32Array;
  /** the query's terms a record holds, each as its weight × the weight of the expansion held over the term's best (the share of the query it holds) */
  held: Float64Array;
  /** the weight of the current term's best expansion each record holds */
  termHeld: Float64Array;
  /** scores copied for selecting the best (a fresh array per query would be garbage of up to n × 8 bytes) */
  values: Float64Array;
}

/** A loaded index (see the module comment). */
export class SearchEngine implements SearchIndex {
  /** records of the current pages (removed pages' left out) */
  readonly size: number;
  readonly bytes: number;
  private readonly pages: StoredPage[];
  private readonly fields: FieldIndexes;
  private readonly vocabulary: Vocabulary;
  /** record → page, record → section */
  private readonly recPage: Int32Array;
  private readonly recSection: StoredSection[];
  /** page → first record; page → the record a title match lands on */
  private readonly pageStart: Int32Array;
  private readonly pageHead: Int32Array;
  /** pages never answered ({@link EngineParts.removed}) */
  private readonly removed: ReadonlySet<number>;
  /** records held, removed pages' included (the scratch arrays' length) */
  private readonly total: number;
  private scratch?: Scratch;

  constructor(parts: EngineParts) {
    this.pages = parts.pages;
    this.fields = parts.fields;
    this.vocabulary = parts.vocabulary;
    this.bytes = parts.bytes;
    this.removed = parts.removed ?? new Set();
    let n = 0;
    let live = 0;
    parts.pages.forEach((p, pi) => {
      n += p.sections.length;
      if (!this.removed.has(pi)) live += p.sections.length;
    });
    this.size = live;
    this.total = n;
    this.recPage = new Int32Array(n);
    this.recSection = new Array<StoredSection>(n);
    this.pageStart = new Int32Array(parts.pages.length + 1);
    this.pageHead = new Int32Array(parts.pages.length);
    let r = 0;
    parts.pages.forEach((p, pi) => {
      this.pageStart[pi] = r;
      const intro = p.sections.findIndex((s) => s.section === undefined);
      this.pageHead[pi] = r + Math.max(0, intro);
      for (const s of p.sections) {
        this.recPage[r] = pi;
        this.recSection[r++] = s;
      }
    });
    this.pageStart[parts.pages.length] = r;
  }

  documentFrequency(term: string): number {
    return Math.max(0, this.vocabulary.frequency(term));
  }

  similarTerms(term: string, k: number): { term: string; df: number }[] {
    return typoMatches(term, this.vocabulary, k).near;
  }

  search(query: SearchQuery): SearchHit[] {
    const limit = Math.max(1, Math.min(50, Math.floor(query.limit) || 10));
    const plan = planQuery(query.q, this.vocabulary).filter((t) => t.expansions.size > 0);
    if (plan.length === 0 || this.size === 0) return [];
    const s = (this.scratch ??= newScratch(this.total));
    let touchedCount = 0;
    const n = this.size;
    /** each term's weight: its best expansion's weight × idf */
    const termWeight = plan.map(() => 0);
    plan.forEach((term, i) => {
      let termCount = 0;
      let maxWeight = 0;
      for (const [exp, weight] of term.expansions) {
        const w = weight * Math.log(1 + n / Math.max(1, this.vocabulary.frequency(exp)));
        if (w > termWeight[i]!) termWeight[i] = w;
        if (weight > maxWeight) maxWeight = weight;
        let expCount = this.addTitle(s, exp, w, 0);
        expCount = addRecords(s, this.fields.section.search(exp, { resolve: false }).result, w * W_SECTION, 0.05, expCount);
        expCount = addRecords(s, this.fields.body.search(exp, { resolve: false }).result, w * W_BODY, 0.03, expCount);
        const { exp: e, best, expTouched, termTouched, termHeld } = s;
        for (let k = 0; k < expCount; k++) {
          const r = expTouched[k]!;
          const v = e[r]!;
          const b = best[r]!;
          if (b === 0) termTouched[termCount++] = r;
          if (v > b) best[r] = v;
          if (weight > termHeld[r]!) termHeld[r] = weight;
          e[r] = 0;
        }
      }
      const bit = 1 << i;
      const { score, best, mask, termTouched, touched, held, termHeld } = s;
      const perWeight = termWeight[i]! / maxWeight;
      for (let k = 0; k < termCount; k++) {
        const r = termTouched[k]!;
        if (mask[r] === 0) touched[touchedCount++] = r;
        score[r] = score[r]! + best[r]!;
        mask[r] = mask[r]! | bit;
        held[r] = held[r]! + perWeight * termHeld[r]!;
        best[r] = 0;
        termHeld[r] = 0;
      }
    });
    const total = termWeight.reduce((a, b) => a + b, 0);
    for (let k = 0; k < touchedCount; k++) {
      const r = s.touched[k]!;
      const share = s.held[r]! / total;
      s.score[r] = s.score[r]! * share * share;
    }
    try {
      return this.collect(s, touchedCount, limit, query, plan);
    } finally {
      for (let k = 0; k < touchedCount; k++) {
        const r = s.touched[k]!;
        s.score[r] = 0;
        s.mask[r] = 0;
        s.held[r] = 0;
      }
    }
  }

  /** Adds a title match of `term` (weight `w`) to every record of the pages it is in; returns the new `expCount`. */
  private addTitle(s: Scratch, term: string, w: number, expCount: number): number {
    const slots = this.fields.title.search(term, { resolve: false }).result;
    const { exp, expTouched } = s;
    for (let slot = 0; slot < slots.length; slot++) {
      const ids = slots[slot] as number[] | undefined;
      if (!ids) continue;
      const f = w * (1 - 0.05 * slot);
      for (let j = 0; j < ids.length; j++) {
        const p = ids[j]!;
        const head = this.pageHead[p]!;
        for (let r = this.pageStart[p]!, end = this.pageStart[p + 1]!; r < end; r++) {
          if (exp[r] === 0) expTouched[expCount++] = r;
          exp[r] = exp[r]! + f * (r === head ? W_TITLE_HEAD : W_TITLE_OTHER);
        }
      }
    }
    return expCount;
  }

  /** The best records, filtered (gate, language), grouped by page, with snippets. */
  private collect(s: Scratch, count: number, limit: number, query: SearchQuery, plan: ReturnType<typeof planQuery>): SearchHit[] {
    const readable = new Map<number, boolean>();
    const mayRead = (p: number) => {
      let ok = readable.get(p);
      if (ok === undefined) {
        const page = this.pages[p]!;
        const gate = !page.audience?.length || (query.canRead?.(page.audience) ?? false);
        ok = !this.removed.has(p) && (query.language === undefined || page.language === query.language) && gate;
        readable.set(p, ok);
      }
      return ok;
    };
    let round = FIRST_ROUND;
    let groups: Array<{ best: number; records: number[] }> = [];
    for (;;) {
      const ranked = topRecords(s.score, s.touched, count, round, s.values);
      groups = [];
      const byPage = new Map<number, (typeof groups)[number]>();
      let hits = 0;
      for (const r of ranked) {
        if (hits >= limit) break;
        const p = this.recPage[r]!;
        if (!mayRead(p)) continue;
        const g = byPage.get(p);
        if (!g) {
          const fresh = { best: s.score[r]!, records: [r] };
          byPage.set(p, fresh);
          groups.push(fresh);
          hits++;
        } else if (g.records.length < MAX_SECTIONS_PER_PAGE && s.score[r]! >= FOLLOWER_SHARE * g.best) {
          g.records.push(r);
          hits++;
        }
      }
      if (hits >= limit || ranked.length >= count) break;
      round *= 4;
    }
    const matched = new Set<string>();
    for (const t of plan) for (const e of t.expansions.keys()) matched.add(e);
    const isMatch = (term: string) => matched.has(term);
    const out: SearchHit[] = [];
    for (const g of groups) {
      for (const r of g.records) {
        if (out.length >= limit) break;
        const page = this.pages[this.recPage[r]!]!;
        const sec = this.recSection[r]!;
        out.push({
          path: page.path,
          title: page.title,
          ...(sec.section !== undefined ? { section: sec.section } : {}),
          ...(sec.anchor !== undefined ? { anchor: sec.anchor } : {}),
          snippet: makeSnippet(sec.text, isMatch),
          score: Math.round(s.score[r]! * 1000) / 1000,
          ...(query.withText ? { text: sec.text } : {}),
        });
      }
    }
    return out;
  }
}

function newScratch(n: number): Scratch {
  return {
    score: new Float64Array(n),
    best: new Float64Array(n),
    exp: new Float64Array(n),
    mask: new Int32Array(n),
    touched: new Int32Array(n),
    termTouched: new Int32Array(n),
    expTouched: new Int32Array(n),
    held: new Float64Array(n),
    termHeld: new Float64Array(n),
    values: new Float64Array(n),
  };
}

/**
 * Adds `w` (less `step` per position slot: slot 0 holds the records where the term comes first) to
 * the records of a term's slots; returns the new `expCount`.
 */
function addRecords(s: Scratch, slots: readonly (readonly unknown[] | undefined)[], w: number, step: number, expCount: number): number {
  const { exp, expTouched } = s;
  for (let slot = 0; slot < slots.length; slot++) {
    const ids = slots[slot] as number[] | undefined;
    if (!ids) continue;
    const c = w * (1 - step * slot);
    for (let j = 0; j < ids.length; j++) {
      const r = ids[j]!;
      if (exp[r] === 0) expTouched[expCount++] = r;
      exp[r] = exp[r]! + c;
    }
  }
  return expCount;
}
