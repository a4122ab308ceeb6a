/**
 * The HTML a text block is edited as (a contenteditable element's innerHTML): the block's content converted
 * by mdast-util-to-hast, the converter the renderer uses, without the site's extra markup (heading anchors,
 * highlighting). `blockMarkdownFromHtml` (html-to-markdown.ts) reads exactly this subset back.
 */
import type { Root as HastRoot, Element } from 'hast';
import { toHtml } from 'hast-util-to-html';
import type { Root as MdastRoot } from 'mdast';
import { toHast } from 'mdast-util-to-hast';
import type { UNode } from '../markdown/mdx-nodes';
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
 * The HTML a text block (paragraph, heading, list, table, blockquote) is shown and edited as:
 * paragraph and heading → their inline content (`text <strong>b</strong> <a href="u">l</a>`);
 * blockquote → its `<p>`/`<ul>` children; list → `<ul>`/`<ol>` with `<li>`; table → `<table>`.
 * Other kinds (and a block whose source no longer parses) give ''.
 */
export function blockEditableHtml(block: Pick<VisualBlock, 'kind' | 'source' | 'indent'>): string {
  if (!TEXT_BLOCK_KINDS.has(block.kind)) return '';
  let node: UNode | undefined;
  try {
    node = parseSource(dedentBlock(block)).root.children?.[0];
  } catch {
    return '';
  }
  if (!node) return '';
  const hast = toHast(node as unknown as MdastRoot) as unknown as Element | HastRoot;
  const inner = block.kind === 'paragraph' || block.kind === 'heading' || block.kind === 'blockquote';
  const out = inner && hast.type === 'element' ? { type: 'root' as const, children: hast.children } : hast;
  return toHtml(out as HastRoot).replace(/^\n+|\n+$/g, '');
}
