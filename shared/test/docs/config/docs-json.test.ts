import { describe, expect, it } from 'vitest';
import { memoryFiles } from '../../../src/docs/files';
import { loadSiteConfig } from '../../../src/docs/config/load-site-config';
import type { NavNode } from '../../../src/docs/types';
import { thrown } from '../../helpers/thrown';

const base = { theme: 'mint', name: 'Acme', colors: { primary: '#0D9373' } };
const load = (config: object, extra: Record<string, string> = {}) =>
  loadSiteConfig(memoryFiles({ 'docs.json': JSON.stringify(config), ...extra }));


/** The tree as `kind:title` / page paths, for compact assertions. */
const shape = (nodes: NavNode[]): unknown[] =>
  nodes.map((n) =>
    n.type === 'page' ? n.path || n.openapi : n.type === 'link' ? `link:${n.title}` : { [n.type === 'division' ? `${n.kind}:${n.title}` : `group:${n.title}`]: shape(n.children) },
  );

describe('loadSiteConfig: docs.json navigation', () => {
  it('nests divisions freely in the written order: versions → tabs → groups → nested groups', () => {
    const { config } = load({
      ...base,
      navigation: {
        versions: [
          { version: 'v2', tabs: [{ tab: 'Guides', groups: [{ group: 'Start', pages: ['/intro.mdx', { group: 'Deep', pages: ['deep/a'] }] }] }] },
          { version: 'v1', default: true, pages: ['v1/intro'] },
        ],
      },
    });
    expect(config.source).toBe('docs.json');
    expect(shape(config.navigation)).toEqual([
      { 'version:v2': [{ 'tab:Guides': [{ 'group:Start': ['intro', { 'group:Deep': ['deep/a'] }] }] }] },
      { 'version:v1': ['v1/intro'] },
    ]);
    const [v2, v1] = config.navigation;
    expect(v2).not.toHaveProperty('default');
    expect(v1).toMatchObject({ default: true });
  });

  it('keeps the written order of divisions and pages on one level', () => {
    const { config } = load({ ...base, navigation: { pages: ['first'], tabs: [{ tab: 'T', pages: ['t'] }], groups: [{ group: 'G', pages: ['g'] }] } });
    expect(shape(config.navigation)).toEqual(['first', { 'tab:T': ['t'] }, { 'group:G': ['g'] }]);
  });

  it('marks the first version or language as default when none says so', () => {
    const { config } = load({ ...base, navigation: { languages: [{ language: 'en', pages: ['a'] }, { language: 'fr', pages: ['fr/a'] }] } });
    expect(config.navigation.map((n) => n.type === 'division' && n.default === true)).toEqual([true, false]);
  });

  it('reads anchors, dropdowns, products and tab menus, and external-link divisions', () => {
    const { config } = load({
      ...base,
      navigation: {
        anchors: [
          { anchor: 'Docs', icon: 'book', dropdowns: [{ dropdown: 'Main', description: 'The docs', pages: ['a'] }] },
          { anchor: 'Blog', href: 'https://blog.acme.dev' },
        ],
        products: [{ product: 'API', tabs: [{ tab: 'Ref', menu: [{ item: 'Users', pages: ['users'] }] }] }],
      },
    });
    expect(shape(config.navigation)).toEqual([
      { 'anchor:Docs': [{ 'dropdown:Main': ['a'] }] },
      { 'anchor:Blog': [] },
      { 'product:API': [{ 'tab:Ref': [{ 'menu:Users': ['users'] }] }] },
    ]);
    expect(config.navigation[0]).toMatchObject({ icon: 'book' });
    expect((config.navigation[0] as { children: NavNode[] }).children[0]).toMatchObject({ description: 'The docs' });
    expect(config.navigation[1]).toMatchObject({ href: 'https://blog.acme.dev' });
  });

  it('keeps group options and accepts an empty group name and icon objects', () => {
    const { config } = load({
      ...base,
      navigation: {
        groups: [
          { group: '', pages: ['a'] },
          { group: 'G', icon: { name: 'bolt', style: 'solid' }, tag: 'NEW', expanded: true, root: 'g/index', hidden: true, pages: ['g/b'] },
        ],
      },
    });
    expect(config.navigation[0]).toMatchObject({ type: 'group', title: '' });
    expect(config.navigation[1]).toMatchObject({ icon: 'bolt', tag: 'NEW', expanded: true, root: 'g/index', hidden: true });
  });

  it('turns OpenAPI operation entries into pages with the inherited spec and collects every spec', () => {
    const { config } = load({
      ...base,
      api: { openapi: ['openapi.yml', 'v3.yaml'] },
      navigation: {
        tabs: [
          {
            tab: 'API',
            openapi: '/specs/main.json',
            groups: [
              { group: 'Users', pages: ['GET /users', 'post /users/{id}', '/other.json DELETE /users/{id}', 'api/intro'] },
              { group: 'Pets', openapi: { source: 'pets.yaml', directory: 'pets' } },
            ],
          },
        ],
      },
    });
    const tab = config.navigation[0] as { openapi?: string; children: { openapi?: string; children: NavNode[] }[] };
    expect(tab.openapi).toBe('/specs/main.json');
    expect(tab.children[0]!.children).toEqual([
      { type: 'page', path: '', openapi: 'GET /users', openapiSpec: '/specs/main.json' },
      { type: 'page', path: '', openapi: 'post /users/{id}', openapiSpec: '/specs/main.json' },
      { type: 'page', path: '', openapi: '/other.json DELETE /users/{id}', openapiSpec: '/specs/main.json' },
      { type: 'page', path: 'api/intro' },
    ]);
    expect(tab.children[1]).toMatchObject({ type: 'group', openapi: 'pets.yaml', children: [] });
    expect(config.openapi).toEqual(['openapi.yml', 'v3.yaml', '/specs/main.json', 'pets.yaml']);
  });

  it('appends global items after the navigation', () => {
    const { config } = load({
      ...base,
      navigation: { tabs: [{ tab: 'Docs', pages: ['a'] }], global: { anchors: [{ anchor: 'Community', href: 'https://forum.acme.dev' }] } },
    });
    expect(shape(config.navigation)).toEqual([{ 'tab:Docs': ['a'] }, { 'anchor:Community': [] }]);
  });
});

