import { describe, expect, it } from 'vitest';
import { loadSiteConfig } from '../../../src/docs/config/load-site-config';
import { listPageFiles } from '../../../src/docs/config/page-files';
import { checkNavigation } from '../../../src/docs/nav/check-navigation';
import { walkPages } from '../../../src/docs/nav/walk';
import { CORPUS_DIR, dirFiles } from '../../helpers/dir-files';

/** Each corpus: what its SOURCE.md states (page entries in navigation, content pages) and the breakage listed there. */
const corpora = [
  {
    name: 'pezzo',
    source: 'mint.json',
    navEntries: 16,
    pages: 22, // 23 content pages minus README.md
    configWarnings: ['logo.light "/logo/light.svg"', 'backgroundImage "/background.png"'],
    navWarnings: [] as string[],
  },
  {
    name: 'agentops',
    source: 'mint.json',
    navEntries: 87,
    pages: 126, // 128 minus README.md and images/external/README.md
    configWarnings: [] as string[],
    navWarnings: ['missing-page: Navigation entry "v1/integrations/agents_sdk"'],
  },
  {
    name: 'trigger-dev',
    source: 'docs.json',
    navEntries: 315,
    pages: 325, // 326 minus README.md
    configWarnings: ['logo.light "/logo/light.png"'],
    navWarnings: ['duplicate-nav-entry: Navigation lists "guides/community/sveltekit" more than once'],
  },
];

describe.each(corpora)('corpus $name', (c) => {
  const files = dirFiles(`${CORPUS_DIR}/${c.name}`);
  const { config, warnings } = loadSiteConfig(files);
  const pages = listPageFiles(files);

  it('loads without a DocsError and counts the navigation entries its SOURCE.md states', () => {
    expect(config.source).toBe(c.source);
    expect([...walkPages(config.navigation)]).toHaveLength(c.navEntries);
    expect(pages).toHaveLength(c.pages);
    expect(pages).not.toContain('README.md');
  });

  it('reports the missing config images as warnings', () => {
    expect(warnings.map((w) => w.kind)).toEqual(c.configWarnings.map(() => 'missing-image'));
    c.configWarnings.forEach((text, i) => expect(warnings[i]!.message).toContain(text));
  });

  it('reports the broken navigation entries as warnings', () => {
    const navWarnings = checkNavigation(config.navigation, pages, c.source);
    expect(navWarnings.map((w) => `${w.kind}: ${w.message}`)).toEqual(c.navWarnings.map((t) => expect.stringContaining(t)));
  });
});

describe('corpus shapes', () => {
  it('agentops: versions v2 (default), v1, v0 with the "" groups kept', () => {
    const { config } = loadSiteConfig(dirFiles(`${CORPUS_DIR}/agentops`));
    expect(config.navigation.map((n) => n.type === 'division' && [n.kind, n.title, n.default === true, n.children.length])).toEqual([
      ['version', 'v2', true, 7],
      ['version', 'v1', false, 6],
      ['version', 'v0', false, 0],
    ]);
  });

  it('pezzo: the API Reference tab owns the api-reference groups', () => {
    const { config } = loadSiteConfig(dirFiles(`${CORPUS_DIR}/pezzo`));
    expect(config.navigation.map((n) => n.type === 'division' && [n.title, n.children.map((g) => ('title' in g ? g.title : ''))])).toEqual([
      ['Documentation', ['Getting Started', 'Features', 'Deployment']],
      ['API Reference', ['Health', 'Prompts', 'Reporting', 'Cache']],
    ]);
    expect(config.openapi).toEqual(['/openapi.json']);
  });

  it('trigger-dev: three dropdowns, icon objects read as names, 42 redirects, two specs', () => {
    const { config } = loadSiteConfig(dirFiles(`${CORPUS_DIR}/trigger-dev`));
    expect(config.navigation.map((n) => n.type === 'division' && `${n.kind}:${n.title}`)).toEqual([
      'dropdown:Documentation',
      'dropdown:API reference',
      'dropdown:Guides & examples',
    ]);
    const aiAgents = [...walkPages(config.navigation)].find((v) => v.node.path === 'guides/ai-agents/overview')!.ancestors.at(-1);
    expect(aiAgents).toMatchObject({ type: 'group', title: 'AI Agents', icon: 'microchip-ai' });
    expect(config.redirects).toHaveLength(42);
    expect(config.openapi).toEqual(['openapi.yml', 'v3-openapi.yaml']);
    expect(config.navbar.primary).toEqual({ label: 'GitHub', href: 'https://github.com/triggerdotdev/trigger.dev' });
  });
});
