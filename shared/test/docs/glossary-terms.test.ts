import { describe, expect, it } from 'vitest';
import { markGlossaryTerms } from '../../src/docs/markdown/glossary-terms';

const entries = [
  { term: 'API key', definition: 'A secret <b>token</b> & more.' },
  { term: 'webhook', definition: 'An HTTP callback.' },
  { term: 'GitHub', definition: 'Code hosting.', caseSensitive: true },
];

describe('glossary terms on pages', () => {
  it('marks the first use of each term in running text with a focusable dfn described by a tooltip', () => {
    const html = markGlossaryTerms('<p>Create an <strong>API key</strong>. Another API key here. A webhook, then a Webhook.</p>', entries);
    expect(html.match(/<dfn/g)).toHaveLength(2);
    expect(html).toContain('<span class="q-glossary"><dfn tabindex="0" aria-describedby="q-glossary-1">API key</dfn><span role="tooltip" id="q-glossary-1" class="q-glossary-tip">');
    expect(html).toContain('<dfn tabindex="0" aria-describedby="q-glossary-2">webhook</dfn>');
    expect(html).toContain('Another API key here.');
  });

  it('escapes the definition as text', () => {
    const html = markGlossaryTerms('<p>An API key.</p>', entries);
    expect(html).not.toContain('<b>');
    expect(html).toMatch(/A secret &#x3C;b>token&#x3C;\/b> &#x26; more\./);
  });

  it('leaves code, links, headings and existing definitions alone, and marks the next use in prose', () => {
    const html = markGlossaryTerms('<h2>API key</h2><p><code>API key</code> <a href="/k">API key</a> then the API key.</p>', entries);
    expect(html).toContain('<h2>API key</h2><p><code>API key</code> <a href="/k">API key</a> then the <span class="q-glossary"><dfn');
  });

  it('respects case where the glossary says so, and whole words only', () => {
    expect(markGlossaryTerms('<p>Github and webhooks.</p>', entries)).toBe('<p>Github and webhooks.</p>');
    expect(markGlossaryTerms('<p>On GitHub.</p>', entries)).toContain('<dfn tabindex="0" aria-describedby="q-glossary-1">GitHub</dfn>');
  });

  it('returns the page untouched when no term is used or none has a definition', () => {
    const page = '<p>Nothing &amp; here.</p>';
    expect(markGlossaryTerms(page, entries)).toBe(page);
    expect(markGlossaryTerms('<p>An API key.</p>', [{ term: 'API key', definition: ' ' }])).toBe('<p>An API key.</p>');
  });
});
