/** MDX pages: snippets, expressions that are never evaluated, parse errors, headings, Markdown export. */
import { describe, expect, it } from 'vitest';
import { DocsError } from '../../../src/docs/types';
import { kinds, render } from './render-helpers';

declare global {
  var quireEvaluated: boolean | undefined;
}

describe('snippets', () => {
  const files = {
    'snippets/greet.mdx': 'Hello **{word}**!\n\n```bash\necho {word}\n```\n',
    'snippets/outer.mdx': "import Inner from './inner.mdx'\n\n<Note>outer {name}</Note>\n\n<Inner who={name} />\n",
    'snippets/inner.mdx': 'inner says hi to {who}\n',
    'snippets/vars.mdx': 'export const product = "Quire"\nexport const version = `v${2}`\n',
    'snippets/plain.md': 'A *plain* Markdown snippet with <kbd>Ctrl</kbd>.\n',
    'snippets/loop.mdx': "import Loop from '/snippets/loop.mdx'\n\nloop <Loop />\n",
    '_snippets/get-help.mdx': 'Ask in Discord.\n',
    'snippets/widget.jsx': 'export const Widget = () => { fetch("x"); return null }',
    'guides/local.mdx': 'local snippet\n',
  };

  it('inlines an imported snippet with its props, also inside code fences', async () => {
    const page = await render("import Greet from '/snippets/greet.mdx'\n\n<Greet word=\"world\" />\n", { files });
    expect(page.html).toContain('Hello <strong>world</strong>!');
    expect(page.html).toMatch(/echo<\/span><span[^>]*> world/);
    expect(page.dependencies).toEqual(['snippets/greet.mdx']);
    expect(page.warnings).toEqual([]);
  });

  it('resolves nested snippets relative to each file and passes props down', async () => {
    const page = await render("import Outer from '/snippets/outer.mdx'\n\n<Outer name=\"Ada\" />\n", { files });
    expect(page.html).toContain('outer Ada');
    expect(page.html).toContain('inner says hi to Ada');
    expect(page.dependencies).toEqual(['snippets/outer.mdx', 'snippets/inner.mdx']);
  });

  it('reads named string exports, relative imports, .md snippets and <Snippet file>', async () => {
    const page = await render(
      "import { product, version } from '/snippets/vars.mdx'\nimport Local from './local'\nimport Plain from '../snippets/plain.md'\n\n# {product} {version}\n\n<Local />\n\n<Plain />\n\n<Snippet file=\"get-help.mdx\" />\n",
      { files, filePath: 'guides/page.mdx' },
    );
    expect(page.title).toBe('Quire v2');
    expect(page.html).toContain('local snippet');
    expect(page.html).toContain('<em>plain</em>');
    expect(page.html).toContain('<kbd>Ctrl</kbd>');
    expect(page.html).toContain('Ask in Discord.');
    expect(page.warnings).toEqual([]);
  });

  it('warns and renders nothing for JSX snippets, packages, missing files and cycles', async () => {
    const page = await render(
      "import { Widget } from '/snippets/widget.jsx'\nimport { z } from 'zod'\nimport Missing from '/snippets/missing.mdx'\nimport Loop from '/snippets/loop.mdx'\n\n<Widget />\n\n<Missing />\n\n<Loop />\n",
      { files },
    );
    expect(kinds(page)).toEqual(['snippet', 'snippet', 'snippet', 'snippet']);
    expect(page.html).toContain('loop');
    expect(page.html).not.toContain('fetch');
    expect(page.dependencies).toContain('snippets/missing.mdx');
  });

  it('refuses snippet imports that leave the docs root', async () => {
    const page = await render("import Secret from '../../etc/passwd.mdx'\n\n<Secret />\n", { files });
    expect(kinds(page)).toEqual(['snippet']);
    expect(page.warnings[0]!.message).toContain('outside the docs root');
  });
});

describe('expressions are never evaluated', () => {
  it('drops calls, exits and exports with side effects, keeps literals and constants', async () => {
    globalThis.quireEvaluated = false;
    const page = await render(
      [
        "export const x = alert(1)",
        "export const name = 'Quire'",
        '',
        'Hi {name} {1 + 1} {"lit"} {/* a comment */}',
        '',
        '{process.exit(1)}',
        '',
        "{fetch('https://evil.example')}",
        '',
        '{(globalThis.quireEvaluated = true)}',
        '',
        '<Card title={`T ${name}`} href={(() => "javascript:alert(1)")()}>c</Card>',
      ].join('\n'),
    );
    expect(globalThis.quireEvaluated).toBe(false);
    expect(page.html).toContain('Hi Quire 2 lit');
    expect(page.html).toContain('T Quire');
    expect(page.html).not.toMatch(/<script|javascript:|alert|fetch/);
    expect(kinds(page).filter((k) => k === 'expression')).toHaveLength(5);
    expect(page.warnings.map((w) => w.line)).toEqual([1, 6, 8, 10, 12]);
  });
});

