/**
 * Markdown for the edited content of one block, in the file's style: the contenteditable's HTML is read by
 * hast-util-from-html, turned into mdast by hast-util-to-mdast and written by mdast-util-to-markdown with
 * the GFM and MDX extensions (so text such as `<` or `{` is escaped as MDX needs).
 */
import type { Element, ElementContent, Root as HastRoot, Nodes as HastNodes } from 'hast';
import type { List, Nodes as MdastNodes } from 'mdast';
import { fromHtml } from 'hast-util-from-html';
import { toMdast } from 'hast-util-to-mdast';
import { gfmToMarkdown } from 'mdast-util-gfm';
import { mdxToMarkdown } from 'mdast-util-mdx';
import { toMarkdown } from 'mdast-util-to-markdown';
import type { SourceStyle, VisualBlockKind } from './types';

/** `html` as the element of its block kind (contenteditable HTML of paragraphs and headings is inline only). */
function wrap(html: string, kind: VisualBlockKind, depth: number): string {
  switch (kind) {
    case 'heading':
      return `<h${depth}>${html}</h${depth}>`;
    case 'blockquote':
      return `<blockquote>${html}</blockquote>`;
    case 'list':
    case 'table':
      return html;
    default:
      return `<p>${html}</p>`;
  }
}

/** Elements of a hast tree in preorder that are lists. */
function htmlLists(node: HastNodes, out: Element[] = []): Element[] {
  if (node.type === 'element' && (node.tagName === 'ul' || node.tagName === 'ol')) out.push(node);
  if ('children' in node) for (const c of node.children) htmlLists(c, out);
  return out;
}

/** List nodes of an mdast tree in preorder. */
function mdLists(node: MdastNodes, out: List[] = []): List[] {
  if (node.type === 'list') out.push(node);
  if ('children' in node) for (const c of node.children) mdLists(c, out);
  return out;
}

/**
 * Gives each list the looseness its HTML shows (CommonMark 0.31 section 5.3: a loose list's items are
 * wrapped in `<p>`): hast-util-to-mdast guesses it from the items' content and would turn a tight list with
 * a nested list into a loose one.
 */
function keepListLooseness(hast: HastRoot, mdast: MdastNodes): void {
  const inHtml = htmlLists(hast);
  const inMd = mdLists(mdast);
  if (inHtml.length !== inMd.length) return;
  inHtml.forEach((h, i) => {
    const isEl = (n: ElementContent, tag: string): n is Element => n.type === 'element' && n.tagName === tag;
    const loose = h.children.some((li) => isEl(li, 'li') && li.children.some((c) => isEl(c, 'p')));
    const list = inMd[i]!;
    list.spread = loose;
    for (const item of list.children) item.spread = loose;
  });
}

/**
 * The Markdown of one block from the HTML it was edited as (blockEditableHtml's subset: text, `<strong>`/`<b>`,
 * `<em>`/`<i>`, `<code>`, `<a href>`, `<br>`, `<ul>`/`<ol>`/`<li>`, `<p>`, tables), in `style`, with `\n` line
 * ends and no trailing newline. `opts.depth` is the heading level (default 2); `opts.flavor` 'md' writes plain
 * Markdown (no MDX escapes of `{` and `<`).
 */
export function blockMarkdownFromHtml(
  html: string,
  kind: VisualBlockKind,
  style: SourceStyle,
  opts: { depth?: number; flavor?: 'md' | 'mdx' } = {},
): string {
  const depth = Math.min(6, Math.max(1, opts.depth ?? 2));
  const hast = fromHtml(wrap(html, kind, depth), { fragment: true }) as HastRoot;
  const mdast = toMdast(hast);
  keepListLooseness(hast, mdast);
  const md = toMarkdown(mdast, {
    bullet: style.bullet,
    bulletOther: style.bullet === '-' ? '*' : '-',
    bulletOrdered: style.bulletOrdered,
    emphasis: style.emphasis,
    strong: style.strong,
    fence: style.fence,
    rule: style.rule,
    listItemIndent: style.listItemIndent,
    extensions: opts.flavor === 'md' ? [gfmToMarkdown()] : [gfmToMarkdown(), mdxToMarkdown()],
  });
  return md.replace(/\s+$/, '');
}
