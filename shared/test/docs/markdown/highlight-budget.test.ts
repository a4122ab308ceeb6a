/** Code highlighting has a deterministic work budget per line, block and page; past it code stays readable, uncolored, with a warning. */
import { beforeAll, describe, expect, it } from 'vitest';
import { memoryFiles } from '../../../src/docs/files';
import { createCodeHighlighter, type CodeHighlighter } from '../../../src/docs/markdown/highlight';
import { renderPage } from '../../../src/docs/markdown/render-page';
import type { RenderedPage } from '../../../src/docs/types';
import { render } from './render-helpers';

/** Renders `source` as `filePath` with a highlighter of its own limits. */
async function renderWith(hl: CodeHighlighter, source: string, filePath = 'guide.mdx'): Promise<RenderedPage> {
  return renderPage({ filePath, source, files: memoryFiles({ [filePath]: source }), highlighter: hl });
}

/** The text of each `<span class="line">` of the page's code, tags removed and `&#x3C;` decoded. */
function codeLines(html: string): string[] {
  return html
    .split('<span class="line')
    .slice(1)
    .map((l) => l.replace(/^[^>]*>/, '').replace(/<\/code>[\s\S]*$/, '').replace(/<[^>]+>/g, '').replace(/\n$/, '').replaceAll('&#x3C;', '<'));
}

/** Whether 1-based code line `n` of the page carries a light color (a highlighted token). */
function colored(html: string, n: number): boolean {
  return /style="color:#/.test(html.split('<span class="line').slice(1)[n - 1] ?? '');
}

const TS_LINES = Array.from({ length: 12 }, (_, i) => `const value${String(i).padStart(2, '0')} = ${i + 100};`); // 20 characters each

describe('highlighting budget', () => {
  let small: CodeHighlighter;
  beforeAll(async () => {
    small = await createCodeHighlighter({ blockChars: 100, pageChars: 150 });
  });

  it('renders a crafted line that makes the cpp grammar crawl uncolored, with a warning, and colors the rest', async () => {
    // 8,000 spaces between two words: the cpp grammar's cost grows with the square of such a line (18 s on a loaded worker)
    const crafted = `a${' '.repeat(8_000)}b`;
    const source = ['# Crafted', '', '```cpp', 'int first = 1;', crafted, crafted, crafted, 'int last = 2;', '```', ''].join('\n');
    const page = await render(source, { filePath: 'crafted.md' });
    expect(page.warnings).toEqual([
      expect.objectContaining({ file: 'crafted.md', line: 5, kind: 'highlight', message: expect.stringMatching(/^crafted\.md:5: a code line .* without colors/) }),
    ]);
    expect(page.warnings[0]!.message).toContain('2 more');
    expect(codeLines(page.html)).toEqual(['int first = 1;', crafted, crafted, crafted, 'int last = 2;']);
    expect(colored(page.html, 1)).toBe(true);
    expect(colored(page.html, 5)).toBe(true);
  });

  it('colors a block up to its cap and shows the rest as plain text, keeping every line and line highlights', async () => {
    const source = ['# Long', '', '```ts {2,9}', ...TS_LINES, '```', ''].join('\n');
    const page = await renderWith(small, source);
    expect(codeLines(page.html)).toEqual(TS_LINES);
    // 100 characters: four lines of 20 plus their newlines fit, the fifth does not
    expect([1, 2, 3, 4].map((n) => colored(page.html, n))).toEqual([true, true, true, true]);
    expect([5, 6, 12].map((n) => colored(page.html, n))).toEqual([false, false, false]);
    expect(page.html.match(/class="line highlighted"/g)).toHaveLength(2);
    expect(page.warnings).toEqual([
      { file: 'guide.mdx', line: 8, kind: 'highlight', message: 'guide.mdx:8: the code block is longer than 100 characters; from here on it is shown without colors' },
    ]);
  });

  it('shares one allowance between the blocks of a page, plain-text blocks excepted', async () => {
    const block = (lang: string) => ['```' + lang, ...TS_LINES.slice(0, 4), '```'].join('\n');
    const source = ['# Page', block('text'), block('ts'), block('ts'), ''].join('\n\n');
    const page = await renderWith(small, source);
    const html = page.html;
    // block 1 is plain text (free); block 2 uses 84 of 150; block 3 gets 66: three lines (fence at 17, plain from 21)
    expect([5, 6, 7, 8].map((n) => colored(html, n))).toEqual([true, true, true, true]);
    expect([9, 10, 11, 12].map((n) => colored(html, n))).toEqual([true, true, true, false]);
    expect(page.warnings.map((w) => [w.line, w.message])).toEqual([[21, expect.stringContaining("the page's code blocks exceed 150 characters")]]);
    // a new page starts with a full allowance
    expect((await renderWith(small, source)).warnings).toHaveLength(1);
  });
});
