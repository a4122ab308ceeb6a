/**
 * Links and emphasis edited in the visual mode (the editor's HTML written back by `replaceBlockText`): a new or
 * changed link is written in the file's link syntax `[text](url)`, and links the writer did not touch keep their
 * exact source (title quotes, autolinks), so the rest of the paragraph stays byte-identical.
 */
import { describe, expect, it } from 'vitest';
import { applyTextEdits, blockEditableHtml, parseVisualDocument, replaceBlockText } from '../../../src/docs/visual/index';

/** `source` after its first block's editor HTML went through `edit`. */
function edited(source: string, edit: (html: string) => string, path = 'page.mdx'): string {
  const block = parseVisualDocument(source, path).blocks[0]!;
  const change = replaceBlockText(source, block, edit(blockEditableHtml(block)));
  return change ? applyTextEdits(source, [change]) : source;
}

describe('links the writer did not touch', () => {
  it("keep a title in single quotes", () => {
    const source = "Read the [guide](/guide 'The guide') now.\n\nNext.\n";
    expect(edited(source, (h) => h.replace('now', 'today'))).toBe("Read the [guide](/guide 'The guide') today.\n\nNext.\n");
    expect(edited(source, (h) => h.replace('Read', 'We read'))).toBe("We read the [guide](/guide 'The guide') now.\n\nNext.\n");
  });

  it('keep an autolink `<https://...>` of a Markdown page', () => {
    const source = 'Visit <https://example.com> or write to <me@example.com> now.\n';
    expect(edited(source, (h) => h.replace('Visit', 'Go to'), 'page.md')).toBe('Go to <https://example.com> or write to <me@example.com> now.\n');
  });

  it('keep a bare URL (a GFM autolink literal) of an MDX page', () => {
    const source = 'Visit https://example.com now.\n';
    expect(edited(source, (h) => h.replace('now', 'today'))).toBe('Visit https://example.com today.\n');
  });

  it('keep their place when an earlier link with the same text changes', () => {
    const source = "See [docs](/a 'A') and [docs](/b 'B').\n";
    expect(edited(source, (h) => h.replace('href="/a"', 'href="/c"'))).toBe("See [docs](/c \"A\") and [docs](/b 'B').\n");
  });
});

describe('links and emphasis set in the editor', () => {
  const source = 'Our product ships fast and stays simple.\n\nSee the [guide](/guide) first.\n';

  it('writes a new link as `[text](url)`, the URL as typed', () => {
    expect(edited(source, (h) => h.replace('product', '<a href="/quickstart">product</a>'))).toBe(
      'Our [product](/quickstart) ships fast and stays simple.\n\nSee the [guide](/guide) first.\n',
    );
  });

  it('changes a link’s URL and removes a link, the rest untouched', () => {
    const para = 'See the [guide](/guide) first.\n';
    expect(edited(para, (h) => h.replace('href="/guide"', 'href="https://example.com/guide"'))).toBe('See the [guide](https://example.com/guide) first.\n');
    expect(edited(para, (h) => h.replace(/<a [^>]*>(.*?)<\/a>/, '$1'))).toBe('See the guide first.\n');
  });

  it('writes `<b>` and `<i>` (the browser’s Bold and Italic) in the file’s emphasis style', () => {
    expect(edited(source, (h) => h.replace('fast', '<b>fast</b>').replace('simple', '<i>simple</i>'))).toBe(
      'Our product ships **fast** and stays *simple*.\n\nSee the [guide](/guide) first.\n',
    );
  });
});
