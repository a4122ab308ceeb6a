/**
 * Terms of the search index (shared/src/search/tokens.ts) and the vocabulary a query is expanded
 * against (vocabulary.ts): what a reader's words match.
 */
import { describe, expect, it } from 'vitest';
import { indexTerms, queryTerms, tokenSpans } from '../../src/search/tokens';
import { makeSnippet } from '../../src/search/snippet';
import { Vocabulary, withinOneEdit, withinTwoEdits } from '../../src/search/vocabulary';

describe('index terms', () => {
  it('folds case and accents, drops stop words, and splits camelCase words into their parts too', () => {
    expect(indexTerms('The maxAttempts of Éditer the TRIGGER_SECRET_KEY')).toEqual(['maxattempts', 'max', 'attempts', 'editer', 'trigger', 'secret', 'key']);
  });

  it('cuts ASCII-only text into the same words and offsets as text with other characters', () => {
    const ascii = 'Set maxAttempts to 3 on run_now (v2 API).';
    const spans = (t: string) => [...tokenSpans(t)].map((s) => [t.slice(s.start, s.end), s.terms]);
    expect(spans(ascii)).toEqual(spans(`${ascii} é`).slice(0, -1));
    expect(spans(ascii)).toEqual([['Set', ['set']], ['maxAttempts', ['maxattempts', 'max', 'attempts']], ['to', ['to']], ['3', ['3']], ['on', ['on']], ['run', ['run']], ['now', ['now']], ['v2', ['v2']], ['API', ['api']]]);
    expect(makeSnippet(ascii, (t) => t === 'attempts')).toBe('Set <mark>maxAttempts</mark> to 3 on run_now (v2 API).');
  });

  it('makes each Han or Kana character a term and keeps other scripts as words', () => {
    expect(indexTerms('検索 Поиск')).toEqual(['検', '索', 'поиск']);
  });

  it('reads a query: distinct terms, the last one partial unless a space follows', () => {
    expect(queryTerms('how to instal')).toEqual({ terms: ['instal'], lastIsPartial: true });
    expect(queryTerms('install the CLI ')).toEqual({ terms: ['install', 'cli'], lastIsPartial: false });
    expect(queryTerms('the')).toEqual({ terms: ['the'], lastIsPartial: true });
  });

  it('searches a query written as a sentence by its topic words, and a short query by all its words', () => {
    expect(queryTerms('How do I keep my OpenAI key out of the docker image?').terms).toEqual(['openai', 'key', 'docker', 'image']);
    expect(queryTerms('get started').terms).toEqual(['get', 'started']);
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

  it('finds two-edit neighbours only when asked', () => {
    expect(vocab.neighbours('instlaltion', 3).map((m) => m.term)).toEqual([]);
    expect(vocab.neighbours('instlaltion', 3, 2).map((m) => m.term)).toEqual(['installation']);
  });

  it('counts two edits, and not three', () => {
    expect(withinTwoEdits('authentication', 'authetnicaton')).toBe(true);
    expect(withinTwoEdits('installation', 'instalaton')).toBe(true);
    expect(withinTwoEdits('abcdefgh', 'abcdefgh')).toBe(true);
    expect(withinTwoEdits('abcdefgh', 'axcxefxh')).toBe(false);
    expect(withinTwoEdits('abcdefgh', 'abcde')).toBe(false);
  });

});