describe('parse errors', () => {
  it('throws DocsError with the file, line and reason', async () => {
    const err = await render('# Title\n\nok\n\n<Note>\nunclosed\n', { filePath: 'guides/bad.mdx' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DocsError);
    const e = err as DocsError;
    expect(e.file).toBe('guides/bad.mdx');
    expect(e.line).toBeGreaterThanOrEqual(5);
    expect(e.message).toMatch(/guides\/bad\.mdx:\d+/);
  });

  it('counts frontmatter lines in the reported line', async () => {
    const err = (await render('---\ntitle: x\n---\n\n{1 +}\n').catch((e: unknown) => e)) as DocsError;
    expect(err).toBeInstanceOf(DocsError);
    expect(err.line).toBe(5);
  });

  it('reports invalid YAML frontmatter with its line', async () => {
    const err = (await render('---\ntitle: ok\ntags: [a\n---\nbody\n').catch((e: unknown) => e)) as DocsError;
    expect(err).toBeInstanceOf(DocsError);
    expect(err.message).toContain('invalid YAML frontmatter');
  });

  it('reads quoted frontmatter values continued on unindented lines, as Mintlify does', async () => {
    const page = await render("---\ntitle: Tags\ndescription: 'Organize sessions.\nEx: `paid-user`'\n---\nbody\n");
    expect(page.description).toBe('Organize sessions. Ex: `paid-user`');
  });
});

describe('headings and page fields', () => {
  it('gives headings unique ids with anchors and builds the toc from h2/h3', async () => {
    const page = await render('# Top\n\n## Setup\n\n### Install `pkg`\n\n#### Deep\n\n## Setup\n');
    expect(page.toc).toEqual([
      { depth: 2, id: 'setup', text: 'Setup' },
      { depth: 3, id: 'install-pkg', text: 'Install pkg' },
      { depth: 2, id: 'setup-2', text: 'Setup' },
    ]);
    expect(page.html).toContain('<h2 id="setup">Setup<a class="q-heading-anchor" href="#setup"');
    // the id github-slugger gave the repeat before stays a link target
    expect(page.html).toContain('<h2 id="setup-2"><span class="q-heading-alias" id="setup-1"></span>Setup<a class="q-heading-anchor" href="#setup-2"');
    expect(page.title).toBe('Top');
  });

  it('takes the title from frontmatter, else the first h1, else the file name', async () => {
    expect((await render('---\ntitle: From FM\n---\n# H1\n')).title).toBe('From FM');
    expect((await render('text', { filePath: 'guides/getting_started-now.mdx' })).title).toBe('Getting started now');
  });

  it('exports Markdown without frontmatter and imports, with the title', async () => {
    const page = await render("---\ntitle: Guide\ndescription: Lead\n---\nimport X from '/snippets/x.mdx'\n\nBody text\n");
    expect(page.markdown).toBe('# Guide\n\nLead\n\nBody text\n');
    expect(page.frontmatter).toEqual({ title: 'Guide', description: 'Lead' });
  });

  it('collects internal links and local assets, not external ones', async () => {
    const page = await render('[a](/guides/a) [b](../b#x) [c](https://example.com) [d](#here) ![i](/images/i.png) <img src="https://cdn.example/x.png" />');
    expect(page.links).toEqual(['/guides/a', '../b#x']);
    expect(page.assets).toEqual(['/images/i.png']);
    expect(page.text).toContain('a b c d');
  });

  it('substitutes config variables and renders $$ math with KaTeX', async () => {
    const page = await render('Use {{product}} now.\n\n$$\n\\frac{a}{b}\n$$\n', { variables: { product: 'Quire' } });
    expect(page.html).toContain('Use Quire now.');
    expect(page.html).toContain('<div class="q-math"><span class="katex-display">');
    expect(page.html).toContain('<mfrac>');
    expect(page.html).toContain('\\frac{a}{b}');
  });

  it('appends the OpenAPI operation from frontmatter, or warns', async () => {
    const page = await render('---\nopenapi: GET /users\n---\nIntro\n', { renderOpenApi: (ref) => `<div class="op">${ref}</div>` });
    expect(page.html).toMatch(/Intro[\s\S]*<section class="q-openapi"><div class="op">GET \/users<\/div><\/section>/);
    const missing = await render('---\napi: POST /nope\n---\nx\n', { renderOpenApi: () => undefined });
    expect(kinds(missing)).toEqual(['openapi']);
  });
});
