/**
 * Minimal shapes of the MDX syntax-tree nodes Quire reads (from mdast-util-mdx-jsx, mdast-util-mdx-expression
 * and mdast-util-mdxjs-esm; declared here because those packages are not direct dependencies) and of the
 * ESTree nodes acorn attaches to them (`data.estree`). Nothing here is ever executed.
 */
import type { Root } from 'mdast';

/** A node's place in its file (1-based line and column). */
export type Position = NonNullable<Root['position']>;

/**
 * A syntax-tree node read loosely: mdast plus the MDX node types (which @types/mdast does not list).
 */
export interface UNode {
  type: string;
  position?: Position;
  data?: Record<string, unknown>;
  children?: UNode[];
  value?: string;
  [key: string]: unknown;
}

/** Any ESTree node: read structurally, never evaluated. */
export type EsNode = { type: string } & Record<string, unknown>;

/** A JSX attribute: `title="x"`, `cols={2}`, a bare `open` (value null). */
export interface MdxJsxAttribute {
  type: 'mdxJsxAttribute';
  name: string;
  value?: string | null | { type: 'mdxJsxAttributeValueExpression'; value: string; data?: { estree?: EsNode | null } };
}

/** A spread attribute `{...props}`. */
export interface MdxJsxExpressionAttribute {
  type: 'mdxJsxExpressionAttribute';
  value: string;
  data?: { estree?: EsNode | null };
}

/** `<Name ...>children</Name>` as a block (flow) or inside a paragraph (text). */
export interface MdxJsxElement extends UNode {
  type: 'mdxJsxFlowElement' | 'mdxJsxTextElement';
  /** null for fragments `<>...</>` */
  name: string | null;
  attributes: (MdxJsxAttribute | MdxJsxExpressionAttribute)[];
  children: UNode[];
  data?: { quireProps?: Record<string, unknown>; quireUnknown?: boolean } & Record<string, unknown>;
}

/** `{expression}` as a block or inline. */
export interface MdxExpression {
  type: 'mdxFlowExpression' | 'mdxTextExpression';
  value: string;
  data?: { estree?: EsNode | null };
  position?: Position;
}

/** `import`/`export` statements. */
export interface MdxjsEsm {
  type: 'mdxjsEsm';
  value: string;
  data?: { estree?: EsNode | null };
  position?: Position;
}

/** True when `node` is a JSX element (flow or text). */
export function isJsxElement(node: UNode): node is MdxJsxElement {
  return node.type === 'mdxJsxFlowElement' || node.type === 'mdxJsxTextElement';
}

/** Components and tags that sit inside a line of text. */
const INLINE_JSX = new Set(['Icon', 'Tooltip', 'Badge', 'a', 'abbr', 'b', 'br', 'code', 'em', 'i', 'img', 'kbd', 'mark', 's', 'small', 'span', 'strong', 'sub', 'sup', 'u']);

/**
 * When a paragraph is made only of JSX elements (and white space) of which at least one is a block —
 * `<Note>text</Note>` or `<Step title="x">y</Step>` written on one line — returns those elements as flow
 * elements (a `<p>` could not hold them, and `Steps`/`Tabs` look for their `Step`/`Tab` children);
 * otherwise undefined.
 */
export function hoistBlockJsx(paragraph: UNode): UNode[] | undefined {
  let block = false;
  const elements: UNode[] = [];
  for (const c of paragraph.children ?? []) {
    if (c.type === 'text' && !(c.value ?? '').trim()) continue;
    if (c.type !== 'mdxJsxTextElement') return undefined;
    if (!INLINE_JSX.has(String(c.name))) block = true;
    elements.push(c);
  }
  if (!block) return undefined;
  for (const e of elements) e.type = 'mdxJsxFlowElement';
  return elements;
}
