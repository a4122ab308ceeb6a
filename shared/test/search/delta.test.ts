/**
 * A search index delta (shared/src/search/delta.ts) laid over a saved index when it is loaded
 * (index.ts `loadSearchIndex` with `delta`): a reader gets the same answers as from an index built
 * from the current pages, the replaced and removed pages' old words find nothing, and a delta of
 * another index is refused.
 */
import { describe, expect, it } from 'vitest';
import { serializeDelta, DELTA_FILE, type SearchDelta } from '../../src/search/delta';
import { buildSearchIndex, loadSearchIndex } from '../../src/search/index';
import { groupRecords, parseRecordsFile, SEARCH_INDEX_FORMAT } from '../../src/search/records-file';
import { pageSearchRecords } from '../../src/search/records';
import type { SearchIndex, SearchRecord } from '../../src/search/types';

const page = (path: string, title: string, markdown: string): SearchRecord[] => {
  const toc = [...markdown.matchAll(/^(##|###) (.*)$/gm)].map((m) => ({ depth: m[1]!.length as 2 | 3, id: m[2]!.toLowerCase().replace(/\W+/g, '-'), text: m[2]! }));
  return pageSearchRecords({ path, title, markdown: `# ${title}\n\n${markdown}`, toc });
};

const install = page('install', 'Installation', 'Get the command line tool.\n\n## Requirements\n\nNode 20 or later with obsidianite.');
const webhooks = page('guides/webhooks', 'Webhooks', 'Receive events.\n\n## Retries\n\nFailed deliveries are retried with backoff.');
const tokens = page('guides/tokens', 'Access tokens', 'Create tokens for the API. Tokens expire.');
const errors = page('reference/errors', 'Errors', 'Error codes of the API and the retries they allow.');
const installNew = page('install', 'Installation', 'Get the command line tool.\n\n## Requirements\n\nNode 22 with zanzibarite crystals.\n\n## Upgrading\n\nRun the upgrade.');
const added = page('guides/limits', 'Rate limits', 'Requests per minute; retries after a pause.');

/** An index loaded from stored files, with `delta` laid over it when given. */
async function load(files: Record<string, string>, delta?: string): Promise<SearchIndex> {
  const stored = new Map(Object.entries(files).map(([name, text]) => [name, Buffer.from(text, 'utf8')]));
  if (delta !== undefined) stored.set(DELTA_FILE, Buffer.from(delta, 'utf8'));
  return loadSearchIndex(
    async (name) => {
      const body = stored.get(name);
      if (!body) throw new Error(`no file ${name}`);
      return body;
    },
    { delta: delta !== undefined },
  );
}

const base = buildSearchIndex([...install, ...webhooks, ...tokens, ...errors]);
const baseId = parseRecordsFile(base.files['records.json']!).indexId;
const delta: SearchDelta = {
  format: SEARCH_INDEX_FORMAT,
  baseIndexId: baseId,
  removed: ['install', 'guides/tokens'],
  pages: groupRecords([...installNew, ...added]),
};
const layered = await load(base.files, serializeDelta(delta));
// what a build indexing every current page gives
const whole = await load(buildSearchIndex([...installNew, ...webhooks, ...errors, ...added]).files);

const answer = (index: SearchIndex, q: string) => index.search({ q, limit: 10 }).map((h) => `${h.path}#${h.anchor ?? ''} ${h.score}`).sort();

describe('a search index delta', () => {
  it('finds the changed page by its new words and no page by the words it lost, nor a removed page', () => {
    expect(layered.search({ q: 'zanzibarite', limit: 10 }).map((h) => h.path)).toEqual(['install']);
    expect(layered.search({ q: 'obsidianite', limit: 10 })).toEqual([]);
    expect(layered.search({ q: 'tokens expire', limit: 10 }).map((h) => h.path)).not.toContain('guides/tokens');
    expect(layered.search({ q: 'rate limits', limit: 10 }).map((h) => h.path)[0]).toBe('guides/limits');
  });

  it('answers as an index built from the current pages does, scores included', () => {
    for (const q of ['retries', 'installation', 'api', 'upgrade', 'node', 'zanzib', 'requests minute', 'backof']) {
      expect(answer(layered, q), q).toEqual(answer(whole, q));
    }
    expect(layered.size).toBe(whole.size);
    expect(layered.documentFrequency?.('retries')).toBe(whole.documentFrequency?.('retries'));
    expect(layered.documentFrequency?.('obsidianite')).toBe(0);
  });

  it('refuses a delta made for another index', async () => {
    const other = serializeDelta({ ...delta, baseIndexId: '0000000000000000' });
    await expect(load(base.files, other)).rejects.toThrow(/delta is of another index/);
  });
});
