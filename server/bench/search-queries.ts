/**
 * The fixed query list of bench:search: derived deterministically (seeded) from a corpus's
 * records, in equal shares: page titles, section headings, one or two body words, typos of title
 * or heading words, prefixes of them (a word being typed), and two-word mixes of title and body.
 */
import type { SearchRecord } from '@quire/shared/search/types';
import { seededRandom, typoOf } from './search-corpus';

const words = (s: string) => s.split(/[^\p{L}\p{N}]+/u).filter((w) => w.length >= 3);

/** `count` queries for `records` (the same records always give the same list). */
export function latencyQueries(records: readonly SearchRecord[], count: number, seed = 20261124): string[] {
  const rnd = seededRandom(seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)]!;
  const titled = records.filter((r) => words(r.title).length > 0);
  const sections = records.filter((r) => r.section && words(r.section).length > 0);
  const bodies = records.filter((r) => words(r.text).length > 5);
  const out: string[] = [];
  const makers: Array<() => string | undefined> = [
    () => pick(titled).title,
    () => (sections.length ? pick(sections).section : undefined),
    () => {
      const w = words(pick(bodies).text);
      return rnd() < 0.5 ? pick(w) : `${pick(w)} ${pick(w)}`;
    },
    () => {
      const w = words(pick(rnd() < 0.5 || !sections.length ? titled : sections).section ?? pick(titled).title).filter((x) => x.length >= 5);
      return w.length ? typoOf(pick(w).toLowerCase(), rnd) : undefined;
    },
    () => {
      const w = pick(words(pick(titled).title));
      return w.slice(0, Math.max(3, Math.ceil(w.length * (0.4 + rnd() * 0.4)))).toLowerCase();
    },
    () => `${pick(words(pick(titled).title))} ${pick(words(pick(bodies).text))}`.toLowerCase(),
  ];
  while (out.length < count) {
    const q = makers[out.length % makers.length]!();
    if (q && q.trim()) out.push(q.slice(0, 200));
    else out.push(pick(titled).title);
  }
  return out;
}

/** The value at quantile `p` (0..1) of sorted numbers. */
export function quantile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!;
}
