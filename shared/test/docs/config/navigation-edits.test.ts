import { describe, expect, it } from 'vitest';
import { parse } from 'jsonc-parser';
import {
  addGroup, addPage, addRedirect, groupFolder, pageSlug, listedPages, movePage, navigationGroups, NavigationEditError, removePage, renamePage, reorderGroup,
} from '../../../src/docs/config/navigation-edits';

/** A docs.json with comments, a trailing comma, tabs, nested groups and a group root, as people write them. */
const DOCS = `{
  // the site
  "name": "Acme",
  "theme": "mint",
  "navigation": {
    "tabs": [
      {
        "tab": "Guides",
        "groups": [
          {
            "group": "Start", // first steps
            "pages": ["index", "/quickstart.mdx"]
          },
          {
            "group": "Guides",
            "root": "guides/overview",
            "pages": [
              "guides/setup",
              /* deep dive */
              { "group": "Advanced", "pages": ["guides/advanced/tuning"] },
              "guides/deploy"
            ]
          }
        ]
      },
      {
        "tab": "API",
        "pages": [
          { "group": "Start", "pages": ["api/intro", "GET /users"] }
        ]
      }
    ]
  },
}
`;

type Parsed = { navigation: { tabs: Array<{ groups?: unknown[]; pages?: unknown[] }> }; redirects?: unknown[] };
const json = (text: string) => parse(text, [], { allowTrailingComma: true }) as Parsed;
const guidesTab = (text: string) => json(text).navigation.tabs[0]!.groups as Array<{ group: string; pages: unknown[]; root?: string }>;
/** The text outside the lines an edit touched: what must stay as written. */
const keepsComments = (text: string) => {
  for (const c of ['// the site', '// first steps', '/* deep dive */']) expect(text).toContain(c);
};

function errorOf(fn: () => unknown): NavigationEditError {
  try {
    fn();
  } catch (err) {
    if (err instanceof NavigationEditError) return err;
    throw err;
  }
  throw new Error('expected a NavigationEditError');
}

describe('navigation groups', () => {
  it('lists every group with what holds it and its pages, nested groups and groups inside tabs\' pages included', () => {
    expect(navigationGroups(DOCS).map((g) => ({ name: g.name, within: g.within, pages: g.pages }))).toEqual([
      { name: 'Start', within: ['Guides'], pages: ['index', 'quickstart'] },
      { name: 'Guides', within: ['Guides'], pages: ['guides/setup', 'guides/deploy'] },
      { name: 'Advanced', within: ['Guides', 'Guides'], pages: ['guides/advanced/tuning'] },
      { name: 'Start', within: ['API'], pages: ['api/intro'] },
    ]);
    expect(navigationGroups(DOCS)[1]!.entries).toEqual(['guides/setup', 'Advanced', 'guides/deploy']);
    expect(listedPages(DOCS)).toEqual(['index', 'quickstart', 'guides/overview', 'guides/setup', 'guides/advanced/tuning', 'guides/deploy', 'api/intro']);
  });

  it('reads navigation.groups, navigation.pages and mint.json\'s navigation array alike', () => {
    expect(navigationGroups('{"navigation": {"groups": [{"group": "A", "pages": ["a"]}]}}').map((g) => g.name)).toEqual(['A']);
    expect(navigationGroups('{"navigation": {"pages": ["x", {"group": "B", "pages": ["b"]}]}}').map((g) => g.name)).toEqual(['B']);
    expect(navigationGroups('{"navigation": [{"group": "C", "pages": ["c"]}]}').map((g) => g.name)).toEqual(['C']);
  });

  it('proposes the folder a group\'s pages share for a new page', () => {
    expect(groupFolder({ name: 'Guides', pages: ['guides/setup', 'guides/deploy'] })).toBe('guides');
    expect(groupFolder({ name: 'Start', pages: ['index', 'guides/x'] })).toBe('');
    expect(groupFolder({ name: 'Release Notes', pages: [] })).toBe('release-notes');
    expect(pageSlug('  What\'s new in Quire 2.0? ')).toBe('whats-new-in-quire-20');
  });

  it('says plainly when docs.json is not JSON or has no navigation', () => {
    expect(errorOf(() => navigationGroups('{"navigation": {')).message).toMatch(/^docs\.json is not valid JSON \(.+ at line 1, column \d+\); fix it first\.$/);
    expect(errorOf(() => addPage('{"name": "x"}', 'a', { group: 'A' })).code).toBe('invalid-config');
  });
});

