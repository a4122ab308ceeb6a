/**
 * The linter's navigation rules (shared/src/lint/navigation.ts): broken internal links, missing
 * images and unknown components, against a page inventory; silent without one.
 */
import { describe, expect, it } from 'vitest';
import { pageInventory } from '../../src/docs/page-inventory';
import { createLinter } from '../../src/lint/linter';

const inventory = pageInventory({
  pages: ['index', 'guides/setup', 'guides/other', 'cli/index'],
  files: ['index.mdx', 'guides/setup.mdx', 'guides/other.mdx', 'cli/index.mdx', 'images/logo.png', 'downloads/spec.json'],
  redirects: [{ source: '/old/:slug*', destination: '/guides/:slug*', permanent: true }],
});
const linter = createLinter({ inventory });
const page = (body: string) => `---\ntitle: Guide\n---\n\n${body}\n`;
const only = async (text: string, ruleId: string, path = 'guides/setup.mdx') => (await linter.lint(text, path)).filter((f) => f.ruleId === ruleId);

describe('links/broken', () => {
  it('names every target it judged, so that a build can tell when a page\'s findings may change (lintWithTargets)', async () => {
    const text = page('[a](/guides/other) [b](/nowhere) [c](https://example.com/x) [d](#top)\n\n![Logo](/images/logo.png)\n\n<Card title="x" href="/cli">y</Card>\n\n[ref]: /old/thing');
    const { findings, targets } = await linter.lintWithTargets(text, 'guides/setup.mdx');
    expect(findings).toEqual(await linter.lint(text, 'guides/setup.mdx'));
    expect(targets).toEqual({ links: ['/guides/other', '/nowhere', 'https://example.com/x', '#top', '/cli', '/old/thing'], images: ['/images/logo.png'] });
    expect((await createLinter().lintWithTargets(text, 'guides/setup.mdx')).targets).toEqual({ links: [], images: [] });
  });

  it('finds a link to no page, placing it on the URL, and fixes a link differing only by case', async () => {
    const text = page('See [the page](/missing-page) and [other](/Guides/Other#top).');
    const found = await only(text, 'links/broken');
    expect(found).toEqual([
      expect.objectContaining({ severity: 'warning', line: 5, column: 16, endLine: 5, endColumn: 29, message: 'The link "/missing-page" points to no page or file of the site.' }),
      expect.objectContaining({ line: 5, column: 43, message: 'The link "/Guides/Other#top" points to no page or file of the site; did you mean "/guides/other#top"?' }),
    ]);
    expect(found[0]!.fix).toBeUndefined();
    const fixed = await linter.autoFix(text, 'guides/setup.mdx', ['links/broken']);
    expect(fixed.text).toBe(page('See [the page](/missing-page) and [other](/guides/other#top).'));
  });

  it('accepts pages, index pages, relative links, files, redirects, anchors and external links', async () => {
    const text = page('[a](/guides/other) [b](other) [c](../cli) [d](/cli/) [e](/) [f](#top) [g](https://example.com/x) [h](/downloads/spec.json) [i](/guides/other.mdx) [j](/old/thing)\n\n<Card title="x" href="/guides/other">y</Card>\n\n[ref]: /guides/other');
    expect(await only(text, 'links/broken')).toEqual([]);
  });

  it('checks links inside tables, and takes footnotes for what they are (no link)', async () => {
    const text = page('| Page | Where |\n| --- | --- |\n| Setup | [go](/guides/other) |\n| Gone | [go](/nowhere) |\n\nA claim.[^1]\n\n[^1]: A footnote, not a link.');
    expect((await only(text, 'links/broken')).map((f) => [f.line, f.message])).toEqual([[8, 'The link "/nowhere" points to no page or file of the site.']]);
  });

  it('checks component hrefs and link definitions too', async () => {
    const text = page('<Card title="x" href="/nowhere">y</Card>\n\n[ref][r]\n\n[r]: /gone');
    expect((await only(text, 'links/broken')).map((f) => [f.line, f.message])).toEqual([
      [5, 'The link "/nowhere" points to no page or file of the site.'],
      [9, 'The link "/gone" points to no page or file of the site.'],
    ]);
  });
});

