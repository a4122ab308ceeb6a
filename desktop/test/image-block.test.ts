import { describe, expect, it } from 'vitest';
import { imageBlockText } from '../src/renderer/editor/image-block';

const img = ['![Chart](/images/chart.png)'];

/** The line after inserting the image at 1-based `column` of `line`. */
const inserted = (line: string, column: number, lastLine: boolean) =>
  line.slice(0, column - 1) + imageBlockText(line, column, lastLine, img) + line.slice(column - 1);

describe('imageBlockText', () => {
  it('puts an image inserted in the middle of a sentence on a line of its own', () => {
    expect(inserted('See this and that.', 9, false)).toBe('See this\n![Chart](/images/chart.png)\n and that.');
  });

  it('adds nothing around an image inserted on an empty line inside the page', () => {
    expect(inserted('', 1, false)).toBe('![Chart](/images/chart.png)');
  });

  it('ends the file with a line break when the image is inserted at its end', () => {
    expect(inserted('Last paragraph.', 16, true)).toBe('Last paragraph.\n![Chart](/images/chart.png)\n');
    expect(inserted('', 1, true)).toBe('![Chart](/images/chart.png)\n');
  });

  it('puts several images one a line', () => {
    expect(imageBlockText('', 1, false, ['![a](/images/a.png)', '![b](/images/b.png)'])).toBe('![a](/images/a.png)\n![b](/images/b.png)');
  });
});