describe('adding and removing pages', () => {
  it('adds a page to a group at an index, keeping comments and formatting elsewhere', () => {
    const out = addPage(DOCS, 'guides/install', { group: 'Guides', within: ['Guides'], index: 1 });
    expect(guidesTab(out)[1]!.pages).toEqual(['guides/setup', 'guides/install', { group: 'Advanced', pages: ['guides/advanced/tuning'] }, 'guides/deploy']);
    keepsComments(out);
    expect(out.split('\n').filter((l) => !DOCS.includes(l))).toEqual(['              "guides/install",']);
  });

  it('keeps each array\'s layout: tab indentation, a trailing comma, a one-line array, a same-line comment with its entry', () => {
    const tabbed =
      '{\n\t"navigation": {\n\t\t"groups": [\n\t\t\t{\n\t\t\t\t"group": "A",\n' +
      '\t\t\t\t"pages": [\n\t\t\t\t\t"a", // first\n\t\t\t\t\t"b",\n\t\t\t\t]\n\t\t\t}\n\t\t]\n\t}\n}\n';
    expect(addPage(tabbed, 'c', { group: 'A' })).toBe(tabbed.replace('"b",\n', '"b",\n\t\t\t\t\t"c",\n'));
    expect(addPage(tabbed, 'c', { group: 'A', index: 0 })).toBe(tabbed.replace('\t\t\t\t\t"a"', '\t\t\t\t\t"c",\n\t\t\t\t\t"a"'));
    expect(removePage(tabbed, 'a')).toBe(tabbed.replace('\t\t\t\t\t"a", // first\n', ''));
    const noTrailing = '{"navigation": {"groups": [{"group": "A", "pages": [\n  "a",\n  "b" // last\n]}]}}';
    expect(addPage(noTrailing, 'c', { group: 'A' })).toBe(noTrailing.replace('"b" // last', '"b", // last\n  "c"'));
    expect(removePage(noTrailing, 'b')).toBe('{"navigation": {"groups": [{"group": "A", "pages": [\n  "a"\n]}]}}');
    const oneLine = '{"navigation": {"groups": [{"group": "A", "pages": ["a", "b"]}]}}';
    expect(addPage(oneLine, 'c', { group: 'A', index: 1 })).toBe(oneLine.replace('"a", "b"', '"a", "c", "b"'));
    expect(removePage(oneLine, 'b')).toBe(oneLine.replace('"a", "b"', '"a"'));
  });

  it('adds at the end by default and before a named entry, also to a group in a tab\'s pages and to a nested group', () => {
    expect(guidesTab(addPage(DOCS, 'faq', { group: 'Start', within: ['Guides'] }))[0]!.pages).toEqual(['index', '/quickstart.mdx', 'faq']);
    expect(guidesTab(addPage(DOCS, 'guides/first', { group: 'Guides', within: ['Guides'], before: 'guides/setup' }))[1]!.pages[0]).toBe('guides/first');
    const api = json(addPage(DOCS, 'api/auth', { group: 'Start', within: ['API'], before: 'GET /users' })).navigation.tabs[1]!.pages![0];
    expect(api).toEqual({ group: 'Start', pages: ['api/intro', 'api/auth', 'GET /users'] });
    const nested = guidesTab(addPage(DOCS, 'guides/advanced/cache', { group: 'Advanced' }))[1]!.pages[1];
    expect(nested).toEqual({ group: 'Advanced', pages: ['guides/advanced/tuning', 'guides/advanced/cache'] });
  });

  it('creates the pages array of a group that has none', () => {
    const out = addPage('{\n  "navigation": {\n    "groups": [{ "group": "Empty" }]\n  }\n}\n', 'new-page', { group: 'Empty' });
    expect(json(out).navigation).toEqual({ groups: [{ group: 'Empty', pages: ['new-page'] }] });
  });

  it('refuses an unknown group, an ambiguous name, a page already in the group and a position outside the list', () => {
    const missing = errorOf(() => addPage(DOCS, 'x', { group: 'Nope' }));
    expect(missing).toMatchObject({ code: 'group-not-found', message: 'There is no group "Nope" in the navigation of docs.json.' });
    const twice = errorOf(() => addPage(DOCS, 'x', { group: 'Start' }));
    expect(twice.code).toBe('group-ambiguous');
    expect(twice.message).toContain('(in Guides; API)');
    expect(errorOf(() => addPage(DOCS, '/index.mdx', { group: 'Start', within: ['Guides'] }))).toMatchObject({
      code: 'already-listed',
      message: 'index is already listed in the group "Start".',
    });
    expect(errorOf(() => addPage(DOCS, 'x', { group: 'Advanced', index: 5 })).code).toBe('bad-position');
    expect(errorOf(() => addPage(DOCS, 'GET /users', { group: 'Advanced' })).code).toBe('invalid-page');
  });

  it('removes a page everywhere it is listed, a group root naming it too', () => {
    const twice = addPage(DOCS, 'guides/setup', { group: 'Start', within: ['API'] });
    const out = removePage(twice, '/guides/setup.mdx');
    expect(listedPages(out)).not.toContain('guides/setup');
    expect(guidesTab(out)[1]!.pages[0]).toEqual({ group: 'Advanced', pages: ['guides/advanced/tuning'] });
    keepsComments(out);
    const rootless = removePage(DOCS, 'guides/overview');
    expect(guidesTab(rootless)[1]!.root).toBeUndefined();
    expect(errorOf(() => removePage(DOCS, 'ghost'))).toMatchObject({ code: 'page-not-listed', message: 'ghost is not listed in the navigation.' });
  });
});

