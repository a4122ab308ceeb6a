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
