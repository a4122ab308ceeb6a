/**
 * The linter and the renderer read a page the same way (page-tree.ts): what the renderer renders
 * never gets an `mdx/syntax` finding, what it refuses always does, with its reason at the place in
 * the file; math (`$x$`, `$$...$$`, `<Latex>`) does not move the places of prose findings.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadSiteConfig } from '../../src/docs/config/index';
import { memoryFiles } from '../../src/docs/files';
import { createCodeHighlighter, type CodeHighlighter } from '../../src/docs/markdown/highlight';
import { renderPage } from '../../src/docs/markdown/render-page';
import { pagePathOf } from '../../src/docs/nav/index';
import { pageInventory } from '../../src/docs/page-inventory';
import { DocsError, type DocsFiles } from '../../src/docs/types';
import { createLinter } from '../../src/lint/linter';
import { dirFiles } from '../helpers/dir-files';

const DEMO_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../examples/demo-docs');
const page = (body: string) => `---\ntitle: Math\n---\n\n${body}\n`;

let highlighter: CodeHighlighter;
beforeAll(async () => {
  highlighter = await createCodeHighlighter();
});

/** The renderer's verdict on a page: undefined when it renders, else the error it throws. */
async function renderError(
  filePath: string,
  source: string,
  files: DocsFiles = memoryFiles({ [filePath]: source }),
  variables?: Record<string, string>,
): Promise<DocsError | undefined> {
  try {
    await renderPage({ filePath, source, files, highlighter, ...(variables ? { variables } : {}) });
    return undefined;
  } catch (err) {
    if (err instanceof DocsError) return err;
    throw err;
  }
}

describe('the demo project (examples/demo-docs)', () => {
  it('renders every page, and its linter finds no error on any page', async () => {
    const files = dirFiles(DEMO_DIR);
    const pageFiles = files.list().filter((p) => /\.mdx?$/.test(p));
    expect(files.read('writing/rich-content.mdx')).toContain('<Latex>e^{i\\pi} + 1 = 0</Latex>');
    // The demo project stores no style rules, glossary or settings: the linter's defaults, with the
    // site's page inventory as builds give it.
    const inventory = pageInventory({ pages: pageFiles.map((p) => pagePathOf(p)!), files, redirects: loadSiteConfig(files).config.redirects });
    const linter = createLinter({ inventory });
    for (const file of pageFiles) {
      const text = files.read(file)!;
      if (!file.startsWith('snippets/')) expect(await renderError(file, text, files), file).toBeUndefined();
      const errors = (await linter.lint(text, file)).filter((f) => f.severity === 'error');
      expect(errors, file).toEqual([]);
    }
  }, 60_000);
});

describe('math', () => {
  const linter = createLinter();

  it('reads <Latex> text, inline $x$ and $$ blocks as math, not as MDX expressions', async () => {
    const text = page(
      [
        'The identity <Latex>e^{i\\pi} + 1 = 0</Latex> is famous.',
        '',
        '<Latex>',
        '\\sum_{k=1}^{n} k = \\frac{n(n+1)}{2}',
        '</Latex>',
        '',
        'Inline $a_{1} + b^{2}$ math, and prices such as $5 and $10 stay text.',
        '',
        '$$',
        '\\int_0^1 x^{2} \\, dx = \\frac{1}{3}',
        '$$',
        '',
        '$$\\sqrt{x^{2}}$$',
      ].join('\n'),
    );
    expect(await renderError('math.mdx', text)).toBeUndefined();
    expect((await linter.lint(text, 'math.mdx')).map((f) => f.ruleId)).not.toContain('mdx/syntax');
  });

  it('keeps prose findings at their place in the file after math on the line and above', async () => {
    const text = page(
      [
        'The identity <Latex>e^{i\\pi} + 1 = 0</Latex> is is famous, and $a_{1}$ too too.',
        '',
        '$$x^{2}$$',
        '',
        '$$ \\frac{1}{2}',
        '$$',
        '',
        'It was was fine.',
      ].join('\n'),
    );
    const found = (await linter.lint(text, 'math.mdx')).filter((f) => f.ruleId === 'prose/repeated-words');
    const lines = text.split('\n');
    const at = (line: number, word: string, nth = 1) => {
      let column = -1;
      for (let i = 0; i < nth; i++) column = lines[line - 1]!.indexOf(` ${word}`, column + 1);
      return column + 1;
    };
    expect(found.map((f) => [f.message, f.line, f.column])).toEqual([
      ['"is" is repeated.', 5, at(5, 'is', 2)],
      ['"too" is repeated.', 5, at(5, 'too', 2)],
      ['"was" is repeated.', 12, at(12, 'was', 2)],
    ]);
    const fixed = await linter.autoFix(text, 'math.mdx', ['prose/repeated-words']);
    expect(fixed.text).toBe(text.replace('is is', 'is').replace('too too', 'too').replace('was was', 'was'));
  });
});