describe('renaming and moving pages', () => {
  it('renames a page path everywhere, each entry keeping its leading slash and extension', () => {
    const out = renamePage(DOCS, 'quickstart', 'start/quickstart');
    expect(guidesTab(out)[0]!.pages).toEqual(['index', '/start/quickstart.mdx']);
    expect(guidesTab(renamePage(DOCS, 'guides/overview', 'guides/intro'))[1]!.root).toBe('guides/intro');
    keepsComments(out);
  });

  it('refuses to rename to a path already listed, or a path that is not listed', () => {
    expect(errorOf(() => renamePage(DOCS, 'index', 'guides/setup'))).toMatchObject({
      code: 'already-listed',
      message: 'guides/setup is already listed in the navigation.',
    });
    expect(errorOf(() => renamePage(DOCS, 'ghost', 'x')).code).toBe('page-not-listed');
  });

  it('moves a page to another group in another tab, keeping how it was written', () => {
    const out = movePage(DOCS, 'quickstart', { group: 'Start', within: ['API'], index: 0 });
    expect(guidesTab(out)[0]!.pages).toEqual(['index']);
    expect(json(out).navigation.tabs[1]!.pages![0]).toEqual({ group: 'Start', pages: ['/quickstart.mdx', 'api/intro', 'GET /users'] });
    keepsComments(out);
  });

  it('reorders a page within its group, the index counted without the page', () => {
    const down = movePage(DOCS, 'guides/setup', { group: 'Guides', within: ['Guides'], index: 2 });
    expect(guidesTab(down)[1]!.pages).toEqual([{ group: 'Advanced', pages: ['guides/advanced/tuning'] }, 'guides/deploy', 'guides/setup']);
    const up = movePage(DOCS, 'guides/deploy', { group: 'Guides', within: ['Guides'], before: 'guides/setup' });
    expect(guidesTab(up)[1]!.pages[0]).toBe('guides/deploy');
    expect(guidesTab(up)[1]!.pages).toHaveLength(3);
    const after = movePage(DOCS, 'guides/setup', { group: 'Guides', within: ['Guides'], after: 'guides/deploy' });
    expect(guidesTab(after)[1]!.pages.at(-1)).toBe('guides/setup');
  });

  it('moves out of a nested group into its parent, and refuses a move onto a group already listing the page', () => {
    const out = movePage(DOCS, 'guides/advanced/tuning', { group: 'Guides', within: ['Guides'] });
    expect(guidesTab(out)[1]!.pages).toEqual(['guides/setup', { group: 'Advanced', pages: [] }, 'guides/deploy', 'guides/advanced/tuning']);
    const both = addPage(DOCS, 'index', { group: 'Start', within: ['API'] });
    expect(errorOf(() => movePage(both, 'index', { group: 'Start', within: ['API'] }, { group: 'Start', within: ['Guides'] })).code).toBe('already-listed');
  });
});

