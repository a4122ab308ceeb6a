/**
 * The search index cache (search/index-cache.ts): lazy loads shared by concurrent first queries,
 * bounded by entries and estimated bytes, deployments without an index remembered, failed loads
 * tried again; reindex generations (search/generations.ts) read their own files under another key.
 */
import { describe, expect, it } from 'vitest';
import type { SearchIndex } from '@quire/shared/search/types';
import { SearchIndexCache } from '../../src/search/index-cache';
import { generationFiles } from '../../src/search/generations';
import type { DeploymentFiles } from '../../src/storage/deployment-store';

/** A deployment held in memory. */
function memoryFiles(key: string, files: Record<string, string>): DeploymentFiles {
  return {
    key,
    list: async () => new Set(Object.keys(files)),
    read: async (file) => {
      const text = files[file];
      if (text === undefined) throw new Error(`no ${file}`);
      return { body: Buffer.from(text), modified: new Date(0) };
    },
  };
}

/** A loader reading `_quire/search/index.txt` as the one title it finds; counts its loads. */
function countingLoader() {
  const loads: string[] = [];
  const load = async (files: DeploymentFiles): Promise<SearchIndex | null> => {
    loads.push(files.key);
    if (!(await files.list()).has('_quire/search/index.txt')) return null;
    const title = (await files.read('_quire/search/index.txt')).body.toString();
    return { size: 1, search: () => [{ path: 'p', title, snippet: title, score: 1 }] };
  };
  return { loads, load };
}

describe('search index cache', () => {
  it('loads an index once for concurrent first queries and answers later ones from memory', async () => {
    const { loads, load } = countingLoader();
    const cache = new SearchIndexCache(load);
    const files = memoryFiles('dep-a', { '_quire/search/index.txt': 'Alpha' });
    const [a, b] = await Promise.all([cache.get(files), cache.get(files)]);
    expect(a).toBe(b);
    expect(a?.search({ q: 'x', limit: 1 })[0]?.title).toBe('Alpha');
    expect(cache.get(files)).toBe(a); // synchronous from memory
    expect(loads).toEqual(['dep-a']);
  });

  it('remembers a deployment without an index, and tries a failed load again', async () => {
    const { loads, load } = countingLoader();
    const cache = new SearchIndexCache(load);
    const none = memoryFiles('dep-none', { 'index.html': '' });
    expect(await cache.get(none)).toBeNull();
    expect(await cache.get(none)).toBeNull();
    expect(loads).toEqual(['dep-none']);

    let fail = true;
    const flaky: DeploymentFiles = { key: 'dep-flaky', list: async () => { if (fail) throw new Error('store down'); return new Set(); }, read: async () => { throw new Error('no'); } };
    await expect(Promise.resolve(cache.get(flaky))).rejects.toThrow('store down');
    fail = false;
    expect(await cache.get(flaky)).toBeNull();
  });

  it('holds at most maxEntries indexes, dropping the least recently searched', async () => {
    const { loads, load } = countingLoader();
    const cache = new SearchIndexCache(load, { maxEntries: 2 });
    const deps = ['d1', 'd2', 'd3'].map((k) => memoryFiles(k, { '_quire/search/index.txt': k }));
    for (const d of deps) await cache.get(d);
    expect(cache.stats().entries).toBe(2);
    await cache.get(deps[0]!); // evicted: loaded again
    expect(loads).toEqual(['d1', 'd2', 'd3', 'd1']);
  });

  it('bounds the estimated bytes of what it holds', async () => {
    const { load } = countingLoader();
    const cache = new SearchIndexCache(load, { maxBytes: 100_000 });
    for (let i = 0; i < 10; i++) await cache.get(memoryFiles(`big-${i}`, { '_quire/search/index.txt': 'x'.repeat(20_000) }));
    expect(cache.stats().bytes).toBeLessThanOrEqual(100_000);
    expect(cache.stats().entries).toBeLessThan(10);
  });

  it('reads a reindex generation from its own folder under its own key, the build index staying as it was', async () => {
    const { load } = countingLoader();
    const cache = new SearchIndexCache(load);
    const files = memoryFiles('dep-g', { '_quire/search/index.txt': 'Old', '_quire/search/reindex/idx_1/index.txt': 'New', 'index.html': '' });
    const generation = generationFiles(files, 'idx_1');
    expect((await cache.get(generation))?.search({ q: 'x', limit: 1 })[0]?.title).toBe('New');
    expect((await cache.get(files))?.search({ q: 'x', limit: 1 })[0]?.title).toBe('Old');
    expect([...(await generation.list())].sort()).toEqual(['_quire/search/index.txt', 'index.html']);
    expect(await cache.get(generationFiles(files, 'idx_2'))).toBeNull(); // a generation that wrote nothing here
  });
});
