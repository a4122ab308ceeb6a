import { describe, expect, it } from 'vitest';
import { inlineMarksHtml, inlineMarksText } from '../../../src/docs/markdown/inline-marks';
import { render } from './render-helpers';

/** Inline Markdown in title attributes (Step, Card, Tile, Accordion): marks rendered, nothing else. */
describe('inlineMarksHtml', () => {
  it.each([
    ['Run `npx quire init`', 'Run <code>npx quire init</code>'],
    ['The **fast** path', 'The <strong>fast</strong> path'],
    ['a *b* and _c_', 'a <em>b</em> and <em>c</em>'],
    ['snake_case_name stays', 'snake_case_name stays'],
    ['5 * 3 * 2', '5 * 3 * 2'],
    ['`` a`b ``', '<code>a`b</code>'],
    ['unclosed `code', 'unclosed `code'],
    ['`**not bold**`', '<code>**not bold**</code>'],
  ])('%s', (input, expected) => {
    expect(inlineMarksHtml(input)).toBe(expected);
  });

  it('escapes HTML and never produces links or tags of its own', () => {
    expect(inlineMarksHtml('<img src=x onerror=alert(1)> `<b>`')).toBe('&lt;img src=x onerror=alert(1)&gt; <code>&lt;b&gt;</code>');
    expect(inlineMarksHtml('[link](javascript:alert(1))')).toBe('[link](javascript:alert(1))');
  });

  it('gives the plain text for ids', () => {
    expect(inlineMarksText('Run `init` **now**')).toBe('Run init now');
  });
});

describe('titles of components', () => {
  it('render inline code in Step, Card and Accordion titles instead of literal backticks', async () => {
    const page = await render(
      '<Steps>\n<Step title="Run `quire init`">a</Step>\n</Steps>\n\n<Card title="Use `docs.json`" href="/x">b</Card>\n\n<Accordion title="Why `git`?">c</Accordion>',
    );
    expect(page.html).toContain('<div class="q-step-title">Run <code>quire init</code></div>');
    expect(page.html).toContain('id="run-quire-init"');
    expect(page.html).toContain('<a class="q-card-title q-card-link" href="/x">Use <code>docs.json</code></a>');
    expect(page.html).toContain('<span class="q-accordion-title">Why <code>git</code>?</span>');
    expect(page.html).not.toContain('`');
  });
});