describe('loadSiteConfig: docs.json settings', () => {
  it('normalizes logo, favicon, colors, appearance, navbar, footer, banner, variables and redirects', () => {
    const { config, warnings } = load(
      {
        ...base,
        description: 'Docs',
        colors: { primary: '#0D9373', light: '#07C983', dark: '#0D9373' },
        background: { color: { dark: '#101010' } },
        logo: { light: '/logo/light.svg', dark: '/logo/dark.svg', href: 'https://acme.dev' },
        favicon: '/favicon.svg',
        appearance: { default: 'dark', strict: true },
        navbar: {
          links: [{ label: 'Support', href: 'mailto:hi@acme.dev', icon: 'envelope' }, { type: 'github', href: 'https://github.com/acme' }],
          primary: { type: 'github', href: 'https://github.com/acme/repo' },
        },
        footer: { socials: { x: 'https://x.com/acme' }, links: [{ header: 'Company', items: [{ label: 'Blog', href: '/blog' }] }] },
        banner: { content: 'New!', dismissible: true },
        variables: { product: 'Acme' },
        redirects: [{ source: '/old', destination: '/new' }, { source: '/tmp', destination: '/t', permanent: false }],
        navigation: { pages: ['index'] },
        seo: { indexing: 'all' },
      },
      { 'logo/light.svg': '<svg/>', 'logo/dark.svg': '<svg/>', 'favicon.svg': '<svg/>' },
    );
    expect(warnings).toEqual([]);
    expect(config).toMatchObject({
      name: 'Acme',
      description: 'Docs',
      theme: 'mint',
      colors: { primary: '#0D9373', light: '#07C983', dark: '#0D9373', background: { dark: '#101010' } },
      logo: { light: '/logo/light.svg', dark: '/logo/dark.svg', href: 'https://acme.dev' },
      favicon: { light: '/favicon.svg', dark: '/favicon.svg' },
      appearance: { default: 'dark', strict: true },
      navbar: {
        links: [
          { label: 'Support', href: 'mailto:hi@acme.dev', icon: 'envelope' },
          { label: 'GitHub', href: 'https://github.com/acme' },
        ],
        primary: { label: 'GitHub', href: 'https://github.com/acme/repo' },
      },
      footer: { socials: [{ type: 'x', href: 'https://x.com/acme' }], links: [{ header: 'Company', items: [{ label: 'Blog', href: '/blog' }] }] },
      banner: { content: 'New!', dismissible: true },
      variables: { product: 'Acme' },
      redirects: [
        { source: '/old', destination: '/new', permanent: true },
        { source: '/tmp', destination: '/t', permanent: false },
      ],
    });
    expect(config.raw.seo).toEqual({ indexing: 'all' });
  });

  it('warns about logo and favicon files that do not exist, not about URLs', () => {
    const { warnings } = load({ ...base, logo: { light: '/logo/light.png', dark: 'https://cdn.acme.dev/dark.png' }, favicon: '/favicon.png', navigation: {} });
    expect(warnings.map((w) => [w.kind, w.message])).toEqual([
      ['missing-image', 'docs.json: logo.light "/logo/light.png" is not a file of the docs.'],
      ['missing-image', 'docs.json: favicon.light "/favicon.png" is not a file of the docs.'],
    ]);
  });

  it('skips redirects whose source carries an anchor or a query, with a warning', () => {
    const { config, warnings } = load({ ...base, navigation: {}, redirects: [{ source: '/a#x', destination: '/b' }, { source: '/c', destination: '/d#y' }] });
    expect(config.redirects).toEqual([{ source: '/c', destination: '/d#y', permanent: true }]);
    expect(warnings[0]!.message).toContain('redirects[0].source');
  });

  it('reads versioning.versions as written', () => {
    const versions = [
      { label: 'v2', branch: 'main', default: true },
      { label: 'v1', tag: 'v1.0.0', deprecated: true, deprecationMessage: 'Old', autoRedirectToLatest: true },
    ];
    expect(load({ ...base, navigation: {}, versioning: { versions } }).config.versioning).toEqual({ versions });
  });

  it('builds with defaults and warnings when theme, name or colors are missing, and follows folders without navigation', () => {
    const { config, warnings } = load({}, { 'intro.mdx': '# Hi', 'guides/a.md': 'x' });
    expect(config).toMatchObject({ name: 'Documentation', theme: 'mint', colors: { primary: '#16A34A' } });
    expect(warnings.map((w) => w.message)).toEqual([
      'docs.json: theme is missing; using "mint".',
      'docs.json: name is missing; using "Documentation".',
      'docs.json: colors.primary is missing; using #16A34A.',
      'docs.json: navigation is missing; the navigation follows the folders.',
    ]);
    expect(shape(config.navigation)).toEqual([{ 'group:': ['intro'] }, { 'group:Guides': ['guides/a'] }]);
  });
});

