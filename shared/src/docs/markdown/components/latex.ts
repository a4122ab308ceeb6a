/**
 * `<Latex>` (Mintlify's LaTeX component, mintlify.com/docs/components/latex): its text as KaTeX math,
 * display math when it stands as a block, inline math inside a line of text. Its text reaches the
 * parser as a marked code span (math-inline.ts), so MDX never reads the `{...}` of TeX as expressions
 * (any left are put back as written, never evaluated). The HTML comes from
 * the highlighter's `math` (math.ts: sanitized, and kept out of the page sanitizer by render-page.ts).
 */
import { inlineMathSource } from '../math-inline';
import type { UNode } from '../mdx-nodes';
import type { Component } from './types';

/** The TeX written between the tags: text, inline code and expressions (`{2}`) as in the source. */
function texOf(nodes: readonly UNode[]): string {
  return nodes
    .map((n) => {
      if (n.type === 'mdxTextExpression' || n.type === 'mdxFlowExpression') return `{${n.value ?? ''}}`;
      if (n.type === 'inlineCode') return inlineMathSource(n.value ?? '') ?? n.value ?? '';
      if (n.type === 'text') return n.value ?? '';
      return texOf(n.children ?? []);
    })
    .join('');
}

/** The LaTeX component by name. */
export const latexComponents: Record<string, Component> = {
  Latex: (ctx) => ctx.highlighter.math(texOf(ctx.node.children).trim(), ctx.node.type === 'mdxJsxFlowElement'),
};
