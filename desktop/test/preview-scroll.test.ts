import { describe, expect, it } from 'vitest';
import { createCodeHighlighter, renderPage } from '@quire/shared/docs/markdown/index';
import { loadPreviewProject, renderPreview } from '../src/core/preview-render';
import { offsetForLine } from '../src/renderer/editor/scroll-map';

/** The preview follows the editor: rendered blocks carry their source line (preview only), and editor lines map to scroll offsets. */
const files = {
  'docs.json': JSON.stringify({ name: 'Acme Docs', navigation: { groups: [{ group: 'Start', pages: ['index', 'notes'] }] } }),
  'snippets/note.mdx': 'A reusable note.\n\nSecond paragraph of the snippet.\n',
};
const page = [
  '---', // 1
  'title: Welcome', // 2
  '---', // 3
  '', // 4
  '# Getting started', // 5
  '', // 6
  'A paragraph', // 7
  'on two lines.', // 8
  '', // 9
  '```js', // 10
  'const a = 1;', // 11
  '```', // 12
  '', // 13
  '<Note>', // 14
  'A note.', // 15
  '</Note>', // 16
  '', // 17
  "import Reusable from '/snippets/note.mdx';", // 18
  '', // 19
  '<Reusable />', // 20
  '', // 21
  '- one', // 22
  '- two', // 23
  '', // 24
].join('\n');

/** [tag, line] of every element with data-line, in document order. */
function lines(html: string): [string, number][] {
  return [...html.matchAll(/<([a-z0-9]+)[^>]*\sdata-line="(\d+)"/g)].map((m) => [m[1]!, Number(m[2])]);
}

describe('preview scroll mapping', () => {
  it('marks each top-level block of the page with its source line: heading, paragraph, code block, component, list; snippet blocks carry none', async () => {
    const project = loadPreviewProject({ ...files, 'index.mdx': page, 'notes.mdx': '# Notes\n' });
    const r = await renderPreview(project, 'index.mdx', page);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    const marked = lines(r.html);
    expect(marked.map(([, l]) => l)).toEqual([5, 7, 10, 14, 22]);
    expect(marked[0]![0]).toBe('h1');
    expect(marked[1]![0]).toBe('p');
    expect(marked[4]![0]).toBe('ul');
    expect(r.html).toContain('A reusable note.'); // the snippet is there, unmarked
  });

  it('marks Markdown (.md) pages too', async () => {
    const md = '---\ntitle: Notes\n---\n\n# Notes\n\nText.\n\n```sh\nls\n```\n';
    const project = loadPreviewProject({ ...files, 'index.mdx': page, 'notes.md': md });
    const r = await renderPreview(project, 'notes.md', md);
    expect(r.ok && lines(r.html).map(([, l]) => l)).toEqual([5, 7, 9]);
  });

  it('leaves published pages without source lines', async () => {
    const out = await renderPage({ filePath: 'index.mdx', source: page, files: { read: (p) => (files as Record<string, string>)[p], exists: (p) => p in files, list: () => Object.keys(files) }, highlighter: await createCodeHighlighter() });
    expect(out.html).not.toContain('data-line');
  });

  it('maps an editor line to the block at or above it, interpolating to the next block', () => {
    const anchors = [
      { line: 5, top: 0 },
      { line: 7, top: 100 },
      { line: 10, top: 160 },
      { line: 22, top: 400 },
    ];
    expect(offsetForLine(anchors, 1)).toBe(0);
    expect(offsetForLine(anchors, 5)).toBe(0);
    expect(offsetForLine(anchors, 6)).toBe(50);
    expect(offsetForLine(anchors, 7)).toBe(100);
    expect(offsetForLine(anchors, 16)).toBe(280);
    expect(offsetForLine(anchors, 500)).toBe(400);
    expect(offsetForLine([], 12)).toBe(0);
  });
});
