/**
 * The search index (shared/src/search/index.ts, engine.ts): built, saved as files, loaded from them
 * and queried as a reader would: ranking, prefixes, typos, the gate, languages, snippets.
 */
import { describe, expect, it } from 'vitest';
import { buildSearchIndex, loadSearchIndex, type SerializedSearchIndex } from '../../src/search/index';
import { pageSearchRecords } from '../../src/search/records';
import type { SearchIndex, SearchRecord } from '../../src/search/types';

const page = (path: string, title: string, markdown: string, extra: { audience?: string[]; language?: string } = {}): SearchRecord[] => {
  const toc = [...markdown.matchAll(/^(##|###) (.*)$/gm)].map((m) => ({ depth: m[1]!.length as 2 | 3, id: m[2]!.toLowerCase().replace(/\W+/g, '-'), text: m[2]! }));
  return pageSearchRecords({ path, title, markdown: `# ${title}\n\n${markdown}`, toc, ...extra });
};

const RECORDS: SearchRecord[] = [
  ...page('install', 'Installation', 'Get the command line tool on your machine.\n\n## Requirements\n\nNode 20 or later.\n\n## Upgrading\n\nRun the upgrade command.'),
  ...page('guides/webhooks', 'Webhooks', 'Receive events.\n\n## Authentication\n\nSign every delivery with a shared secret.\n\n## Retries\n\nFailed deliveries are retried with backoff.'),
  ...page('guides/tokens', 'Access tokens', 'Create tokens for the API.\n\n## Installation of the SDK\n\nThe SDK reads the token from the environment.'),
  ...page('reference/errors', 'Errors', 'Error codes. To install the CLI see the installation page. Install problems are listed here too.'),
  ...page('faq', 'FAQ', 'Questions about `<script>alert(1)</script>` injection & escaping in authentication flows.'),
  ...page('partners/deals', 'Partner deals', 'Discounts on the enterprise plan for resellers.', { audience: ['partners'] }),
  ...page('fr/demarrage', 'Démarrage', 'Installer l’outil en ligne de commande.', { language: 'fr' }),
  ...page('long', 'Configuration', ['Intro text.', ...Array.from({ length: 6 }, (_, i) => `## Config option ${i}\n\nThe configuration option ${i} sets the retries of the scheduler.`)].join('\n\n')),
];

async function roundTrip(records: SearchRecord[] = RECORDS): Promise<{ built: SerializedSearchIndex; index: SearchIndex }> {
  const built = buildSearchIndex(records);
  // stored as bytes, read back by name: what a deployment does
  const stored = new Map(Object.entries(built.files).map(([name, text]) => [name, Buffer.from(text, 'utf8')]));
  const index = await loadSearchIndex(async (name) => {
    const body = stored.get(name);
    if (!body) throw new Error(`no file ${name}`);
    return body;
  });
  return { built, index };
}

const { built, index } = await roundTrip();
const paths = (q: string, extra: Partial<Parameters<SearchIndex['search']>[0]> = {}) => index.search({ q, limit: 10, ...extra }).map((h) => h.path);

describe('search index', () => {
  it('round-trips: the loaded index holds every record and answers from the saved files', () => {
    expect(built.records).toBe(RECORDS.length);
    expect(built.pages).toBe(8);
    expect(index.size).toBe(RECORDS.length);
    expect(index.bytes).toBeGreaterThan(0);
    expect(Object.keys(built.files).sort()).toEqual(['index.txt', 'records.json']);
    expect(paths('webhooks')[0]).toBe('guides/webhooks');
  });

  it('ranks a title match over a heading match over a body match', () => {
    const hits = index.search({ q: 'installation', limit: 10 });
    expect(hits[0]).toMatchObject({ path: 'install', title: 'Installation' });
    expect(hits[0]!.section).toBeUndefined();
    const tokens = hits.findIndex((h) => h.path === 'guides/tokens');
    const errors = hits.findIndex((h) => h.path === 'reference/errors');
    expect(tokens).toBeGreaterThan(0);
    expect(errors).toBeGreaterThan(tokens);
  });

  it('lands on the section that matched, with its anchor', () => {
    const hit = index.search({ q: 'retries backoff', limit: 5 })[0]!;
    expect(hit).toMatchObject({ path: 'guides/webhooks', section: 'Retries', anchor: 'retries' });
  });

  it('matches the word being typed as a prefix', () => {
    expect(paths('instal')[0]).toBe('install');
    expect(paths('webho')[0]).toBe('guides/webhooks');
  });

  it('tolerates one typo in a longer word', () => {
    expect(paths('instlal')).toContain('reference/errors'); // "install" is in its text
    expect(paths('instalation')[0]).toBe('install');
    expect(index.search({ q: 'authentcation', limit: 5 })[0]).toMatchObject({ path: 'guides/webhooks', section: 'Authentication' });
    expect(paths('webhoks')[0]).toBe('guides/webhooks');
  });

  it('tolerates two typos in a long word the index does not hold', () => {
    expect(index.search({ q: 'authetnicaton', limit: 5 })[0]).toMatchObject({ path: 'guides/webhooks', section: 'Authentication' });
    // a short word two edits from an index word is not read as it
    expect(paths('tekon')).toEqual([]);
  });

  it('ranks records matching every word first', () => {
    expect(index.search({ q: 'sdk token environment', limit: 3 })[0]).toMatchObject({ path: 'guides/tokens', section: 'Installation of the SDK' });
  });

  it('never returns gated pages to a reader who may not read them', () => {
    expect(paths('enterprise discounts')).not.toContain('partners/deals');
    expect(paths('enterprise discounts', { canRead: (tags) => tags.includes('staff') })).not.toContain('partners/deals');
    expect(paths('enterprise discounts', { canRead: (tags) => tags.includes('partners') })[0]).toBe('partners/deals');
  });

  it('keeps to one language when asked, folding accents', () => {
    expect(paths('demarrage')).toEqual(['fr/demarrage']);
    expect(paths('installer', { language: 'fr' })).toEqual(['fr/demarrage']);
    expect(paths('installation', { language: 'fr' })).toEqual([]);
  });

  it('escapes snippets and marks the matched words', () => {
    const hit = index.search({ q: 'injection', limit: 1 })[0]!;
    expect(hit.snippet).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(hit.snippet).not.toContain('<script>');
    expect(hit.snippet).toContain('<mark>injection</mark>');
    expect(hit.snippet).toContain('&amp; escaping');
    const typo = index.search({ q: 'escapng', limit: 1 })[0]!;
    expect(typo.snippet).toContain('<mark>escaping</mark>');
  });

  it('does not let one page fill every slot', () => {
    const hits = index.search({ q: 'configuration option retries', limit: 10 });
    expect(hits.filter((h) => h.path === 'long').length).toBeLessThanOrEqual(3);
    expect(hits.some((h) => h.path === 'guides/webhooks')).toBe(true);
    // a page's sections are listed together, best first
    const at = hits.map((h) => h.path).indexOf('long');
    expect(hits.slice(at, at + 3).every((h) => h.path === 'long')).toBe(true);
  });

  it('honours the limit and answers nothing for nothing', () => {
    expect(index.search({ q: 'the', limit: 10 })).toEqual([]);
    expect(index.search({ q: '   ', limit: 10 })).toEqual([]);
    expect(index.search({ q: 'zzzzqqq', limit: 10 })).toEqual([]);
    expect(index.search({ q: 'install', limit: 2 })).toHaveLength(2);
  });

  it('refuses a records file and term index of different builds', async () => {
    const other = buildSearchIndex(RECORDS.slice(0, 3));
    const mixed = { 'records.json': built.files['records.json']!, 'index.txt': other.files['index.txt']! };
    await expect(loadSearchIndex(async (name) => Buffer.from(mixed[name as keyof typeof mixed]))).rejects.toThrow(/different builds/);
  });

  it('builds an empty index for a site without visible pages', async () => {
    const { index: empty } = await roundTrip([]);
    expect(empty.size).toBe(0);
    expect(empty.search({ q: 'anything', limit: 10 })).toEqual([]);
  });
});
