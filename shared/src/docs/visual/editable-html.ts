/**
 * The HTML a text block is edited as (a contenteditable element's innerHTML): the block's content converted
 * by mdast-util-to-hast, the converter the renderer uses, without the site's extra markup (heading anchors,
 * highlighting). `blockMarkdownFromHtml` (html-to-markdown.ts) reads exactly this subset back.
 */
import type { Root as HastRoot, Element, Nodes as HastNodes } from 'hast';
import { fromHtml } from 'hast-util-from-html';
import { toHtml } from 'hast-util-to-html';
import type { Root as MdastRoot, Link, Image } from 'mdast';
import { defaultHandlers, toHast, type Handler } from 'mdast-util-to-hast';
import type { UNode } from '../markdown/mdx-nodes';
import { nodeOfBlock } from './block-nodes';
import { parseSource } from './parse-source';
import { TEXT_BLOCK_KINDS, type VisualBlock } from './types';

/** The block's source with its own indentation taken off the lines after the first. */
export function dedentBlock(block: Pick<VisualBlock, 'source' | 'indent'>): string {
  const lf = block.source.replace(/\r\n/g, '\n');
  if (!block.indent) return lf;
  return lf
    .split('\n')
    .map((line, i) => (i > 0 && line.startsWith(block.indent) ? line.slice(block.indent.length) : line))
    .join('\n');
}

/**
 * Link and image handlers that keep the URL as written: the default ones percent-encode it (`[slug]` →
 * `%5Bslug%5D`), which would come back from the editor as a different URL.
 */
const VERBATIM_URLS: Record<string, Handler> = {
  link: (state, node: Link) => {
    const el = defaultHandlers.link(state, node);
    el.properties.href = node.url;
    return el;
  },
  image: (state, node: Image) => {
    const el = defaultHandlers.image(state, node);
    el.properties.src = node.url;
    return el;
  },
};

/** The HTML of one inline node (a link, an image) as blockEditableHtml writes it, URLs kept as written. */
export function inlineNodeHtml(node: UNode): string {
  return toHtml(toHast(node as unknown as MdastRoot, { handlers: VERBATIM_URLS }) as unknown as HastRoot);
}

/** HTML with runs of white space in text taken as one space, as a browser reads it (for comparing editor HTML). */
function normalizedHtml(html: string): string {
  const walk = (n: HastNodes): void => {
    if (n.type === 'text') n.value = n.value.replace(/\s+/g, ' ');
    if ('children' in n) {
      for (const c of n.children) walk(c);
      // white space between block elements (`<li>`, `<p>`) means nothing
      if (n.type === 'root' || (n.type === 'element' && /^(ul|ol|li|blockquote|table|thead|tbody|tr)$/.test(n.tagName))) {
        n.children = n.children.filter((c) => !(c.type === 'text' && !c.value.trim()));
      }
    }
  };
  const tree = fromHtml(html, { fragment: true });
  walk(tree);
  return toHtml(tree).trim();
}

/**
 * True when two editor HTML strings show the same content: equal once parsed, with white space runs read
 * as one space (so a browser's re-serialisation of unchanged HTML counts as no change).
 */
export function sameEditableHtml(a: string, b: string): boolean {
  return a === b || normalizedHtml(a) === normalizedHtml(b);
}

/**
 * The HTML a text block (paragraph, heading, list, table, blockquote) is shown and edited as:
 * paragraph and heading → their inline content (`text <strong>b</strong> <a href="u">l</a>`);
 * blockquote → its `<p>`/`<ul>` children; list → `<ul>`/`<ol>` with `<li>`; table → `<table>`.
 * Other kinds (and a block whose source no longer parses) give ''.
 */
export function blockEditableHtml(block: Pick<VisualBlock, 'kind' | 'source' | 'indent' | 'flavor'>): string {
  if (!TEXT_BLOCK_KINDS.has(block.kind)) return '';
  let node: UNode | undefined = nodeOfBlock(block);
  if (!node) {
    try {
      node = parseSource(dedentBlock(block), block.flavor ?? 'mdx').root.children?.[0];
    } catch {
      return '';
    }
  }
  if (!node) return '';
  const hast = toHast(node as unknown as MdastRoot, { handlers: VERBATIM_URLS }) as unknown as Element | HastRoot;
  const inner = block.kind === 'paragraph' || block.kind === 'heading' || block.kind === 'blockquote';
  const out = inner && hast.type === 'element' ? { type: 'root' as const, children: hast.children } : hast;
  return toHtml(out as HastRoot).replace(/^\n+|\n+$/g, '');
}
