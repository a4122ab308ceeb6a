/** Math with KaTeX: `$inline$`, `$$display$$`, ```math fences; prices stay text; the output stays safe. */
import { describe, expect, it } from 'vitest';
import { markInlineMath, unmarkInlineMath } from '../../../src/docs/markdown/math-inline';
import { renderMath } from '../../../src/docs/markdown/math';
import { render } from './render-helpers';

describe('markInlineMath', () => {
  it('marks $x$ and leaves prices, escaped dollars, code spans and code fences alone', () => {
    const text = [
      'Area $\\pi r^2$ here.',
      'It costs $5 and $10, or $20,000 and $30,000.',
      'Escaped \\$x\\$ stays text.',
      'Run `echo $HOME$` and $HOME/$USER.',
      '<Card title="Plans: $x$ or $y$">text</Card>',
      '```sh',
      'echo $a$',
      '```',
    ].join('\n');
    const out = markInlineMath(text).split('\n');
    expect(out[0]).toBe('Area `\uE002\\pi r^2` here.');
    expect(markInlineMath('If $a<b$ then <b>$c$</b>.')).toBe('If `\uE002a<b` then <b>`\uE002c`</b>.');
    expect(out.slice(1)).toEqual(text.split('\n').slice(1));
  });

  it('keeps line numbers and undoes itself for the Markdown export', () => {
    const text = 'a $x$\nb $`y`$\nc';
    const marked = markInlineMath(text);
    expect(marked.split('\n')).toHaveLength(3);
    expect(unmarkInlineMath(marked)).toBe(text);
  });
});

describe('renderMath', () => {
  it('renders display and inline math with MathML for screen readers', () => {
    const display = renderMath('\\frac{a}{b}', true);
    expect(display).toMatch(/^<div class="q-math"><span class="katex-display">/);
    expect(display).toContain('<mfrac>');
    expect(renderMath('x^2', false)).toMatch(/^<span class="katex">/);
  });

  it('does not trust the TeX: no links, no HTML, no classes of the author', () => {
    const html = renderMath('\\href{javascript:alert(1)}{x} \\htmlClass{q-evil}{y} \\url{https://e.com} <img src=x onerror=alert(1)>', false);
    expect(html).not.toMatch(/<a\b|\shref="|<img|\sonerror="|class="[^"]*q-evil/);
    expect(html).toContain('&lt;img');
  });

  it('shows a TeX error instead of throwing', () => {
    expect(renderMath('\\frac{', true)).toContain('katex-error');
    expect(renderMath('\\def\\a{\\a\\a}\\a', false)).toContain('katex-error');
  });
});

describe('math in pages', () => {
  it('renders $...$ and $$...$$ in MDX, with TeX braces that MDX would read as JavaScript', async () => {
    const page = await render('# T\n\nThe ratio $\\frac{a}{b}$ is small.\n\n$$\nx = {y \\over 2}\n$$\n');
    expect(page.html).toContain('<annotation encoding="application/x-tex">\\frac{a}{b}</annotation>');
    expect(page.html).toContain('<div class="q-math">');
    expect(page.html).not.toContain('$');
    expect(page.markdown).toContain('The ratio $\\frac{a}{b}$ is small.');
    // the page's text (search, snippets) holds the formula once, not its MathML copy as well
    expect(page.text).toMatch(/The ratio \S+ is small\./);
    expect(page.text).not.toContain('frac');
  });

  it('renders $...$ in .md pages and keeps the formula out of heading ids', async () => {
    const page = await render('## Energy $E=mc^2$\n\nText $a_1$.\n', { filePath: 'p.md' });
    expect(page.html.match(/class="katex"/g)).toHaveLength(2);
    expect(page.toc[0]!.text).toBe('Energy E=mc^2');
  });

  it('renders <Latex> inline in text and as display math on its own, with the braces MDX read as expressions', async () => {
    const page = await render('Inline: <Latex>E = mc^2</Latex> here.\n\n<Latex>\\frac{1}{2}</Latex>\n');
    expect(page.html).toMatch(/<p>Inline: <span class="katex">.*E = mc\^2<\/annotation>.* here\.<\/p>/s);
    expect(page.html).toContain('<div class="q-math"><span class="katex-display">');
    expect(page.html).toContain('<annotation encoding="application/x-tex">\\frac{1}{2}</annotation>');
    expect(page.warnings).toEqual([]);
    expect(page.markdown).toContain('<Latex>\\frac{1}{2}</Latex>');
    // a block written over several lines
    const block = await render('<Latex>\n  x^{2} + y^{2}\n</Latex>\n');
    expect(block.html).toContain('<annotation encoding="application/x-tex">x^{2} + y^{2}</annotation>');
  });

  it('renders Mintlify-style ```latex fences as display math', async () => {
    const page = await render('```latex\n\\sum_{i=1}^n i\n```\n');
    expect(page.html).toContain('katex-display');
  });
});
