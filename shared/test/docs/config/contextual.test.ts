import { describe, expect, it } from 'vitest';
import { memoryFiles } from '../../../src/docs/files';
import { loadSiteConfig } from '../../../src/docs/config/load-site-config';
import { docsJsonSchema } from '../../../src/docs/config/docs-json-schema';
import { thrown } from '../../helpers/thrown';

/** docs.json `contextual.options` (Mintlify's contextual menu): the page actions of every page. */

const base = { theme: 'mint', name: 'Acme', colors: { primary: '#0D9373' }, navigation: { pages: ['index'] } };
const load = (config: object) => loadSiteConfig(memoryFiles({ 'docs.json': JSON.stringify(config), 'index.mdx': '# Home' }));

describe('docs.json contextual.options', () => {
  it('is absent when docs.json has no contextual (the site then shows the default actions)', () => {
    expect(load(base).config.contextual).toBeUndefined();
  });

  it('keeps the written order of the built-in actions, each once', () => {
    const { config, warnings } = load({ ...base, contextual: { options: ['claude', 'copy', 'mcp', 'cursor', 'vscode', 'perplexity', 'view', 'chatgpt', 'copy'] } });
    expect(config.contextual?.map((o) => o.id)).toEqual(['claude', 'copy', 'mcp', 'cursor', 'vscode', 'perplexity', 'view', 'chatgpt']);
    expect(warnings).toEqual([]);
  });

  it('can turn the actions off with an empty list', () => {
    expect(load({ ...base, contextual: { options: [] } }).config.contextual).toEqual([]);
  });

  it("skips an action Quire does not offer with a warning, never failing the build", () => {
    const { config, warnings } = load({ ...base, contextual: { options: ['copy', 'assistant'] } });
    expect(config.contextual).toEqual([{ id: 'copy' }]);
    expect(warnings).toEqual([expect.objectContaining({ kind: 'config', message: expect.stringContaining('contextual.options[1] "assistant"') })]);
  });

  it('reads a custom option as a link, with base and query joined', () => {
    const { config } = load({
      ...base,
      contextual: {
        options: [
          'copy',
          { title: 'Open in Perplexity', description: 'Ask questions', icon: '/p.svg', href: { base: 'https://www.perplexity.ai/search', query: [{ key: 'q', value: 'Ask about https://acme.dev$path.md' }] } },
          { title: 'Status', href: 'https://status.acme.dev' },
        ],
      },
    });
    expect(config.contextual).toEqual([
      { id: 'copy' },
      { id: 'custom', title: 'Open in Perplexity', description: 'Ask questions', href: 'https://www.perplexity.ai/search?q=Ask%20about%20https%3A%2F%2Facme.dev$path.md' },
      { id: 'custom', title: 'Status', href: 'https://status.acme.dev' },
    ]);
  });

  it('skips a custom option whose link is not http(s), with a warning', () => {
    const { config, warnings } = load({ ...base, contextual: { options: [{ title: 'Bad', href: 'javascript:alert(1)' }] } });
    expect(config.contextual).toEqual([]);
    expect(warnings[0]?.message).toContain('contextual.options[0].href must be an http(s) URL');
  });

  it('refuses a contextual of the wrong shape with a clear error naming the field', () => {
    expect(thrown(() => load({ ...base, contextual: { options: 'copy' } })).message).toContain('contextual.options must be an array of options');
    expect(thrown(() => load({ ...base, contextual: { options: [42] } })).message).toContain('contextual.options[0]');
  });

  it('is described by the JSON Schema editors validate docs.json with', () => {
    const properties = (docsJsonSchema as { properties: Record<string, unknown> }).properties;
    expect(properties.contextual).toBeDefined();
  });
});
