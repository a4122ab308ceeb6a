/**
 * The words of a reader's question the assistant weighs (server/src/chat/question-terms.ts), on a small real index: typos
 * corrected with the index's own typo tolerance, the reader's examples (numbers, domains, possessive names) left out, names
 * the docs never use kept as what the question is about, everyday English words weighed less, and WordNet synonyms for a
 * word the docs never use.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { SearchIndex, SearchRecord } from '@quire/shared/search/types';
import { composeAnswer } from '../../src/chat/answerer';
import { zipf } from '../../src/chat/english-frequency';
import { questionTerms } from '../../src/chat/question-terms';
import { wordnetRelated, wordnetSynonyms } from '../../src/chat/wordnet';
import { corpusIndex } from '../helpers/corpus';

const RECORDS: SearchRecord[] = [
  { path: 'cli/preview', title: 'Preview locally', text: 'Run the dev command to start a local preview. By default the preview uses port 3000; pass --port to use a different port.' },
  { path: 'dashboard/sso', title: 'Single sign-on', text: 'Members sign in to the dashboard with your identity provider. Require SSO to turn off password sign-in.' },
  { path: 'api/keys', title: 'API keys', text: 'Create an API key in the dashboard. A key has an expiration date; an expired key is refused.' },
  { path: 'deploy/review', title: 'Deploy reviews', text: 'A production deploy waits for approval from a reviewer before it goes live.' },
  { path: 'deploy/custom-domain', title: 'Custom domain', text: 'Add a CNAME record at your DNS provider that points your domain at the docs host.' },
  ...Array.from({ length: 30 }, (_, i): SearchRecord => ({ path: `guides/g${i}`, title: `Guide ${i}`, text: `General documentation page ${i} about writing docs.` })),
];

let index: SearchIndex;
beforeAll(async () => {
  index = await corpusIndex(RECORDS);
});

const words = (question: string) => questionTerms(question, index).map((t) => t.term);

describe('question terms', () => {
  it('reads a misspelt word as the index word one edit away', () => {
    expect(words('How do I run the docs localy on a diffrent port?')).toEqual(expect.arrayContaining(['different', 'port']));
    expect(words('How do I run the docs localy on a diffrent port?')).not.toContain('diffrent');
  });

  it('leaves out the reader\u2019s own examples: numbers, domains and possessive names the docs never hold', () => {
    expect(words('Which DNS record points docs.initech.io at the docs since 2022?')).toEqual(['dns', 'record', 'points', 'docs']);
    expect(words("How do I add Initech's custom domain?")).toEqual(['add', 'custom', 'domain']);
  });

  it('keeps a name the docs never use as the topic, so that the question is not answered', () => {
    expect(words('Can I deploy the docs to Netlify?')).toContain('netlify');
    expect(composeAnswer('Can I deploy the docs to Netlify?', index).answered).toBe(false);
  });

  it('weighs an everyday English word less than a technical word the docs use as rarely', () => {
    expect(zipf('yesterday')).toBeGreaterThan(4.5);
    expect(zipf('netlify')).toBeLessThan(2);
    const terms = questionTerms('Where do I find the CNAME record from yesterday?', index);
    const weight = (w: string) => terms.find((t) => t.term === w)!.weight;
    expect(weight('yesterday')).toBeLessThan(weight('cname'));
  });

  it('matches a word the docs never use by its WordNet synonym the docs do use', () => {
    expect(wordnetSynonyms('expiry')).toContain('expiration');
    const expiry = questionTerms('When does the expiry of an API key happen?', index).find((t) => t.term === 'expiry')!;
    expect(expiry.searchAs).toContain('expiration');
    expect(composeAnswer('What is the expiry of an API key?', index).sources.map((s) => s.path)).toContain('api/keys');
  });

  it('matches a word the docs never use by a derived form WordNet gives', () => {
    expect(wordnetRelated('approves').derived).toContain('approval');
    const term = questionTerms('Who approves a production deploy?', index).find((t) => t.term === 'approves')!;
    expect(term.searchAs).toEqual(['approval']);
    expect(composeAnswer('Who approves a production deploy?', index).sources[0]?.path).toBe('deploy/review');
  });

  it('still refuses a question whose deciding word neither the docs nor its WordNet relations hold', () => {
    expect(composeAnswer('How do I embezzle the production deploy?', index).answered).toBe(false);
  });
});
