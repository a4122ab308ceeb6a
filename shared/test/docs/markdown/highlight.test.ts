/** Code blocks: shiki in light and dark themes, title bar, line highlights, copy button, text blocks. */
import { beforeAll, describe, expect, it } from 'vitest';
import { createCodeHighlighter, type CodeHighlighter } from '../../../src/docs/markdown/highlight';
import { parseFenceMeta } from '../../../src/docs/markdown/fence-meta';

let hl: CodeHighlighter;
beforeAll(async () => {
  hl = await createCodeHighlighter();
});

describe('createCodeHighlighter', () => {
  it('colors tokens for both themes (light inline, dark as --shiki-dark)', async () => {
    const html = await hl.highlight('const answer = 42;', 'ts', '');
    expect(html).toContain('shiki-themes github-light github-dark');
    expect(html).toMatch(/--shiki-dark-bg:#24292e/i);
    // `const` (keyword) and `42` (constant) get different light colors on the very first use of the grammar
    const colors = [...html.matchAll(/<span style="color:(#[0-9A-F]+);--shiki-dark:#[0-9A-F]+">([^<]*)<\/span>/gi)].map((m) => [m[2]!.trim(), m[1]]);
    const byToken = Object.fromEntries(colors);
    expect(byToken.const).toBe('#D73A49');
    expect(byToken['42']).toBe('#005CC5');
  });

  it('adds a title bar, highlighted lines and a copy button from the fence meta', async () => {
    const html = await hl.highlight('a\nb\nc\n', 'js', 'title="app.js" {1,3}');
    expect(html).toContain('<figcaption class="q-code-title">app.js</figcaption>');
    expect(html.match(/class="line highlighted"/g)).toHaveLength(2);
    expect(html).toContain('data-q-copy');
    expect(await hl.highlight('x', 'js', 'nocopy')).not.toContain('data-q-copy');
  });

  it('renders unknown languages as escaped plain text', async () => {
    const html = await hl.highlight('<b>&</b>', 'no-such-language', '');
    expect(html).toContain('data-lang="no-such-language"');
    expect(html).not.toContain('<b>');
  });

  it('renders mermaid and math as labelled text blocks', async () => {
    const mermaid = await hl.highlight('graph TD; A-->B', 'mermaid', '');
    expect(mermaid).toContain('q-textblock-mermaid');
    expect(mermaid).toContain('Diagram (Mermaid)');
    expect(mermaid).toContain('A--&gt;B');
    expect(await hl.highlight('x^2', 'math', '')).toContain('Math (LaTeX)');
  });
});

describe('parseFenceMeta', () => {
  it('reads titles, ranges and flags', () => {
    const m = parseFenceMeta('src/app.ts {1,3-4} wrap lines');
    expect(m.title).toBe('src/app.ts');
    expect([...m.highlight]).toEqual([1, 3, 4]);
    expect(m.wrap && m.lineNumbers).toBe(true);
    expect(parseFenceMeta('title="My file" highlight={2}').title).toBe('My file');
    expect(parseFenceMeta('{1-999999999}').highlight.size).toBeLessThanOrEqual(10_001);
  });
});
