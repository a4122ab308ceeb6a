import { describe, expect, it } from 'vitest';
import { memoryFiles } from '../../../src/docs/files';
import { loadSiteConfig } from '../../../src/docs/config/load-site-config';
import { DocsError, type NavNode } from '../../../src/docs/types';

const load = (config: object, extra: Record<string, string> = {}) => loadSiteConfig(memoryFiles({ 'mint.json': JSON.stringify(config), ...extra }));

const shape = (nodes: NavNode[]): unknown[] =>
  nodes.map((n) =>
    n.type === 'page' ? n.path : n.type === 'link' ? `link:${n.title}` : { [n.type === 'division' ? `${n.kind}:${n.title}` : `group:${n.title}`]: shape(n.children) },
  );

const group = (name: string, pages: unknown, extra: object = {}) => ({ group: name, pages, ...extra });

describe('loadSiteConfig: legacy mint.json', () => {
  it('reads the top-level navigation array of nested groups, without a theme', () => {
    const { config, warnings } = load({ name: 'Old', navigation: [group('Start', ['intro', group('Deep', ['deep/a'])])] });
    expect(config).toMatchObject({ source: 'mint.json', name: 'Old', colors: { primary: '#16A34A' } });
    expect(config.theme).toBeUndefined();
    expect(warnings).toEqual([]);
    expect(shape(config.navigation)).toEqual([{ 'group:Start': ['intro', { 'group:Deep': ['deep/a'] }] }]);
  });

  it('gives groups to tabs by folder prefix; the rest form the primary tab', () => {
    const { config } = load({
      name: 'X',
      primaryTab: { name: 'Guides' },
      tabs: [{ name: 'API Reference', url: 'api-reference' }, { name: 'Blog', url: 'https://blog.x.dev' }, { name: 'Empty', url: 'empty' }],
      navigation: [group('Start', ['intro']), group('Health', ['api-reference/health']), group('More', ['more/a'])],
    });
    expect(shape(config.navigation)).toEqual([
      { 'tab:Guides': [{ 'group:Start': ['intro'] }, { 'group:More': ['more/a'] }] },
      { 'tab:API Reference': [{ 'group:Health': ['api-reference/health'] }] },
      { 'tab:Blog': [] },
    ]);
    expect(config.navigation[2]).toMatchObject({ href: 'https://blog.x.dev' });
  });

  it('makes folder anchors divisions under topAnchor and other anchors links', () => {
    const { config } = load({
      name: 'X',
      topAnchor: { name: 'Docs', icon: 'book' },
      anchors: [{ name: 'SDK', url: 'sdk', icon: 'code' }, { name: 'Community', url: 'https://discord.gg/x', icon: 'discord' }],
      navigation: [group('Start', ['intro']), group('SDK', ['sdk/node'])],
    });
    expect(shape(config.navigation)).toEqual([
      { 'anchor:Docs': [{ 'group:Start': ['intro'] }] },
      { 'anchor:SDK': [{ 'group:SDK': ['sdk/node'] }] },
      { 'anchor:Community': [] },
    ]);
    expect(config.navigation[0]).toMatchObject({ icon: 'book' });
    expect(config.navigation[2]).toMatchObject({ href: 'https://discord.gg/x', icon: 'discord' });
  });

  it('turns versions and group versions into version divisions, the first being the default', () => {
    const { config } = load({
      name: 'X',
      versions: ['v2', 'v1', 'v0'],
      navigation: [group('', ['v1/intro'], { version: 'v1' }), group('', ['v2/intro'], { version: 'v2' }), group('Help', ['help'])],
    });
    expect(shape(config.navigation)).toEqual([
      { 'version:v2': [{ 'group:': ['v2/intro'] }, { 'group:Help': ['help'] }] },
      { 'version:v1': [{ 'group:': ['v1/intro'] }, { 'group:Help': ['help'] }] },
      { 'version:v0': [{ 'group:Help': ['help'] }] },
    ]);
    expect(config.navigation.map((n) => n.type === 'division' && n.default === true)).toEqual([true, false, false]);
  });

  it('honours {name, default} versions and shows tabs only in their version', () => {
    const { config } = load({
      name: 'X',
      versions: [{ name: 'v2' }, { name: 'v1', default: true }],
      tabs: [{ name: 'API', url: 'api', version: 'v2' }],
      navigation: [group('A', ['a'], { version: 'v2' }), group('API', ['api/x'], { version: 'v2' }), group('Old API', ['api/y'], { version: 'v1' })],
    });
    expect(shape(config.navigation)).toEqual([
      { 'version:v2': [{ 'tab:Documentation': [{ 'group:A': ['a'] }] }, { 'tab:API': [{ 'group:API': ['api/x'] }] }] },
      { 'version:v1': [{ 'group:Old API': ['api/y'] }] },
    ]);
    expect(config.navigation[1]).toMatchObject({ default: true });
  });

  it('warns about a group version that is not declared and shows the group in the default version', () => {
    const { config, warnings } = load({ name: 'X', versions: ['v2'], navigation: [group('G', ['a'], { version: 'v9' })] });
    expect(shape(config.navigation)).toEqual([{ 'version:v2': [{ 'group:G': ['a'] }] }]);
    expect(warnings[0]!.message).toContain('navigation[0].version "v9"');
  });

  it('maps topbar links, the CTA button, footer socials, modeToggle and openapi', () => {
    const { config, warnings } = load({
      name: 'X',
      colors: { primary: '#059669', background: { dark: '#000000' }, anchors: { from: '#111111', to: '#222222' } },
      topbarLinks: [{ name: 'GitHub', url: 'https://github.com/x' }],
      topbarCtaButton: { name: 'Console', url: 'https://app.x.dev' },
      footerSocials: { github: 'https://github.com/x' },
      modeToggle: { default: 'dark', isHidden: true },
      openapi: '/openapi.json',
      backgroundImage: '/background.png',
      navigation: [],
    });
    expect(config).toMatchObject({
      colors: { primary: '#059669', background: { dark: '#000000' } },
      navbar: { links: [{ label: 'GitHub', href: 'https://github.com/x' }], primary: { label: 'Console', href: 'https://app.x.dev' } },
      footer: { socials: [{ type: 'github', href: 'https://github.com/x' }], links: [] },
      appearance: { default: 'dark', strict: true },
      openapi: ['/openapi.json'],
    });
    expect(warnings.map((w) => w.message)).toEqual(['mint.json: backgroundImage "/background.png" is not a file of the docs.']);
  });

  it('names the field and expectation on a wrong type', () => {
    try {
      load({ name: 'X', navigation: [group('G', 'intro')] });
      expect.unreachable();
    } catch (err) {
      expect(err).toBeInstanceOf(DocsError);
      expect((err as DocsError).message).toBe('mint.json: navigation[0].pages must be an array of page paths and groups, got a string');
    }
  });
});