describe('groups', () => {
  it('reorders a group within its parent, moving its text with the comments inside it', () => {
    const out = reorderGroup(DOCS, { group: 'Guides', within: ['Guides'] }, { index: 0 });
    expect(guidesTab(out).map((g) => g.group)).toEqual(['Guides', 'Start']);
    keepsComments(out);
    expect(out).toContain('            "root": "guides/overview",\n');
    const nested = reorderGroup(DOCS, { group: 'Advanced' }, { before: 'guides/setup' });
    expect(guidesTab(nested)[1]!.pages[0]).toEqual({ group: 'Advanced', pages: ['guides/advanced/tuning'] });
  });

  it('adds a new empty group to the first place holding groups, or to a named tab', () => {
    expect(guidesTab(addGroup(DOCS, 'Recipes')).map((g) => g.group)).toEqual(['Start', 'Guides', 'Recipes']);
    expect(json(addGroup(DOCS, 'Webhooks', { within: ['API'] })).navigation.tabs[1]!.pages!.at(-1)).toEqual({ group: 'Webhooks', pages: [] });
    expect(errorOf(() => addGroup(DOCS, 'Start', { within: ['Guides'] })).code).toBe('group-exists');
    const flat = addGroup('{"navigation": [{"group": "A", "pages": []}]}', 'B');
    expect(parse(flat)).toEqual({ navigation: [{ group: 'A', pages: [] }, { group: 'B', pages: [] }] });
  });
});

describe('redirects', () => {
  it('adds a redirect, creating the redirects array, and keeps comments', () => {
    const out = addRedirect(DOCS, { source: 'quickstart', destination: '/start/quickstart' });
    expect(json(out).redirects).toEqual([{ source: '/quickstart', destination: '/start/quickstart' }]);
    keepsComments(out);
  });

  it('keeps redirects free of chains and loops: earlier redirects follow the page, renaming back drops the old one', () => {
    let out = addRedirect(DOCS, { source: '/a', destination: '/b' });
    out = addRedirect(out, { source: '/b', destination: '/c' });
    expect(json(out).redirects).toEqual([{ source: '/a', destination: '/c' }, { source: '/b', destination: '/c' }]);
    out = addRedirect(out, { source: '/c', destination: '/a' });
    expect(json(out).redirects).toEqual([{ source: '/b', destination: '/a' }, { source: '/c', destination: '/a' }]);
    expect(addRedirect(out, { source: '/c', destination: '/a' })).toBe(out);
    expect(errorOf(() => addRedirect(DOCS, { source: '/x', destination: 'x' })).code).toBe('invalid-page');
  });
});
