/**
 * A page as a list of blocks pointing at their exact source (types.ts). Whatever cannot be edited from
 * HTML without loss (JSX other than the Mintlify components, expressions, imports/exports, raw HTML,
 * references, footnotes, math) becomes a 'readonly' block that keeps its bytes.
 */
import { splitFrontmatter } from '../markdown/frontmatter';
import type { MdxJsxAttribute, MdxJsxElement, MdxJsxExpressionAttribute, UNode } from '../markdown/mdx-nodes';
import { rememberNode } from './block-nodes';
import { isVisualComponent } from './components';
import { flavorOf, frontmatterRange, nodeOffsets, parseSource, type Flavor, type ParsedSource } from './parse-source';
import { inferStyleFromTree } from './style';
import type { VisualBlock, VisualBlockKind, VisualDocument, VisualProp } from './types';

/** Why an inline subtree cannot be edited as HTML, or undefined when it can. */
function inlineProblem(node: UNode): string | undefined {
  switch (node.type) {
    case 'mdxJsxTextElement':
    case 'mdxJsxFlowElement':
      return 'inline jsx';
    case 'mdxTextExpression':
    case 'mdxFlowExpression':
      return 'expression';
    case 'html':
      return 'html';
    case 'linkReference':
    case 'imageReference':
    case 'definition':
      return 'reference';
    case 'footnoteReference':
    case 'footnoteDefinition':
      return 'footnote';
    case 'mdxjsEsm':
      return 'export';
    case 'code':
      // the editor's HTML (`<pre><code class="language-x">`) has no place for the meta (`title="a.ts" {1,3}`)
      if (typeof node.meta === 'string' && node.meta) return 'code meta';
      break;
    case 'inlineCode':
      // hast-util-to-mdast drops the space after `<code>x </code>` as a browser would show it, changing the Markdown
      if (/^\s|\s$/.test(node.value ?? '')) return 'code span spaces';
      break;
  }
  for (const c of node.children ?? []) {
    const p = inlineProblem(c);
    if (p) return p;
  }
  return undefined;
}

/** The page-level context of a block conversion. */
interface Ctx {
  source: string;
  parsed: ParsedSource;
  flavor: Flavor;
}

/** The whitespace before `from` on its line, or '' when anything else comes first. */
function indentBefore(source: string, from: number): string {
  const start = source.lastIndexOf('\n', from - 1) + 1;
  const before = source.slice(start, from);
  return /^[ \t]*$/.test(before) ? before : '';
}

function block(ctx: Ctx, from: number, to: number, kind: VisualBlockKind, extra: Partial<VisualBlock> = {}): VisualBlock {
  const b: VisualBlock = { id: `b${from}`, kind, from, to, source: ctx.source.slice(from, to), indent: indentBefore(ctx.source, from), ...extra };
  if (ctx.flavor === 'md') b.flavor = 'md';
  return b;
}

function readonly(ctx: Ctx, from: number, to: number, reason: string): VisualBlock {
  return block(ctx, from, to, 'readonly', { readonlyReason: reason });
}

function props(ctx: Ctx, el: MdxJsxElement): VisualProp[] {
  return (el.attributes as Array<(MdxJsxAttribute | MdxJsxExpressionAttribute) & { position?: UNode['position'] }>).flatMap((a) => {
    const at = nodeOffsets(a as unknown as UNode);
    if (!at) return [];
    const [from, to] = [ctx.parsed.origin(at[0]), ctx.parsed.origin(at[1])];
    if (a.type === 'mdxJsxExpressionAttribute') return [{ name: '...', value: null, from, to }];
    const value = a.value === undefined || a.value === null ? true : typeof a.value === 'string' ? a.value : null;
    return [{ name: a.name, value, from, to }];
  });
}

function component(ctx: Ctx, el: MdxJsxElement, from: number, to: number): VisualBlock {
  let children: VisualBlock[];
  if (el.type === 'mdxJsxFlowElement') children = el.children.map((c) => toBlock(ctx, c)).filter((b): b is VisualBlock => !!b);
  else {
    // `<Note>text</Note>` on one line: its phrasing content is one paragraph
    const first = el.children[0] ? nodeOffsets(el.children[0]) : undefined;
    const last = el.children.length ? nodeOffsets(el.children[el.children.length - 1]!) : undefined;
    children = [];
    if (first && last) {
      const [f, t] = [ctx.parsed.origin(first[0]), ctx.parsed.origin(last[1])];
      const problem = el.children.map(inlineProblem).find(Boolean);
      children.push(problem ? readonly(ctx, f, t, problem) : rememberNode(block(ctx, f, t, 'paragraph'), { type: 'paragraph', children: el.children }));
    }
  }
  const source = ctx.source.slice(from, to);
  return block(ctx, from, to, 'component', {
    component: { name: el.name!, props: props(ctx, el), children, selfClosing: /\/>\s*$/.test(source) && el.children.length === 0 },
  });
}

