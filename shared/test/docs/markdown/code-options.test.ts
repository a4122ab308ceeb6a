/** Mintlify's code block options: fence meta parsing, line marks, `[!code ...]` notations, copy button placement. */
import { beforeAll, describe, expect, it } from 'vitest';
import { parseFenceMeta } from '../../../src/docs/markdown/fence-meta';
import { createCodeHighlighter, type CodeHighlighter } from '../../../src/docs/markdown/highlight';
import { render } from './render-helpers';

let hl: CodeHighlighter;
beforeAll(async () => {
  hl = await createCodeHighlighter();
});

/** The class attribute of each `.line` span of a rendered block. */
function lineClasses(html: string): string[] {
  return [...html.matchAll(/<span class="(line[^"]*)"/g)].map((m) => m[1]!);
}

describe('parseFenceMeta', () => {
  it('reads Mintlify options in every quoting style', () => {
    const m = parseFenceMeta('"server.ts" focus={2,4-5} highlight="1" lines wrap expandable icon="js" theme={null}');
    expect(m.title).toBe('server.ts');
    expect([...m.focus]).toEqual([2, 4, 5]);
    expect([...m.highlight]).toEqual([1]);
    expect(m).toMatchObject({ lineNumbers: true, wrap: true, expandable: true, noCopy: false });
    expect([...parseFenceMeta("focus='3'").focus]).toEqual([3]);
    expect([...parseFenceMeta('app.ts {1,3-4}').highlight]).toEqual([1, 3, 4]);
  });

  it('takes boolean options written with a value, and false as off', () => {
    expect(parseFenceMeta('wrap={true} lines="true" expandable=true')).toMatchObject({ wrap: true, lineNumbers: true, expandable: true, title: '' });
    expect(parseFenceMeta('wrap={false} lines="false"')).toMatchObject({ wrap: false, lineNumbers: false, title: '' });
  });

  it('caps huge ranges instead of allocating them', () => {
    expect(parseFenceMeta('focus={1-99999999}').focus.size).toBe(10_001);
  });
});

describe('line marks', () => {
  it('focus={...} marks the focused lines and the block, highlight the highlighted ones', async () => {
    const html = await hl.highlight('a\nb\nc\nd\n', 'js', 'focus={2-3} highlight={4}');
    expect(html).toContain('has-focused');
    expect(lineClasses(html)).toEqual(['line', 'line focused', 'line focused', 'line highlighted']);
  });

  it('[!code ++] / [!code --] / [!code highlight] / [!code focus] mark their line and leave the code without the comment', async () => {
    const code = ['const a = 1; // [!code ++]', 'const b = 2; // [!code --]', 'const c = 3; // [!code highlight]', 'const d = 4; // [!code focus]', 'const e = 5;'].join('\n');
    const html = await hl.highlight(code, 'ts', '');
    expect(lineClasses(html)).toEqual(['line diff add', 'line diff remove', 'line highlighted', 'line focused', 'line']);
    expect(html).toMatch(/class="shiki[^"]*has-diff/);
    expect(html).not.toContain('[!code');
    // Python comments and a line count (`:2`) work too
    const py = await hl.highlight('x = 1  # [!code ++:2]\ny = 2\nz = 3\n', 'python', '');
    expect(lineClasses(py)).toEqual(['line diff add', 'line diff add', 'line']);
  });

  it('leaves notations in code without comments (plain text) as they are', async () => {
    const html = await hl.highlight('keep [!code ++] here', 'text', '');
    expect(html).toContain('[!code ++]');
    expect(lineClasses(html)).toEqual(['line']);
  });

  it('lines, wrap and expandable become classes of the figure', async () => {
    const html = await hl.highlight('a\n', 'js', 'lines wrap expandable');
    expect(html).toMatch(/<figure class="q-code q-code-wrap q-code-lines q-code-expandable" data-lang="js" data-q-expandable>/);
  });
});

describe('copy button', () => {
  it('sits in the title bar of a titled block, in the frame of an untitled one, nowhere with nocopy', async () => {
    const titled = await hl.highlight('a\n', 'js', 'app.js');
    expect(titled).toMatch(/<figcaption class="q-code-title">.*data-q-copy.*<\/figcaption><div class="q-code-frame"><pre[^]*<\/pre><\/div>/);
    const untitled = await hl.highlight('a\n', 'js', '');
    expect(untitled).not.toContain('<figcaption');
    expect(untitled).toMatch(/<\/pre><button [^>]*data-q-copy/);
    expect(await hl.highlight('a\n', 'js', 'app.js nocopy')).not.toContain('data-q-copy');
  });

  it('in a CodeGroup each panel keeps its own button (the title is the tab)', async () => {
    const page = await render('<CodeGroup>\n\n```js a.js\nx\n```\n\n```py b.py\ny\n```\n\n</CodeGroup>\n');
    expect(page.html.match(/data-q-copy/g)).toHaveLength(2);
    expect(page.html).not.toContain('q-code-title');
  });
});
