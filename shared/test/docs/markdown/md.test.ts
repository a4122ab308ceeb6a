/** `.md` pages through markdown-it: same features and the same sanitizer as MDX. */
import { describe, expect, it } from 'vitest';
import { render } from './render-helpers';

describe('.md pages', () => {
  it('renders Markdown with highlighted code, heading ids, tables and a toc', async () => {
    const page = await render('# Guide\n\n## First step\n\n```ts title="a.ts" {1}\nconst a = 1\n```\n\n| a | b |\n|---|---|\n| 1 | 2 |\n', { filePath: 'guide.md' });
    expect(page.title).toBe('Guide');
    expect(page.toc).toEqual([{ depth: 2, id: 'first-step', text: 'First step' }]);
    expect(page.html).toContain('<figcaption class="q-code-title"><span class="q-code-title-text">a.ts</span>');
    expect(page.html).toContain('class="line highlighted"');
    expect(page.html).toContain('<div class="q-table"><table>');
  });

  it('keeps raw HTML but sanitizes it', async () => {
    const page = await render('<div class="x">ok</div>\n\n<script>alert(1)</script>\n\n<img src="/a.png" onerror="alert(1)">\n\n<placeholder> text', { filePath: 'a.md' });
    expect(page.html).toContain('<div class="x">ok</div>');
    expect(page.html).not.toMatch(/<script|onerror|alert/);
    expect(page.assets).toEqual(['/a.png']);
  });

  it('never treats { } or < > placeholders as MDX', async () => {
    const page = await render('Set {API_KEY} and <your-token> here.\n', { filePath: 'a.md' });
    expect(page.html).toContain('{API_KEY}');
    expect(page.warnings).toEqual([]);
  });

  it('renders mermaid fences as a labelled text block', async () => {
    const page = await render('```mermaid\ngraph TD; A-->B\n```\n', { filePath: 'a.md' });
    expect(page.html).toContain('Diagram (Mermaid)');
  });

  it('does not let page text forge the placeholders used for code blocks', async () => {
    const fake = '\uE000q0123456789abcdef:0\uE001';
    const page = await render(`before ${fake} after\n\n\`\`\`js\nlet a = 1\n\`\`\`\n`, { filePath: 'a.md' });
    expect(page.html).toContain(fake);
    expect(page.html.match(/<figure class="q-code"/g)).toHaveLength(1);
  });
});