/** One flow node of the tree as a block (undefined for nodes without a position). */
function toBlock(ctx: Ctx, node: UNode): VisualBlock | undefined {
  const at = nodeOffsets(node);
  if (!at) return undefined;
  const from = ctx.parsed.origin(at[0]);
  const to = ctx.parsed.origin(at[1]);
  const rewrite = ctx.parsed.rewritten.find((r) => r.from < to && Math.max(r.to, r.from + 1) > from);
  if (rewrite && node.type !== 'mdxJsxFlowElement') return readonly(ctx, from, to, rewrite.reason);
  switch (node.type) {
    case 'paragraph': {
      const kids = (node.children ?? []).filter((c) => !(c.type === 'text' && !c.value?.trim()));
      const only = kids.length === 1 ? kids[0]! : undefined;
      if (only?.type === 'mdxJsxTextElement' && isVisualComponent((only as MdxJsxElement).name)) {
        return component(ctx, only as MdxJsxElement, from, to);
      }
      const problem = inlineProblem(node);
      if (problem) return readonly(ctx, from, to, problem);
      if (only?.type === 'image') {
        const img = only as UNode & { url: string; alt?: string | null; title?: string | null };
        return block(ctx, from, to, 'image', { image: { src: img.url, alt: img.alt ?? '', title: img.title ?? null } });
      }
      return rememberNode(block(ctx, from, to, 'paragraph'), node);
    }
    case 'heading':
    case 'list':
    case 'blockquote':
    case 'table': {
      const problem = inlineProblem(node);
      if (problem) return readonly(ctx, from, to, problem);
      const extra: Partial<VisualBlock> = {};
      if (node.type === 'heading') extra.depth = node.depth as number;
      if (node.type === 'list') extra.ordered = !!node.ordered;
      return rememberNode(block(ctx, from, to, node.type, extra), node);
    }
    case 'code':
      return block(ctx, from, to, 'code', {
        lang: typeof node.lang === 'string' ? node.lang : '',
        meta: typeof node.meta === 'string' ? node.meta : '',
        code: node.value ?? '',
      });
    case 'thematicBreak':
      return block(ctx, from, to, 'thematicBreak');
    case 'mdxJsxFlowElement': {
      const el = node as MdxJsxElement;
      if (rewrite) return readonly(ctx, from, to, rewrite.reason);
      if (isVisualComponent(el.name)) return component(ctx, el, from, to);
      return readonly(ctx, from, to, el.name && /^[a-z]/.test(el.name) ? 'html' : 'unknown component');
    }
    case 'mdxjsEsm':
      return readonly(ctx, from, to, /^\s*import\b/.test(node.value ?? '') ? 'import' : 'export');
    case 'mdxFlowExpression':
      return readonly(ctx, from, to, 'expression');
    default:
      return readonly(ctx, from, to, inlineProblem(node) ?? node.type);
  }
}

/**
 * Splits a page into its frontmatter and top-level blocks. Never throws: a page the MDX parser rejects
 * gives one 'readonly' block (reason 'unparsable') over the whole body; unparsable YAML gives `data: {}`.
 * @param filePath the page's path: a `.md` page is parsed as plain Markdown (as the renderer does); default MDX
 */
export function parseVisualDocument(source: string, filePath?: string): VisualDocument {
  const flavor = flavorOf(filePath);
  let parsed: ParsedSource | undefined;
  try {
    parsed = parseSource(source, flavor);
  } catch {
    parsed = undefined;
  }
  const fmRange = frontmatterRange(source);
  let data: Record<string, unknown> = {};
  if (fmRange) {
    try {
      data = splitFrontmatter(source, 'page').data;
    } catch {
      data = {};
    }
  }
  const frontmatter = fmRange ? { from: fmRange.from, to: fmRange.to, data } : null;
  if (!parsed) {
    const from = /^\uFEFF/.test(source) ? 1 : 0;
    const ctx = { source, flavor, parsed: { root: { type: 'root' }, origin: (o: number) => o, rewritten: [], frontmatter: null } };
    const blocks = source.trim() ? [readonly(ctx, from, source.length, 'unparsable')] : [];
    return { frontmatter, blocks, style: inferStyleFromTree(source), flavor };
  }
  const ctx: Ctx = { source, parsed, flavor };
  const blocks = (parsed.root.children ?? []).map((n) => toBlock(ctx, n)).filter((b): b is VisualBlock => !!b);
  return { frontmatter, blocks, style: inferStyleFromTree(source, parsed), flavor };
}
