import { describe, expect, it } from 'vitest';
import { memoryFiles } from '../../../src/docs/files';
import { loadSiteConfig } from '../../../src/docs/config/load-site-config';
import type { NavDivision, NavNode } from '../../../src/docs/types';

const base = { theme: 'mint', name: 'Acme', colors: { primary: '#0D9373' } };
const load = (navigation: object, extra: Record<string, string> = {}) =>
  loadSiteConfig(memoryFiles({ 'docs.json': JSON.stringify({ ...base, navigation }), ...extra }));

/** The tree as `kind:title` / page paths. */
const shape = (nodes: NavNode[]): unknown[] =>
  nodes.map((n) =>
    n.type === 'page' ? n.path || n.openapi : n.type === 'link' ? `link:${n.title}` : { [n.type === 'division' ? `${n.kind}:${n.title}` : `group:${n.title}`]: shape(n.children) },
  );

/** Every division of the tree, depth first. */
const divisions = (nodes: NavNode[]): NavDivision[] =>
  nodes.flatMap((n) => (n.type === 'division' ? [n, ...divisions(n.children)] : n.type === 'group' ? divisions(n.children) : []));

describe('docs.json divisions (Mintlify organize/navigation)', () => {
  it('reads languages -> products -> tabs -> menu items -> dropdowns, a language split into its own file with $ref', () => {
    const fr = {
      products: [
        {
          product: 'Plateforme',
          tabs: [
            { tab: 'Guides', groups: [{ group: 'Compilation', pages: ['fr/products/p/build/a', { group: 'Profond', root: 'fr/products/p/deep/index', pages: ['fr/products/p/deep/b'] }] }] },
            { tab: 'Référence', menu: [{ item: 'CLI', pages: ['fr/cli'] }, { item: 'Événements', dropdowns: [{ dropdown: 'Webhooks', pages: ['fr/hooks'] }] }] },
          ],
        },
      ],
    };
    const { config, warnings } = load(
      { languages: [{ language: 'en', pages: ['en/index'] }, { language: 'fr', $ref: './fr.json' }], global: { anchors: [{ anchor: 'Blog', href: 'https://blog.example.com' }] } },
      { 'fr.json': JSON.stringify(fr) },
    );
    expect(warnings).toEqual([]);
    expect(shape(config.navigation)).toEqual([
      { 'language:en': ['en/index'] },
      {
        'language:fr': [
          {
            'product:Plateforme': [
              { 'tab:Guides': [{ 'group:Compilation': ['fr/products/p/build/a', { 'group:Profond': ['fr/products/p/deep/b'] }] }] },
              { 'tab:Référence': [{ 'menu:CLI': ['fr/cli'] }, { 'menu:Événements': [{ 'dropdown:Webhooks': ['fr/hooks'] }] }] },
            ],
          },
        ],
      },
      { 'anchor:Blog': [] },
    ]);
    expect(config.navigation[0]).toMatchObject({ default: true });
    expect(divisions(config.navigation).find((d) => d.title === 'Blog')).toMatchObject({ href: 'https://blog.example.com' });
  });

  it('keeps `directory` of openapi {source, directory} on divisions and groups, inside the site', () => {
    const { config } = load({
      products: [
        { product: 'API', openapi: { source: 'fr/openapi.json', directory: '/fr/api-reference/' }, groups: [{ group: 'Users', pages: ['GET /users'] }] },
        { product: 'Other', groups: [{ group: 'All', openapi: { source: 'b.yaml', directory: '../../outside/./api' } }, { group: 'Str', openapi: ['c.json', 'd.json'] }] },
      ],
    });
    const [api, other] = config.navigation as NavDivision[];
    expect(api).toMatchObject({ openapi: 'fr/openapi.json', openapiDirectory: 'fr/api-reference' });
    const users = api!.children[0]!;
    expect(users.type === 'group' && users.children[0]).toMatchObject({ openapi: 'GET /users', openapiSpec: 'fr/openapi.json' });
    expect(other!.children[0]).toMatchObject({ openapi: 'b.yaml', openapiDirectory: 'outside/api' });
    expect(other!.children[1]).toMatchObject({ openapi: 'c.json' });
    expect(other!.children[1]).not.toHaveProperty('openapiDirectory');
    expect(config.openapi).toEqual(['fr/openapi.json', 'b.yaml', 'c.json', 'd.json']);
  });

  it('reads products holding a menu, versions holding languages, and hidden divisions', () => {
    const { config } = load({
      versions: [
        { version: 'v1', languages: [{ language: 'en', pages: ['v1/en/a'] }, { language: 'es', hidden: true, pages: ['v1/es/a'] }] },
        { version: 'v2', default: true, products: [{ product: 'Core', menu: [{ item: 'Guides', groups: [{ group: 'G', pages: ['v2/g'] }] }, { item: 'Site', href: 'https://example.com' }] }] },
      ],
    });
    expect(shape(config.navigation)).toEqual([
      { 'version:v1': [{ 'language:en': ['v1/en/a'] }, { 'language:es': ['v1/es/a'] }] },
      { 'version:v2': [{ 'product:Core': [{ 'menu:Guides': [{ 'group:G': ['v2/g'] }] }, { 'menu:Site': [] }] }] },
    ]);
    const all = divisions(config.navigation);
    expect(all.find((d) => d.title === 'es')).toMatchObject({ hidden: true });
    expect(all.find((d) => d.title === 'v2')).toMatchObject({ default: true });
    expect(all.find((d) => d.title === 'en')).toMatchObject({ default: true });
  });

  it('reads a language\'s own navbar, with labels from link types like the site\'s', () => {
    const { config } = load({
      languages: [
        { language: 'en', pages: ['en/a'] },
        { language: 'es', navbar: { links: [{ label: 'Comunidad', href: 'https://c.example.com' }, { type: 'github', href: 'https://github.com/acme' }], primary: { href: '/es/start' } }, pages: ['es/a'] },
      ],
    });
    const [en, es] = config.navigation as NavDivision[];
    expect(en).not.toHaveProperty('navbar');
    expect(es!.navbar).toEqual({
      links: [{ label: 'Comunidad', href: 'https://c.example.com' }, { label: 'GitHub', href: 'https://github.com/acme' }],
      primary: { label: 'Get started', href: '/es/start' },
    });
  });
});
