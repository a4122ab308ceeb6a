/** The answer cache of search (search/result-cache.ts): an answer is reused only for the same index, text, limit and reader reach. */
import { describe, expect, it } from 'vitest';
import type { SearchHit, SearchIndex } from '@quire/shared/search/types';
import { SearchResultCache } from '../../src/search/result-cache';

const index = (): SearchIndex => ({ size: 1, search: () => [] });
const hit = (path: string): SearchHit => ({ path, title: path, snippet: path, score: 1 });

describe('search answer cache', () => {
  it('answers a repeated query from memory, and asks again for another reach, limit, text or index', () => {
    const cache = new SearchResultCache();
    const a = index();
    let runs = 0;
    const run = (path: string) => () => {
      runs++;
      return [hit(path)];
    };
    expect(cache.search(a, 'install', 10, '', run('public'))).toEqual([hit('public')]);
    expect(cache.search(a, 'install', 10, '', run('other'))).toEqual([hit('public')]);
    expect(runs).toBe(1);
    expect(cache.search(a, 'install', 10, 'partners', run('gated'))).toEqual([hit('gated')]);
    expect(cache.search(a, 'install', 5, '', run('five'))).toEqual([hit('five')]);
    expect(cache.search(a, 'instal', 10, '', run('prefix'))).toEqual([hit('prefix')]);
    expect(cache.search(index(), 'install', 10, '', run('new index'))).toEqual([hit('new index')]);
    expect(runs).toBe(5);
  });

  it('keeps every recent query of a busy index within its byte bound, dropping the least recently asked first', () => {
    const cache = new SearchResultCache(1024 * 1024);
    const a = index();
    let runs = 0;
    const run = () => {
      runs++;
      return [hit('page')];
    };
    // 2,000 distinct queries cycled twice: the second pass is answered from memory
    for (let pass = 0; pass < 2; pass++) for (let i = 0; i < 2000; i++) cache.search(a, `query ${i}`, 10, '', run);
    expect(runs).toBe(2000);
    expect(cache.stats().bytes).toBeLessThanOrEqual(1024 * 1024);
    // a small bound keeps only the most recent answers
    const small = new SearchResultCache(10_000);
    for (let i = 0; i < 2000; i++) small.search(a, `query ${i}`, 10, '', run);
    expect(small.stats().bytes).toBeLessThanOrEqual(10_000);
    const before = runs;
    small.search(a, 'query 1999', 10, '', run);
    expect(runs).toBe(before);
    small.search(a, 'query 0', 10, '', run);
    expect(runs).toBe(before + 1);
  });
});
