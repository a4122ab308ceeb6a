/**
 * The visual engine's edits as a writer sees them in the file: the file's own style is kept, only the
 * edited lines change, and CRLF files stay CRLF.
 */
import { describe, expect, it } from 'vitest';
import {
  applyTextEdits,
  blockEditableHtml,
  inferSourceStyle,
  insertBlock,
  parseVisualDocument,
  replaceBlockText,
  setCodeLanguage,
  setCodeText,
  setComponentProp,
  setFrontmatter,
  type VisualBlock,
} from '../../../src/docs/visual/index';

const apply = (source: string, edit: { from: number; to: number; text: string } | null) => (edit ? applyTextEdits(source, [edit]) : source);
const first = (source: string, kind: VisualBlock['kind']) => parseVisualDocument(source).blocks.find((b) => b.kind === kind)!;
/** Lines of `b` that are not in `a` (a line-level diff good enough for one-line changes). */
const changedLines = (a: string, b: string) => {
  const al = a.split('\n');
  const bl = b.split('\n');
  return bl.filter((l, i) => l !== al[i]);
};

describe('style inference', () => {
  it('keeps `*` bullets when a list is edited in a file that uses them', () => {
    const source = '# T\n\n* one\n* two\n\nText.\n';
    expect(inferSourceStyle(source).bullet).toBe('*');
    const list = first(source, 'list');
    const html = blockEditableHtml(list).replace('two', 'two</li><li>three');
    expect(apply(source, replaceBlockText(source, list, html))).toBe('# T\n\n* one\n* two\n* three\n\nText.\n');
  });

  it('keeps `_` emphasis and `__` strong', () => {
    const source = 'Some _soft_ and __loud__ words.\n\nMore _words_.\n';
    const style = inferSourceStyle(source);
    expect([style.emphasis, style.strong]).toEqual(['_', '_']);
    const para = first(source, 'paragraph');
    const edited = apply(source, replaceBlockText(source, para, `${blockEditableHtml(para)} <em>New</em>`));
    expect(edited).toBe('Some _soft_ and __loud__ words. _New_\n\nMore _words_.\n');
  });

  it('defaults to `-` bullets and `*` emphasis in a file that shows neither', () => {
    const source = 'Plain.\n';
    const para = first(source, 'paragraph');
    expect(apply(source, replaceBlockText(source, para, 'Plain <em>x</em><ul><li>a</li></ul>'))).toBe('Plain *x*\n\n- a\n');
  });

  it('keeps a wrapped paragraph wrapped where it was not edited', () => {
    const source = 'First line of text\nsecond line of text\nthird line.\n';
    const para = first(source, 'paragraph');
    const html = blockEditableHtml(para).replace('second', 'the second');
    expect(apply(source, replaceBlockText(source, para, html))).toBe('First line of text\nthe second line of text\nthird line.\n');
  });
});

describe('component props', () => {
  const source = "<Card title='Start' href=\"/start\">\n  Go.\n</Card>\n";
  const card = () => parseVisualDocument(source).blocks[0]!;

  it('reads props with their values and places', () => {
    const props = card().component!.props;
    expect(props.map((p) => [p.name, p.value, source.slice(p.from, p.to)])).toEqual([
      ['title', 'Start', "title='Start'"],
      ['href', '/start', 'href="/start"'],
    ]);
  });

  it('edits a prop in place keeping its quote character', () => {
    const [title, href] = card().component!.props;
    expect(apply(source, setComponentProp(source, title!, 'Begin'))).toBe("<Card title='Begin' href=\"/start\">\n  Go.\n</Card>\n");
    expect(apply(source, setComponentProp(source, href!, '/begin'))).toBe("<Card title='Start' href=\"/begin\">\n  Go.\n</Card>\n");
  });

  it('switches quotes when the value holds the quote', () => {
    const [title] = card().component!.props;
    expect(apply(source, setComponentProp(source, title!, "It's"))).toContain('title="It\'s"');
  });

  it('adds a missing prop after the last one', () => {
    const edit = setComponentProp(source, { componentFrom: card().from, name: 'icon' }, 'rocket');
    expect(apply(source, edit)).toBe("<Card title='Start' href=\"/start\" icon=\"rocket\">\n  Go.\n</Card>\n");
  });

  it('edits an indented child paragraph in place', () => {
    const child = card().component!.children[0]!;
    expect(child.kind).toBe('paragraph');
    const edited = apply(source, replaceBlockText(source, child, 'Go <strong>now</strong>.'));
    expect(edited).toBe("<Card title='Start' href=\"/start\">\n  Go **now**.\n</Card>\n");
  });
});

describe('frontmatter', () => {
  const source = '---\ntitle: Hello\n# a comment\ndescription: "Kept as written"\ntags: [a, b]\n---\n\nBody.\n';

  it('changes only the changed key’s line', () => {
    const doc = parseVisualDocument(source);
    const edited = apply(source, setFrontmatter(source, { ...doc.frontmatter!.data, title: 'Goodbye' }));
    expect(changedLines(source, edited)).toEqual(['title: Goodbye']);
    expect(edited.split('\n').length).toBe(source.split('\n').length);
  });

  it('removes a key’s line and appends a new key', () => {
    const edited = apply(source, setFrontmatter(source, { title: 'Hello', description: 'Kept as written', tags: ['a', 'b'], icon: 'star' }));
    expect(edited).toBe('---\ntitle: Hello\n# a comment\ndescription: "Kept as written"\ntags: [a, b]\nicon: star\n---\n\nBody.\n');
    const removed = apply(source, setFrontmatter(source, { title: 'Hello', tags: ['a', 'b'] }));
    expect(removed).toBe('---\ntitle: Hello\n# a comment\ntags: [a, b]\n---\n\nBody.\n');
  });

  it('creates frontmatter on a page without it', () => {
    expect(apply('Body.\n', setFrontmatter('Body.\n', { title: 'New' }))).toBe('---\ntitle: New\n---\n\nBody.\n');
  });
});

