/** KaTeX's CSS and mermaid are linked only by the pages that hold math or a diagram. */
import { describe, expect, it } from 'vitest';
import { pageAssetTags } from '../../src/site/page-assets';
import { renderMath } from '../../src/docs/markdown/math';
import { renderMermaid } from '../../src/docs/markdown/code-mermaid';

const assets = { css: '/a.css', js: '/a.js', themeJs: '/t.js', katexCss: '/_quire/assets/katex.1.css', mermaidJs: '/_quire/assets/mermaid.1.js' };

describe('pageAssetTags', () => {
  it('links KaTeX on pages with math and loads mermaid on pages with a diagram, deferred', () => {
    expect(pageAssetTags(assets, `<p>${renderMath('x', false)}</p>`)).toBe('<link rel="stylesheet" href="/_quire/assets/katex.1.css">');
    expect(pageAssetTags(assets, renderMermaid('graph TD; A-->B'))).toBe('<script defer src="/_quire/assets/mermaid.1.js"></script>');
  });

  it('adds nothing to other pages, or when the site has no such assets', () => {
    expect(pageAssetTags(assets, '<p>Plain <code>$x$</code> text about katex and mermaid</p>')).toBe('');
    expect(pageAssetTags({ css: '/a.css', js: '/a.js', themeJs: '/t.js' }, renderMath('x', true))).toBe('');
  });
});