describe('site variables', () => {
  it('puts in the variables the linter is given, as the renderer does, and keeps findings at their place', async () => {
    const text = page('Install {{product-name}} and and run it.');
    const variables = { 'product-name': 'Quire Desktop' };
    expect(await renderError('vars.mdx', text, undefined, variables)).toBeUndefined();
    const found = await createLinter({ variables }).lint(text, 'vars.mdx');
    expect(found.map((f) => [f.ruleId, f.line, f.column])).toEqual([['prose/repeated-words', 5, text.split('\n')[4]!.lastIndexOf(' and') + 1]]);
    // Without the variables, `{product-name}` is an expression that is not JavaScript, for both.
    expect(await renderError('vars.mdx', text)).toBeInstanceOf(DocsError);
    expect((await createLinter().lint(text, 'vars.mdx')).map((f) => f.ruleId)).toEqual(['mdx/syntax']);
  });
});

describe('pages the renderer refuses', () => {
  const linter = createLinter();

  it('reports an MDX syntax error with the renderer\'s reason, at its line and column in the file', async () => {
    const text = page('Some text.\n\nA <b>c</d> text.');
    const error = await renderError('bad.mdx', text);
    expect(error).toMatchObject({ line: 7, column: 7 });
    const found = await linter.lint(text, 'bad.mdx');
    expect(found).toHaveLength(1);
    expect(found[0]).toMatchObject({ ruleId: 'mdx/syntax', severity: 'error', line: 7, column: 7 });
    expect(found[0]!.message).toBe(`The page does not parse: ${error!.message.replace(/^bad\.mdx:7:7: cannot parse MDX: /, '')}`);
  });

  it('places a syntax error after math by the file\'s lines', async () => {
    const text = page('$$x^{2}$$\n\nThe identity <Latex>e^{i\\pi} = -1</Latex> holds.\n\n<Note>never closed');
    expect(await renderError('bad.mdx', text)).toBeInstanceOf(DocsError);
    const found = await linter.lint(text, 'bad.mdx');
    expect(found).toEqual([expect.objectContaining({ ruleId: 'mdx/syntax', line: 9, column: 1 })]);
    expect(found[0]!.message).toContain('Expected a closing tag for `<Note>` (9:1-9:7)');
  });

  it('reports front matter that is not YAML, as the renderer refuses it', async () => {
    const text = '---\ntitle: [unclosed\n---\n\nText.\n';
    expect(await renderError('bad.mdx', text)).toMatchObject({ line: 2 });
    for (const file of ['bad.mdx', 'bad.md']) {
      const found = await linter.lint(text, file);
      expect(found).toEqual([expect.objectContaining({ ruleId: 'mdx/syntax', line: 2, message: expect.stringContaining('invalid YAML frontmatter') })]);
    }
  });

  it('agrees with the renderer on pages that parse only with its preparation, or not at all', async () => {
    const cases: [string, boolean][] = [
      ['Inline {/* a comment */} and <Latex>\\frac{a}{b}</Latex>.', false],
      ['$$\n\\begin{matrix} a & b \\\\ c & d \\end{matrix}\n$$', false],
      ['A price of $5 and a {/* note */} here.', false],
      ['An expression {1 + } that is not JavaScript.', true],
      ['<Card title="x">unclosed', true],
    ];
    for (const [body, refused] of cases) {
      const text = page(body);
      expect((await renderError('case.mdx', text)) !== undefined, body).toBe(refused);
      expect((await linter.lint(text, 'case.mdx')).some((f) => f.ruleId === 'mdx/syntax'), body).toBe(refused);
    }
  });
});
