import { describe, expect, it } from 'vitest';
import {
  counterpartPaths, defaultFirst, languageFolder, languageName, languageResolver, languageTag, pageLanguages,
} from '../../../src/docs/nav/languages';
import type { NavDivision, NavNode } from '../../../src/docs/types';

const lang = (code: string, children: NavNode[], extra: Partial<NavDivision> = {}): NavDivision => ({ type: 'division', kind: 'language', title: code, children, ...extra });
const page = (path: string): NavNode => ({ type: 'page', path });

describe('language codes', () => {
  it('turns Mintlify codes into BCP 47 tags, jp and cn included', () => {
    expect(['en', 'fr', 'jp', 'cn', 'pt-BR', 'zh-Hant', 'not a code'].map(languageTag)).toEqual(['en', 'fr', 'ja', 'zh-Hans', 'pt-BR', 'zh-Hant', 'und']);
  });

  it('names each language in itself, capitalised, for the switcher', () => {
    expect(['en', 'fr', 'es', 'jp', 'de'].map(languageName)).toEqual(['English', 'Français', 'Español', '日本語', 'Deutsch']);
    expect(languageName('not a code')).toBe('not a code');
  });

  it('uses a plain code as the folder of the language\'s own files, nothing else', () => {
    expect(languageFolder('pt-BR')).toBe('pt-BR');
    expect(languageFolder('../fr')).toBeUndefined();
    expect(languageFolder('fr/x')).toBeUndefined();
  });
});

describe('pages and languages', () => {
  const nav: NavNode[] = [
    lang('en', [{ type: 'division', kind: 'product', title: 'P', children: [{ type: 'group', title: 'G', root: 'en/root', children: [page('en/a'), page('shared')] }] }]),
    lang('fr', [page('fr/a'), page('shared')]),
    page('outside'),
  ];

  it('knows the language of every listed page, the first listing winning; a page outside the navigation by its folder', () => {
    expect([...pageLanguages(nav)]).toEqual([['en/root', 'en'], ['en/a', 'en'], ['shared', 'en'], ['fr/a', 'fr']]);
    const of = languageResolver(nav);
    expect(['fr/a', 'fr/unlisted', 'FR/other', 'outside', 'de/x'].map(of)).toEqual(['fr', 'fr', 'fr', undefined, undefined]);
  });

  it('finds the same page in another language or version: segment swapped, dropped, added, or the page itself', () => {
    expect(counterpartPaths('fr/guides/a', 'fr', 'en')).toEqual(['en/guides/a', 'guides/a', 'fr/guides/a']);
    expect(counterpartPaths('guides/a', 'en', 'fr')).toEqual(['fr/guides/a', 'guides/a']);
    expect(counterpartPaths('docs/v1/setup', 'v1', 'v2')).toEqual(['docs/v2/setup', 'docs/setup', 'docs/v1/setup']);
    expect(counterpartPaths('pt-br/a', 'pt-BR', 'en')).toEqual(['en/a', 'a', 'pt-br/a']);
  });

  it('puts the default language (version) first, at any depth, leaving the tree alone when it already is', () => {
    const tree: NavNode[] = [lang('fr', [page('fr/a')]), lang('en', [page('en/a')], { default: true })];
    expect(defaultFirst(tree).map((n) => (n.type === 'division' ? n.title : ''))).toEqual(['en', 'fr']);
    expect(tree.map((n) => (n.type === 'division' ? n.title : ''))).toEqual(['fr', 'en']);
    const nested: NavNode[] = [{ type: 'division', kind: 'product', title: 'P', children: tree }];
    const out = defaultFirst(nested);
    expect(out[0]!.type === 'division' && out[0]!.children.map((n) => (n.type === 'division' ? n.title : ''))).toEqual(['en', 'fr']);
    const sorted: NavNode[] = [lang('en', [page('en/a')], { default: true }), lang('fr', [page('fr/a')])];
    expect(defaultFirst(sorted)).toBe(sorted);
  });
});