describe('blocks', () => {
  it('inserts a block after another, separated by a blank line', () => {
    const source = '# Title\n\nOne.\n\nTwo.\n';
    const one = parseVisualDocument(source).blocks[1]!;
    expect(apply(source, insertBlock(source, one, '> Quote'))).toBe('# Title\n\nOne.\n\n> Quote\n\nTwo.\n');
  });

  it('inserts at the start of the body, after the frontmatter', () => {
    const source = '---\ntitle: T\n---\n\nOne.\n';
    expect(apply(source, insertBlock(source, null, 'Zero.'))).toBe('---\ntitle: T\n---\n\nZero.\n\nOne.\n');
    expect(apply('One.\n', insertBlock('One.\n', null, 'Zero.'))).toBe('Zero.\n\nOne.\n');
  });

  it('removes a block emptied in the editor together with its blank line', () => {
    const source = '# Title\n\nOne.\n\nTwo.\n';
    const [, one, two] = parseVisualDocument(source).blocks;
    expect(apply(source, replaceBlockText(source, one!, ''))).toBe('# Title\n\nTwo.\n');
    expect(apply(source, replaceBlockText(source, two!, '<br>'))).toBe('# Title\n\nOne.\n');
  });

  it('writes the non-breaking spaces a browser types as spaces, unless the block had them', () => {
    const source = 'One two.\n\nA\u00a0B.\n';
    const [one, ab] = parseVisualDocument(source).blocks;
    expect(apply(source, replaceBlockText(source, one!, 'One two&nbsp;three.'))).toBe('One two three.\n\nA\u00a0B.\n');
    expect(apply(source, replaceBlockText(source, ab!, 'A&nbsp;B. C.'))).toBe('One two.\n\nA\u00a0B. C.\n');
  });

  it('changes a code block’s language and keeps its meta', () => {
    const source = 'Text.\n\n```js title="a.js" {2}\nconst a = 1;\n```\n';
    const code = first(source, 'code');
    expect([code.lang, code.meta, code.code]).toEqual(['js', 'title="a.js" {2}', 'const a = 1;']);
    expect(apply(source, setCodeLanguage(source, code, 'ts'))).toBe('Text.\n\n```ts title="a.js" {2}\nconst a = 1;\n```\n');
  });

  it('replaces a code block’s text between its fences', () => {
    const source = 'Text.\n\n~~~~py\nprint(1)\n~~~~\n\nEnd.\n';
    const code = first(source, 'code');
    expect(apply(source, setCodeText(source, code, 'print(2)\nprint(3)'))).toBe('Text.\n\n~~~~py\nprint(2)\nprint(3)\n~~~~\n\nEnd.\n');
    expect(setCodeText(source, code, 'a\n~~~~\nb')).toBeNull();
  });

  it('keeps unknown JSX, expressions and imports read-only with their exact source', () => {
    const source = "import X from '/snippets/x.mdx'\n\n<Custom a={1}>\n  hi\n</Custom>\n\n{props.x}\n\nText <Icon icon=\"x\" /> inline.\n";
    const blocks = parseVisualDocument(source).blocks;
    expect(blocks.map((b) => [b.kind, b.readonlyReason])).toEqual([
      ['readonly', 'import'],
      ['readonly', 'unknown component'],
      ['readonly', 'expression'],
      ['readonly', 'inline jsx'],
    ]);
    for (const b of blocks) expect(b.source).toBe(source.slice(b.from, b.to));
  });

  it('gives an unparsable page as one read-only block and never throws', () => {
    const source = '# Title\n\n<Note>\nunclosed\n';
    const doc = parseVisualDocument(source);
    expect(doc.blocks.map((b) => [b.kind, b.readonlyReason, b.source])).toEqual([['readonly', 'unparsable', source]]);
  });
});

describe('CRLF files', () => {
  const source = '---\r\ntitle: T\r\n---\r\n\r\nFirst line\r\nsecond line.\r\n\r\n- a\r\n- b\r\n';

  it('infers CRLF and keeps it in edited paragraphs and lists', () => {
    expect(inferSourceStyle(source).eol).toBe('\r\n');
    const doc = parseVisualDocument(source);
    const para = doc.blocks.find((b) => b.kind === 'paragraph')!;
    expect(replaceBlockText(source, para, blockEditableHtml(para))).toBeNull();
    const edited = apply(source, replaceBlockText(source, para, `${blockEditableHtml(para)} More.`));
    expect(edited).toBe('---\r\ntitle: T\r\n---\r\n\r\nFirst line\r\nsecond line. More.\r\n\r\n- a\r\n- b\r\n');
    const list = doc.blocks.find((b) => b.kind === 'list')!;
    const listed = apply(source, replaceBlockText(source, list, blockEditableHtml(list).replace('b', 'b</li><li>c')));
    expect(listed).toBe('---\r\ntitle: T\r\n---\r\n\r\nFirst line\r\nsecond line.\r\n\r\n- a\r\n- b\r\n- c\r\n');
  });

  it('writes CRLF into the frontmatter and inserted blocks', () => {
    const doc = parseVisualDocument(source);
    expect(apply(source, setFrontmatter(source, { title: 'U' }))).toBe(source.replace('title: T', 'title: U'));
    const last = doc.blocks[doc.blocks.length - 1]!;
    expect(apply(source, insertBlock(source, last, 'New\nlines'))).toBe(`${source.slice(0, last.to)}\r\n\r\nNew\r\nlines${source.slice(last.to)}`);
  });
});
