/**
 * Terms of the search index (shared/src/search/tokens.ts) and the vocabulary a query is expanded
 * against (vocabulary.ts): what a reader's words match.
 */
import { describe, expect, it } from 'vitest';
import { indexTerms, queryTerms } from '../../src/search/tokens';
import { Vocabulary, withinOneEdit } from '../../src/search/vocabulary';

describe('index terms', () => {
  it('folds case and accents, drops stop words, and splits camelCase words into their parts too', () => {
    expect(indexTerms('The maxAttempts of Éditer the TRIGGER_SECRET_KEY')).toEqual(['maxattempts', 'max', 'attempts', 'editer', 'trigger', 'secret', 'key']);
  });

  it('makes each Han or Kana character a term and keeps other scripts as words', () => {
    expect(indexTerms('検索 Поиск')).toEqual(['検', '索', 'поиск']);
  });

  it('reads a query: distinct terms, the last one partial unless a space follows', () => {
    expect(queryTerms('how to instal')).toEqual({ terms: ['instal'], lastIsPartial: true });
    expect(queryTerms('install the CLI ')).toEqual({ terms: ['install', 'cli'], lastIsPartial: false });
    expect(queryTerms('the')).toEqual({ terms: ['the'], lastIsPartial: true });
  });
});

describe('vocabulary', () => {
  const vocab = new Vocabulary(['install', 'installation', 'installer', 'instance', 'token', 'tokens'], [50, 20, 5, 9, 30, 12]);

  it('completes a prefix with its most frequent words', () => {
    expect(vocab.completions('insta', 2).map((m) => m.term)).toEqual(['install', 'installation']);
    expect(vocab.completions('token', 5).map((m) => m.term)).toEqual(['tokens']);
  });

  it('finds words one edit away', () => {
    expect(vocab.neighbours('instlal', 3).map((m) => m.term)).toEqual(['install']);
    expect(vocab.neighbours('tokn', 3).map((m) => m.term)).toEqual(['token']);
    expect(vocab.neighbours('tokenz', 3).map((m) => m.term)).toEqual(['token', 'tokens']);
  });

  it('counts swaps, insertions, deletions and substitutions as one edit, and nothing more', () => {
    expect(withinOneEdit('abcd', 'abdc')).toBe(true);
    expect(withinOneEdit('abcd', 'abxcd')).toBe(true);
    expect(withinOneEdit('abcd', 'acd')).toBe(true);
    expect(withinOneEdit('abcd', 'abzd')).toBe(true);
    expect(withinOneEdit('abcd', 'badc')).toBe(false);
    expect(withinOneEdit('abcd', 'ab')).toBe(false);
  });
});
