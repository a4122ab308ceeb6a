/**
 * Editing an image block visually (engine `setImage`): only the alt text or the URL changes in the file,
 * the title and the rest of the page stay as written, and the page reads back with the new values.
 */
import { describe, expect, it } from 'vitest';
import { applyTextEdits, parseVisualDocument, setImage } from '../../../src/docs/visual/index';

const imageOf = (source: string, path?: string) => {
  const block = parseVisualDocument(source, path).blocks.find((b) => b.kind === 'image');
  if (!block) throw new Error(`no image block in ${JSON.stringify(source)}`);
  return block;
};
const edit = (source: string, change: { src?: string; alt?: string }, path?: string) => {
  const e = setImage(source, imageOf(source, path), change);
  if (!e) throw new Error('setImage gave no edit');
  return applyTextEdits(source, [e]);
};

describe('setImage', () => {
  it('changes the alt text only, keeping the title and the other blocks', () => {
    const source = '# Setup\n\n![old words](/images/a.png "The title")\n\nAfter.\n';
    const out = edit(source, { alt: 'The new diagram' });
    expect(out).toBe('# Setup\n\n![The new diagram](/images/a.png "The title")\n\nAfter.\n');
    expect(imageOf(out).image).toEqual({ src: '/images/a.png', alt: 'The new diagram', title: 'The title' });
  });

  it('changes the URL only, keeping the alt text and the title', () => {
    const source = 'Intro.\n\n![A chart](/images/a.png \'Chart\')\n';
    const out = edit(source, { src: '/images/b.png' });
    expect(out).toBe("Intro.\n\n![A chart](/images/b.png 'Chart')\n");
    expect(imageOf(out).image).toEqual({ src: '/images/b.png', alt: 'A chart', title: 'Chart' });
  });

  it('edits an image that has no alt text yet, and one indented inside a component', () => {
    expect(edit('![](/a.png)\n', { alt: 'Logo' })).toBe('![Logo](/a.png)\n');
    const source = '<Note>\n  ![x](/a.png)\n</Note>\n';
    const note = parseVisualDocument(source).blocks[0]!;
    const image = note.component!.children.find((b) => b.kind === 'image')!;
    expect(applyTextEdits(source, [setImage(source, image, { alt: 'Inside' })!])).toBe('<Note>\n  ![Inside](/a.png)\n</Note>\n');
  });

  it('escapes characters that would end the alt text or start JSX, and the page reads back the same alt text', () => {
    const alt = 'A [draft] {v2} <beta> path\\to';
    const out = edit('![x](/a.png)\n', { alt });
    expect(imageOf(out).image!.alt).toBe(alt);
    expect(imageOf(out, 'page.md').image!.alt).toBe(alt);
    // an alt text over several lines becomes one line
    expect(edit('![x](/a.png)\n', { alt: 'two\nlines' })).toBe('![two lines](/a.png)\n');
  });

  it('keeps an alt text holding brackets and escapes when only the URL changes', () => {
    const source = '![see [1] \\] here](/a.png)\n';
    expect(edit(source, { src: '/b.png' })).toBe('![see [1] \\] here](/b.png)\n');
  });

  it('puts a URL with spaces or an unbalanced parenthesis in angle brackets, and keeps angle brackets the file used', () => {
    const spaced = edit('![x](/a.png "T")\n', { src: '/images/my file.png' });
    expect(spaced).toBe('![x](</images/my file.png> "T")\n');
    expect(imageOf(spaced).image).toMatchObject({ src: '/images/my file.png', title: 'T' });
    expect(imageOf(edit('![x](/a.png)\n', { src: '/a(1.png' })).image!.src).toBe('/a(1.png');
    expect(edit('![x](</my a.png>)\n', { src: '/b.png' })).toBe('![x](</b.png>)\n');
    expect(edit('![x](/a_(1).png)\n', { alt: 'y' })).toBe('![y](/a_(1).png)\n');
  });

  it('changes only the image characters in a CRLF file', () => {
    const source = 'A.\r\n\r\n![x](/a.png)\r\n\r\nB.\r\n';
    expect(edit(source, { alt: 'New', src: '/b.png' })).toBe('A.\r\n\r\n![New](/b.png)\r\n\r\nB.\r\n');
  });

  it('gives no edit for a block that is not an inline image', () => {
    const source = 'Plain text.\n';
    const para = parseVisualDocument(source).blocks[0]!;
    expect(setImage(source, para, { alt: 'x' })).toBeNull();
  });
});
