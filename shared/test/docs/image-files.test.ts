import { describe, expect, it } from 'vitest';
import { formatBytes, IMAGE_ACCEPT, imageFileName, imageFileProblem, imageMarkdown, MAX_IMAGE_BYTES, uniqueFileName } from '../../src/docs/image-files';

describe('the rule for images added from the editor', () => {
  it('takes PNG, JPEG, GIF, WebP, SVG and AVIF up to 5 MiB, and says why it refuses another file', () => {
    for (const name of ['a.png', 'b.JPG', 'c.jpeg', 'd.gif', 'e.webp', 'f.svg', 'g.avif']) expect(imageFileProblem(name, 10)).toBeNull();
    expect(imageFileProblem('notes/report.pdf', 10)).toBe('report.pdf is not an image Quire can add: use a PNG, JPEG, GIF, WebP, SVG or AVIF file.');
    expect(imageFileProblem('noextension', 10)).toMatch(/^noextension is not an image/);
    expect(imageFileProblem('big.png', MAX_IMAGE_BYTES)).toBeNull();
    expect(imageFileProblem('big.png', 7.5 * 1024 * 1024)).toBe('big.png is 7.5 MiB; an image may be at most 5 MiB.');
    expect(IMAGE_ACCEPT.split(',')).toEqual(expect.arrayContaining(['image/png', 'image/svg+xml', 'image/avif', '.jpg', '.webp']));
  });

  it('names the file safely: slugged stem, lowercased extension, never empty', () => {
    expect(imageFileName('My Diagram (final).PNG')).toBe('my-diagram-final.png');
    expect(imageFileName('C:\\Users\\me\\Été 2024.jpeg')).toBe('ete-2024.jpeg');
    expect(imageFileName('../../etc/passwd.svg')).toBe('passwd.svg');
    expect(imageFileName('日本.webp')).toBe('image.webp');
    expect(imageFileName(`${'a'.repeat(300)}.png`)).toBe(`${'a'.repeat(80)}.png`);
  });

  it('makes a name unique with -1, -2, ... before the extension', () => {
    const taken = new Set(['diagram.png', 'diagram-1.png']);
    expect(uniqueFileName('diagram.png', (n) => taken.has(n))).toBe('diagram-2.png');
    expect(uniqueFileName('other.png', (n) => taken.has(n))).toBe('other.png');
  });

  it('writes the Markdown with an alt text from the file name', () => {
    expect(imageMarkdown('my-diagram_v2.png', '/images/my-diagram-v2.png')).toBe('![my diagram v2](/images/my-diagram-v2.png)');
    expect(imageMarkdown('a [b] c.png', '/images/a-b-c.png')).toBe('![a b c](/images/a-b-c.png)');
    expect(formatBytes(3000)).toBe('3 KiB');
    expect(formatBytes(5 * 1024 * 1024)).toBe('5 MiB');
  });
});