describe('images/missing', () => {
  it('finds an image that is not a file of the site, and fixes one differing only by case', async () => {
    const text = page('![logo](/images/gone.png)\n\n![logo](/Images/Logo.png)\n\n<img src="/images/none.svg" alt="x" />');
    const found = await only(text, 'images/missing');
    expect(found.map((f) => [f.line, f.column, f.message])).toEqual([
      [5, 9, 'The image "/images/gone.png" is not a file of the site.'],
      [7, 9, 'The image "/Images/Logo.png" is not a file of the site; did you mean "/images/logo.png"?'],
      [9, 11, 'The image "/images/none.svg" is not a file of the site.'],
    ]);
    const fixed = await linter.autoFix(text, 'guides/setup.mdx', ['images/missing']);
    expect(fixed.text).toContain('![logo](/images/logo.png)');
  });

  it('accepts published images, relative or root-relative, and external or data sources', async () => {
    const text = page('![a](/images/logo.png) ![b](../images/logo.png) ![c](https://cdn.example.com/x.png)\n\n<Frame><img src="/images/logo.png" alt="x" /></Frame>\n\n<script src="/scripts/x.js"></script>');
    expect(await only(text, 'images/missing')).toEqual([]);
  });
});

describe('components/unknown', () => {
  it('finds a component the engine does not know, and fixes one differing only by case', async () => {
    const text = page('<Notee>Careful.</Notee>\n\n<Codegroup>\n\n```bash\nls\n```\n\n</Codegroup>');
    const found = await only(text, 'components/unknown');
    expect(found.map((f) => [f.line, f.column, f.endColumn, f.message])).toEqual([
      [5, 2, 7, 'The component <Notee> is not one the docs engine knows: the site shows only its content.'],
      [7, 2, 11, 'The component <Codegroup> is not one the docs engine knows: the site shows only its content; did you mean <CodeGroup>?'],
    ]);
    const fixed = await linter.autoFix(text, 'guides/setup.mdx', ['components/unknown']);
    expect(fixed.text).toBe(page('<Notee>Careful.</Notee>\n\n<CodeGroup>\n\n```bash\nls\n```\n\n</CodeGroup>'));
  });

  it('accepts known components, HTML tags, and components the page imports or defines', async () => {
    const text = page('import Banner from "/snippets/banner.mdx";\n\nexport const Hello = () => "hi";\n\n<Note>Fine.</Note>\n\n<div>x</div>\n\n<Banner />\n\n<Hello />\n\n<Tree><Tree.Folder name="a" /></Tree>');
    expect(await only(text, 'components/unknown')).toEqual([]);
  });
});

describe('without an inventory', () => {
  it('stays silent on links, images and components', async () => {
    const text = page('[x](/missing) ![y](/gone.png) <Notee>z</Notee>');
    const ids = (await createLinter().lint(text, 'guides/setup.mdx')).map((f) => f.ruleId);
    expect(ids.filter((id) => ['links/broken', 'images/missing', 'components/unknown'].includes(id))).toEqual([]);
    expect((await linter.lint(text, 'guides/setup.mdx')).map((f) => f.ruleId)).toEqual(expect.arrayContaining(['links/broken', 'images/missing', 'components/unknown']));
  });

  it('follows the linter settings: a disabled rule finds nothing', async () => {
    const off = createLinter({ inventory, settings: { rules: { 'links/broken': { enabled: false }, 'images/missing': { enabled: true, severity: 'error' } } } });
    const found = await off.lint(page('[x](/missing) ![y](/gone.png)'), 'guides/setup.mdx');
    expect(found.filter((f) => f.ruleId === 'links/broken')).toEqual([]);
    expect(found.find((f) => f.ruleId === 'images/missing')?.severity).toBe('error');
  });
});
