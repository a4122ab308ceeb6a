import vm from 'node:vm';
import { describe, expect, it } from 'vitest';
import { createCodeHighlighter, renderPage } from '@quire/shared/docs/markdown/index';
import { loadPreviewProject, renderPreview } from '../src/core/preview-render';
import { PREVIEW_FRAME_SCRIPT } from '../src/core/preview-frame-script';

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

  it('scrolls the frame to the block at or above the editor line, interpolating to the next block, below the sticky header', () => {
    const frame = previewFrame([5, 200], [7, 300], [10, 360], [22, 600]);
    const below = (top: number) => top - HEADER - 8;
    expect(frame.scrollFor(1)).toBe(0);
    expect(frame.scrollFor(3)).toBe(0);
    expect(frame.scrollFor(5)).toBe(below(200));
    expect(frame.scrollFor(6)).toBe(below(250));
    expect(frame.scrollFor(7)).toBe(below(300));
    expect(frame.scrollFor(16)).toBe(below(480));
    expect(frame.scrollFor(500)).toBe(below(600));
  });

  it('orders blocks by line, skips blocks without a usable line, and counts the frame\'s own scroll offset', () => {
    const frame = previewFrame([10, 460], [0, 999], [5, 300], [7, 400]);
    frame.window.scrollY = 40; // the blocks' rects are relative to the viewport, their anchors to the document
    expect(frame.scrollFor(6)).toBe(350 - HEADER - 8);
  });

  it('does nothing without blocks, and ignores messages that are not from the app or not a scroll request', () => {
    expect(previewFrame().scrollFor(12)).toBeNull();
    const frame = previewFrame([5, 0], [7, 100]);
    frame.send({ type: 'quire-preview-scroll', line: 6 }, {});
    frame.send({ type: 'other', line: 6 });
    frame.send({ type: 'quire-preview-scroll', line: '6' });
    expect(frame.scrolls).toEqual([]);
  });
});

/** Height of the site's sticky header in {@link previewFrame}, px. */
const HEADER = 60;

/**
 * The preview frame's script run against a stand-in window whose document holds blocks `[data-line, top px]`
 * and a sticky header of {@link HEADER} px; `scrollFor(line)` posts the app's scroll message and returns where
 * the frame scrolled (null when it did not).
 */
function previewFrame(...blocks: [number, number][]) {
  const parent = {};
  const scrolls: number[] = [];
  let listener: ((event: { source: unknown; data: unknown }) => void) | null = null;
  const window = {
    parent,
    scrollY: 0,
    addEventListener: (type: string, fn: typeof listener) => {
      if (type === 'message') listener = fn;
    },
    scrollTo: (o: { top: number }) => scrolls.push(o.top),
  };
  const element = (line: number, top: number) => ({
    getAttribute: (name: string) => (name === 'data-line' ? String(line) : null),
    getBoundingClientRect: () => ({ top: top - window.scrollY, height: 20 }),
  });
  const document = {
    querySelectorAll: (selector: string) => (selector === '[data-line]' ? blocks.map(([line, top]) => element(line, top)) : []),
    querySelector: (selector: string) => (selector === '.q-header' ? { getBoundingClientRect: () => ({ top: 0, height: HEADER }) } : null),
  };
  vm.runInNewContext(PREVIEW_FRAME_SCRIPT, { window, document });
  const send = (data: unknown, source: unknown = parent) => listener?.({ source, data });
  const scrollFor = (line: number): number | null => {
    const before = scrolls.length;
    send({ type: 'quire-preview-scroll', line });
    return scrolls.length > before ? scrolls[scrolls.length - 1]! : null;
  };
  return { window, scrolls, send, scrollFor };
}
