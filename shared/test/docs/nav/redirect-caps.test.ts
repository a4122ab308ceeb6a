import { describe, expect, it } from 'vitest';
import { memoryFiles } from '../../../src/docs/files';
import { loadSiteConfig } from '../../../src/docs/config/load-site-config';
import {
  MAX_REDIRECTS, MAX_REDIRECT_LENGTH, MAX_REDIRECT_WILDCARDS, MAX_REDIRECT_WILDCARDS_PER_SEGMENT,
} from '../../../src/docs/config/site-fields';

const base = { theme: 'mint', name: 'Acme', colors: { primary: '#0D9373' } };
const load = (redirects: object[], file = 'docs.json') =>
  loadSiteConfig(memoryFiles({ [file]: JSON.stringify({ ...base, navigation: file === 'mint.json' ? [] : {}, redirects }) }));
const configWarnings = (w: { kind: string; message: string }[]) => w.filter((x) => x.kind === 'config').map((x) => x.message);

describe('normalizeRedirects: caps on redirects', () => {
  it('skips over-long sources and destinations, naming the file and index without quoting them whole', () => {
    const long = `/${'a'.repeat(MAX_REDIRECT_LENGTH)}`;
    const { config, warnings } = load([
      { source: long, destination: '/x' },
      { source: '/ok', destination: `/${'b'.repeat(MAX_REDIRECT_LENGTH)}` },
      { source: '/kept', destination: '/there' },
    ]);
    expect(config.redirects).toEqual([{ source: '/kept', destination: '/there', permanent: true }]);
    const messages = configWarnings(warnings);
    expect(messages).toEqual([
      `docs.json: redirects[0].source is longer than ${MAX_REDIRECT_LENGTH} characters; redirect skipped.`,
      `docs.json: redirects[1].destination is longer than ${MAX_REDIRECT_LENGTH} characters; redirect skipped.`,
    ]);
  });

  it('skips sources with too many wildcards in a segment or in all, and sources with two :name*', () => {
    const perSegment = `/x/${'a*'.repeat(MAX_REDIRECT_WILDCARDS_PER_SEGMENT + 1)}`;
    const total = `/${'*/'.repeat(MAX_REDIRECT_WILDCARDS + 1)}`;
    const { config, warnings } = load([
      { source: perSegment, destination: '/y' },
      { source: total, destination: '/y' },
      { source: '/:a*/x/:b*', destination: '/y' },
      { source: '/beta/:slug*', destination: '/v2/:slug*' },
      { source: '/old/article-*', destination: '/new/article-*' },
    ]);
    expect(config.redirects.map((r) => r.source)).toEqual(['/beta/:slug*', '/old/article-*']);
    expect(configWarnings(warnings)).toEqual([
      `docs.json: redirects[0].source "${perSegment}" has more than ${MAX_REDIRECT_WILDCARDS_PER_SEGMENT} wildcards (*) in one segment; redirect skipped.`,
      `docs.json: redirects[1].source "${total}" has more than ${MAX_REDIRECT_WILDCARDS} wildcards (*); redirect skipped.`,
      'docs.json: redirects[2].source "/:a*/x/:b*" may hold at most one :name* segment; redirect skipped.',
    ]);
  });

  it(`keeps the first ${MAX_REDIRECTS} redirects and says in one warning how many were dropped`, () => {
    const many = Array.from({ length: MAX_REDIRECTS + 5 }, (_, i) => ({ source: `/old/${i}`, destination: `/new/${i}` }));
    const { config, warnings } = load(many, 'mint.json');
    expect(config.redirects).toHaveLength(MAX_REDIRECTS);
    expect(config.redirects.at(-1)).toEqual({ source: `/old/${MAX_REDIRECTS - 1}`, destination: `/new/${MAX_REDIRECTS - 1}`, permanent: true });
    expect(configWarnings(warnings)).toEqual([
      `mint.json: redirects has ${MAX_REDIRECTS + 5} entries; only the first ${MAX_REDIRECTS} are used, 5 dropped.`,
    ]);
  });
});