describe('loadSiteConfig: docs.json errors', () => {
  const cases: [string, object, string][] = [
    ['groups as a string', { navigation: { tabs: [{ tab: 'A', groups: [] }, { tab: 'B', groups: 'x' }] } }, 'docs.json: navigation.tabs[1].groups must be an array of groups, got a string'],
    ['a page entry that is a number', { navigation: { groups: [{ group: 'G', pages: ['a', 3] }] } }, 'docs.json: navigation.groups[0].pages[1] must be a page path or a group {"group", "pages"}, got 3'],
    ['a nested group without a name', { navigation: { groups: [{ group: 'G', pages: [{ pages: ['a'] }] }] } }, 'docs.json: navigation.groups[0].pages[0].group must be a group name (may be ""), got nothing'],
    ['navigation as an array', { navigation: [{ group: 'G', pages: [] }] }, 'docs.json: navigation must be an object such as {"groups": [...]} or {"tabs": [...]} (mint.json-style arrays belong in mint.json), got an array'],
    ['a colour that is not hex', { colors: { primary: 'red;}</style>' }, navigation: {} }, 'docs.json: colors.primary must be a hex colour such as #0D9373, got "red;}</style>"'],
    ['a tab title that is not a string', { navigation: { tabs: [{ tab: 1 }] } }, 'docs.json: navigation.tabs[0].tab must be a string, got a number'],
    ['a variable that is not a string', { variables: { year: 2024 }, navigation: {} }, 'docs.json: variables.year must be a string, got a number'],
    ['an unsafe version label', { navigation: {}, versioning: { versions: [{ label: '../x' }] } }, 'docs.json: versioning.versions[0].label must be a version label of letters, digits, dots, dashes or underscores (it becomes a URL prefix), got "../x"'],
  ];
  for (const [what, config, message] of cases) {
    it(`names the file, field and expectation for ${what}`, () => {
      const err = thrown(() => load({ ...base, ...config }));
      expect(err.message).toBe(message);
      expect(err.file).toBe('docs.json');
    });
  }

  it('sets the field, line and column of the error', () => {
    const text = JSON.stringify({ ...base, navigation: { tabs: [{ tab: 'A', groups: 'x' }] } }, null, 2);
    const err = thrown(() => loadSiteConfig(memoryFiles({ 'docs.json': text })));
    expect(err.field).toBe('navigation.tabs[0].groups');
    const lines = text.split('\n');
    expect(lines[err.line! - 1]!.slice(err.column! - 1)).toBe('"x"');
  });

  it('rejects duplicate version labels and two defaults', () => {
    expect(thrown(() => load({ ...base, navigation: {}, versioning: { versions: [{ label: 'v1' }, { label: 'v1' }] } })).message).toContain('versioning.versions[1].label "v1"');
    expect(thrown(() => load({ ...base, navigation: {}, versioning: { versions: [{ label: 'a', default: true }, { label: 'b', default: true }] } })).message).toContain('only one version');
  });

  it('fails on invalid JSON with the line and column', () => {
    const err = thrown(() => loadSiteConfig(memoryFiles({ 'docs.json': '{\n  "name": "x",\n  "theme": mint\n}' })));
    expect(err.message).toBe('docs.json: not valid JSON at line 3, column 12: expected a value (string, number, object, array, true, false or null)');
    expect([err.line, err.column]).toEqual([3, 12]);
  });

  it('fails when the file is not a JSON object', () => {
    expect(thrown(() => loadSiteConfig(memoryFiles({ 'docs.json': '[]' }))).message).toBe('docs.json: must be a JSON object, got an array');
  });
});

describe('loadSiteConfig: choosing the config', () => {
  it('prefers docs.json over mint.json, with a warning', () => {
    const { config, warnings } = loadSiteConfig(
      memoryFiles({ 'docs.json': JSON.stringify({ ...base, navigation: { pages: ['a'] } }), 'mint.json': '{"navigation": []}' }),
    );
    expect(config.source).toBe('docs.json');
    expect(warnings.map((w) => w.message)).toEqual(['mint.json is ignored because docs.json exists.']);
  });
});
