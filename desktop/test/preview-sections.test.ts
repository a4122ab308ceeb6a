import { describe, expect, it } from 'vitest';
import { createCodeHighlighter, renderPage } from '@quire/shared/docs/markdown/index';
import type { DocsFiles } from '@quire/shared/docs/types';
import { loadPreviewProject, renderPreview } from '../src/core/preview-render';
import { renderSections, type SectionCache } from '../src/core/preview-sections';
import { generatePage } from '../bench/generate-page';

/** Long pages are previewed section by section: the same HTML as a whole render, only the edited section rendered again. */
const files: Record<string, string> = {
  'docs.json': JSON.stringify({ name: 'Acme Docs', navigation: { groups: [{ group: 'Start', pages: ['index'] }] } }),
  'snippets/note.mdx': 'A reusable note from a snippet.\n',
};
const docsFiles: DocsFiles = { read: (p) => files[p], exists: (p) => p in files, list: () => Object.keys(files) };

/** HTML with the numbering of repeated ids removed and whitespace between tags collapsed. */
const normalize = (html: string) => html.replace(/(id="|href="#)([a-z0-9-]+?)-\d+"/g, '$1$2"').replace(/>\s+</g, '><');

describe('sectioned preview', () => {
  it('renders a generated 2,000-line page exactly as a whole render does (components, code blocks, source lines)', async () => {
    const page = `${generatePage().replace('description: A long page for the desktop benchmark\n', "description: A long page\n")}\nimport Note from '/snippets/note.mdx';\n\n## With a snippet\n\n<Note />\n`;
    const highlighter = await createCodeHighlighter();
    const cache: SectionCache = new Map();
    const sectioned = await renderSections({ filePath: 'index.mdx', source: page, files: docsFiles, highlighter, variables: {}, glossary: [], cache });
    expect(sectioned).not.toBeNull();
    const whole = await renderPage({ filePath: 'index.mdx', source: page, files: docsFiles, highlighter, sourceLines: true });
    expect(sectioned!.sections).toBeGreaterThan(50);
    expect(normalize(sectioned!.html)).toBe(normalize(whole.html));
    expect(sectioned!.html).toContain('A reusable note from a snippet.');
    expect(sectioned!.toc.map((e) => e.text)).toEqual(whole.toc.map((e) => e.text));
    expect(sectioned!.title).toBe('Generated reference');

    // an edit in one paragraph renders that section only, with the lines below it shifted
    const lines = page.split('\n');
    const at = lines.findIndex((l, i) => i > 1000 && l.startsWith('This paragraph'));
    lines.splice(at, 0, 'A new line typed here.', '');
    const edited = await renderSections({ filePath: 'index.mdx', source: lines.join('\n'), files: docsFiles, highlighter, variables: {}, glossary: [], cache });
    expect(edited!.rendered).toBe(1);
    const wholeEdited = await renderPage({ filePath: 'index.mdx', source: lines.join('\n'), files: docsFiles, highlighter, sourceLines: true });
    expect(normalize(edited!.html)).toBe(normalize(wholeEdited.html));
  });

  it('renders whole what it cannot cut: a component open across a heading gives the whole page\'s parse error', async () => {
    const page = `---\ntitle: Tabs\n---\n\n## One\n\nText.\n\n## Two\n\n<Tabs>\n<Tab title="A">\n\n## Inside\n\nText.\n\n## Also inside\n\n</Tab>\n</Tabs>\n\n## Three\n\nEnd.\n`;
    const highlighter = await createCodeHighlighter();
    expect(await renderSections({ filePath: 'index.mdx', source: page, files: docsFiles, highlighter, variables: {}, glossary: [], cache: new Map() })).toBeNull();
    const project = loadPreviewProject({ ...files, 'index.mdx': page });
    const r = await renderPreview(project, 'index.mdx', page);
    expect(r.ok && r.html).toContain('Also inside');
    const broken = page.replace('</Tabs>\n', '');
    const bad = await renderPreview(project, 'index.mdx', broken);
    expect(bad).toMatchObject({ ok: false, message: expect.stringContaining('cannot parse MDX') });
  });
});
