import { describe, expect, it } from 'vitest';
import { findMentions, mentionTerms } from '../../src/docs/page-mentions';
import type { SpecChange } from '../../src/docs/openapi/spec-diff';

const change = (c: Partial<SpecChange>): SpecChange => ({ subject: 'parameter', kind: 'renamed', operation: 'GET /users', summary: 's', ...c });

describe('mentionTerms', () => {
  it('takes old names of renamed, removed and changed things, the last segment of fields, and nothing for added ones', () => {
    const terms = mentionTerms([
      change({ name: 'page_size', previous: 'per_page' }),
      change({ subject: 'response_field', kind: 'removed', name: 'data[].email' }),
      change({ subject: 'operation', kind: 'removed', operation: 'DELETE /teams' }),
      change({ kind: 'added', name: 'order' }),
    ]).map((t) => t.term);
    expect(terms).toEqual(['per_page', 'email', 'DELETE /teams', '/teams']);
  });
});

describe('findMentions', () => {
  const terms = [
    { term: 'per_page', reason: 'renamed' },
    { term: 'email', reason: 'removed' },
  ];
  it('finds identifiers anywhere as whole tokens, with 1-based lines', () => {
    const text = 'intro\nSet per_page to 50.\nper_page_max is another thing\n`?per_page=10`';
    expect(findMentions(text, terms).map((m) => m.line)).toEqual([2, 4]);
  });

  it('counts a plain word only in code spans and fenced blocks', () => {
    const text = 'We never share your email.\nThe `email` field\n```json\n{"email": "a@b.c"}\n```\nemail again in prose';
    expect(findMentions(text, terms).map((m) => `${m.line} ${m.term}`)).toEqual(['2 email', '4 email']);
  });
});
