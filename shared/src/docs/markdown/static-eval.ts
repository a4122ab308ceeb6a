/**
 * Static reading of MDX expressions: MDX from a repository never runs code. An expression's
 * ESTree is inspected, never evaluated: only literals, template strings, identifiers bound to known
 * values (snippet props, `export const` string constants), member access on such values, `+` on strings and
 * numbers, array/object literals and JSX elements (written back as HTML) have a value. Anything else
 * (calls, `new`, functions, `process.exit(1)`, `fetch('x')`...) is {@link UNKNOWN}.
 * Values are measured as they are built ({@link ValueSizes}): none may exceed MAX_STATIC_VALUE_CHARS
 * (limits.ts), so `b = a + a; c = b + b; ...` stops long before it takes any memory.
 */
import { ExpansionLimitError, formatSize, MAX_PAGE_EXPANSION_CHARS, MAX_STATIC_VALUE_CHARS } from '../limits';
import { elementHtml } from './jsx-html';
import { escapeHtml } from './html';
import type { EsNode, UNode } from './mdx-nodes';

/** HTML produced from a JSX element inside an expression (e.g. `icon={<svg .../>}`). */
export class HtmlValue {
  constructor(readonly html: string) {}
}

/** Markdown nodes passed as `children` to a snippet component. */
export class NodesValue {
  constructor(readonly nodes: UNode[]) {}
}

/** A value known without running code. */
export type StaticValue =
  | string
  | number
  | boolean
  | null
  | undefined
  | HtmlValue
  | NodesValue
  | StaticValue[]
  | { [key: string]: StaticValue };

/** The result for an expression whose value cannot be known statically. */
export const UNKNOWN: unique symbol = Symbol('unknown');

/** Looks a name up in the current scope. */
export type Lookup = (name: string) => StaticValue | typeof UNKNOWN;

/** What one Markdown node counts in {@link treeSize} besides its text: about the markup it renders to. */
const NODE_CHARS = 10;

/**
 * Characters of a Markdown subtree (each node {@link NODE_CHARS}, plus its `value`), counting shared
 * subtrees once per occurrence; stops counting past `cap` (returns a number above it), so the work is
 * at most `cap / NODE_CHARS` steps.
 */
export function treeSize(nodes: readonly UNode[], cap: number): number {
  let size = 0;
  const stack: UNode[] = [...nodes];
  while (stack.length > 0 && size <= cap) {
    const n = stack.pop()!;
    size += NODE_CHARS + (typeof n.value === 'string' ? n.value.length : 0);
    if (n.children) for (const c of n.children) stack.push(c);
  }
  return size;
}

/**
 * Sizes of static values in characters (strings: their length; HTML: its length; Markdown nodes: see
 * {@link treeSize}; arrays and objects: the sum of their parts and keys, plus 1; anything else 1).
 * Memoized per object, so values sharing parts (`[a, a]`) are measured in time linear in how they
 * were written. One per page (the resolver's state): never module-wide.
 */
export class ValueSizes {
  private readonly known = new WeakMap<object, number>();

  /** Size of `v`, see the class doc. */
  of(v: StaticValue): number {
    if (typeof v === 'string') return v.length;
    if (v === null || typeof v !== 'object') return 1;
    const memo = this.known.get(v);
    if (memo !== undefined) return memo;
    let n = 1;
    if (v instanceof HtmlValue) n = v.html.length;
    else if (v instanceof NodesValue) n = treeSize(v.nodes, MAX_PAGE_EXPANSION_CHARS);
    else if (Array.isArray(v)) for (const x of v) n += this.of(x);
    else for (const [k, x] of Object.entries(v)) n += k.length + this.of(x);
    this.known.set(v, n);
    return n;
  }
}

/** Throws when a value about to be built would be longer than MAX_STATIC_VALUE_CHARS. */
function checkSize(size: number): void {
  if (size > MAX_STATIC_VALUE_CHARS) {
    throw new ExpansionLimitError(`is longer than ${formatSize(MAX_STATIC_VALUE_CHARS)} (values built from other values multiply)`);
  }
}

