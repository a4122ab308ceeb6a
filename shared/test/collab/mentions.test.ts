import { describe, expect, it } from 'vitest';
import { findMentions, mentionedIds, type Mentionable } from '../../src/collab/mentions';

const ANA: Mentionable = { id: 'usr_ana', name: 'Ana Lopes', email: 'ana@x.org' };
const ANAIS: Mentionable = { id: 'usr_anais', name: 'Ana', email: 'anais@x.org' };
const BO: Mentionable = { id: 'usr_bo', name: '', email: 'bo@y.example' };
const MEMBERS = [ANA, ANAIS, BO];

describe('mentions in review comments', () => {
  it('finds members by e-mail address, without case, and leaves a sentence-ending dot out', () => {
    const text = 'Thanks @ANA@x.org. And @bo@y.example.';
    expect(findMentions(text, MEMBERS)).toEqual([
      { userId: 'usr_ana', start: 7, end: 17 },
      { userId: 'usr_bo', start: 23, end: 36 },
    ]);
    expect(text.slice(7, 17)).toBe('@ANA@x.org');
  });

  it('finds members by display name at a word boundary, the longest name first', () => {
    expect(mentionedIds('@ana lopes, could you check? cc @Ana', MEMBERS)).toEqual(['usr_ana', 'usr_anais']);
    // "@Anatole" is no mention of Ana: the name does not end there
    expect(mentionedIds('@Anatole wrote this', MEMBERS)).toEqual([]);
  });

  it('leaves unknown mentions, plain e-mail addresses and shared names as text', () => {
    expect(mentionedIds('@nobody@x.org and @Zed, write to ana@x.org', MEMBERS)).toEqual([]);
    const twins = [ANA, { id: 'usr_other', name: 'Ana Lopes', email: 'other@x.org' }];
    expect(mentionedIds('@Ana Lopes please', twins)).toEqual([]);
    expect(mentionedIds('@other@x.org please', twins)).toEqual(['usr_other']);
  });

  it('counts a member mentioned twice once in mentionedIds', () => {
    expect(findMentions('@Ana and @ana', MEMBERS)).toHaveLength(2);
    expect(mentionedIds('@Ana and @ana', MEMBERS)).toEqual(['usr_anais']);
  });
});