const MAX_DEPTH = 50;

function child(node: EsNode, key: string): EsNode | undefined {
  const v = node[key];
  return v && typeof v === 'object' && typeof (v as EsNode).type === 'string' ? (v as EsNode) : undefined;
}
function list(node: EsNode, key: string): (EsNode | null)[] {
  const v = node[key];
  return Array.isArray(v) ? (v as (EsNode | null)[]) : [];
}

/** The single expression of an MDX expression's `Program`, or undefined when it holds none (a comment). */
export function programExpression(program: EsNode | null | undefined): EsNode | undefined {
  if (!program) return undefined;
  const body = list(program, 'body');
  const first = body[0];
  return first && first.type === 'ExpressionStatement' ? child(first, 'expression') : undefined;
}

/**
 * Reads an expression's value statically; see the module doc. Never runs code.
 * @param sizes the page's value sizes (see {@link ValueSizes})
 * @throws ExpansionLimitError (message without the file: the caller names it) when a string, array,
 *   object or HTML value built here would be longer than MAX_STATIC_VALUE_CHARS (limits.ts)
 */
export function evaluate(node: EsNode | undefined, lookup: Lookup, sizes: ValueSizes, depth = 0): StaticValue | typeof UNKNOWN {
  if (!node || depth > MAX_DEPTH) return UNKNOWN;
  const next = (n: EsNode | undefined) => evaluate(n, lookup, sizes, depth + 1);
  switch (node.type) {
    case 'Literal': {
      const v = node.value;
      if (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean' || v === null) return v;
      return UNKNOWN;
    }
    case 'TemplateLiteral': {
      const quasis = list(node, 'quasis');
      const exprs = list(node, 'expressions');
      let out = '';
      for (let i = 0; i < quasis.length; i++) {
        const q = quasis[i]!.value as { cooked?: string | null; raw: string };
        out += q.cooked ?? q.raw;
        if (i < exprs.length) {
          const v = next(exprs[i] ?? undefined);
          if (typeof v !== 'string' && typeof v !== 'number') return UNKNOWN;
          const part = String(v);
          checkSize(out.length + part.length);
          out += part;
        }
      }
      return out;
    }
    case 'Identifier':
      return node.name === 'undefined' ? undefined : lookup(String(node.name));
    case 'MemberExpression': {
      const obj = next(child(node, 'object'));
      const prop = child(node, 'property');
      const key = node.computed ? next(prop) : prop?.type === 'Identifier' ? String(prop.name) : UNKNOWN;
      if (obj === UNKNOWN || (typeof key !== 'string' && typeof key !== 'number')) return UNKNOWN;
      if (obj === null || typeof obj !== 'object' || obj instanceof HtmlValue || obj instanceof NodesValue) return UNKNOWN;
      const k = String(key);
      return Object.hasOwn(obj, k) ? (obj as Record<string, StaticValue>)[k] : undefined;
    }
    case 'UnaryExpression': {
      const v = next(child(node, 'argument'));
      if (v === UNKNOWN) return UNKNOWN;
      if (node.operator === '-' && typeof v === 'number') return -v;
      if (node.operator === '+' && typeof v === 'number') return v;
      if (node.operator === '!' && (typeof v !== 'object' || v === null)) return !v;
      return UNKNOWN;
    }
    case 'BinaryExpression': {
      if (node.operator !== '+') return UNKNOWN;
      const a = next(child(node, 'left'));
      const b = next(child(node, 'right'));
      if ((typeof a === 'string' || typeof a === 'number') && (typeof b === 'string' || typeof b === 'number')) {
        if (typeof a === 'number' && typeof b === 'number') return a + b;
        const [sa, sb] = [String(a), String(b)];
        checkSize(sa.length + sb.length);
        return sa + sb;
      }
      return UNKNOWN;
    }
    case 'LogicalExpression': {
      const a = next(child(node, 'left'));
      if (a === UNKNOWN) return UNKNOWN;
      if (node.operator === '??') return a === null || a === undefined ? next(child(node, 'right')) : a;
      if (node.operator === '||') return a ? a : next(child(node, 'right'));
      if (node.operator === '&&') return a ? next(child(node, 'right')) : a;
      return UNKNOWN;
    }
    case 'ArrayExpression': {
      const out: StaticValue[] = [];
      let size = 1;
      for (const el of list(node, 'elements')) {
        const v = next(el ?? undefined);
        if (v === UNKNOWN) return UNKNOWN;
        checkSize((size += sizes.of(v)));
        out.push(v);
      }
      return out;
    }
    case 'ObjectExpression': {
      const out: Record<string, StaticValue> = Object.create(null) as Record<string, StaticValue>;
      let size = 1;
      for (const p of list(node, 'properties')) {
        if (!p || p.type !== 'Property' || p.computed || p.kind !== 'init' || p.method) return UNKNOWN;
        const keyNode = child(p, 'key');
        const key = keyNode?.type === 'Identifier' ? String(keyNode.name) : keyNode?.type === 'Literal' ? String(keyNode.value) : undefined;
        if (key === undefined || key === '__proto__') return UNKNOWN;
        const v = next(child(p, 'value'));
        if (v === UNKNOWN) return UNKNOWN;
        checkSize((size += key.length + sizes.of(v)));
        out[key] = v;
      }
      return out;
    }
    case 'JSXElement':
    case 'JSXFragment':
      return new HtmlValue(jsxToHtml(node, lookup, sizes, depth + 1));
    default:
      return UNKNOWN;
  }
}

function jsxName(n: EsNode | undefined): string {
  if (!n) return '';
  if (n.type === 'JSXIdentifier') return String(n.name);
  if (n.type === 'JSXNamespacedName') return `${jsxName(child(n, 'namespace'))}:${jsxName(child(n, 'name'))}`;
  if (n.type === 'JSXMemberExpression') return `${jsxName(child(n, 'object'))}.${jsxName(child(n, 'property'))}`;
  return '';
}

/**
 * Writes a JSX element from an expression back as HTML: lowercase tags with their static attributes;
 * capitalised components contribute only their children; non-static `{...}` parts are left out.
 * @throws ExpansionLimitError as {@link evaluate}, when the HTML would be longer than MAX_STATIC_VALUE_CHARS
 */
export function jsxToHtml(node: EsNode, lookup: Lookup, sizes: ValueSizes, depth = 0): string {
  if (depth > MAX_DEPTH) return '';
  let children = '';
  const add = (html: string) => {
    checkSize(children.length + html.length);
    children += html;
  };
  for (const c of list(node, 'children')) {
    if (!c) continue;
    if (c.type === 'JSXText') add(escapeHtml(String(c.value).replace(/\s*\n\s*/g, ' ')));
    else if (c.type === 'JSXElement' || c.type === 'JSXFragment') add(jsxToHtml(c, lookup, sizes, depth + 1));
    else if (c.type === 'JSXExpressionContainer') {
      const v = evaluate(child(c, 'expression'), lookup, sizes, depth + 1);
      if (typeof v === 'string' || typeof v === 'number') add(escapeHtml(String(v)));
      else if (v instanceof HtmlValue) add(v.html);
    }
  }
  if (node.type === 'JSXFragment') return children;
  const opening = child(node, 'openingElement');
  const name = jsxName(child(opening ?? node, 'name'));
  if (!/^[a-z]/.test(name)) return children;
  const attrs: Record<string, unknown> = {};
  for (const a of list(opening ?? node, 'attributes')) {
    if (!a || a.type !== 'JSXAttribute') continue;
    const attrName = jsxName(child(a, 'name'));
    const value = child(a, 'value');
    if (!value) attrs[attrName] = true;
    else if (value.type === 'Literal') attrs[attrName] = value.value;
    else if (value.type === 'JSXExpressionContainer') {
      const v = evaluate(child(value, 'expression'), lookup, sizes, depth + 1);
      if (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') attrs[attrName] = v;
    }
  }
  const html = elementHtml(name, attrs, children);
  checkSize(html.length);
  return html;
}
