/**
 * Static reading of MDX expressions (issue 3: "MDX from a repository never runs code"). An expression's
 * ESTree is inspected, never evaluated: only literals, template strings, identifiers bound to known
 * values (snippet props, `export const` string constants), member access on such values, `+` on strings and
 * numbers, array/object literals and JSX elements (written back as HTML) have a value. Anything else
 * (calls, `new`, functions, `process.exit(1)`, `fetch('x')`...) is {@link UNKNOWN}.
 */
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

/** Reads an expression's value statically; see the module doc. Never throws, never runs code. */
export function evaluate(node: EsNode | undefined, lookup: Lookup, depth = 0): StaticValue | typeof UNKNOWN {
  if (!node || depth > MAX_DEPTH) return UNKNOWN;
  const next = (n: EsNode | undefined) => evaluate(n, lookup, depth + 1);
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
          out += String(v);
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
        return typeof a === 'number' && typeof b === 'number' ? a + b : String(a) + String(b);
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
      for (const el of list(node, 'elements')) {
        const v = next(el ?? undefined);
        if (v === UNKNOWN) return UNKNOWN;
        out.push(v);
      }
      return out;
    }
    case 'ObjectExpression': {
      const out: Record<string, StaticValue> = Object.create(null) as Record<string, StaticValue>;
      for (const p of list(node, 'properties')) {
        if (!p || p.type !== 'Property' || p.computed || p.kind !== 'init' || p.method) return UNKNOWN;
        const keyNode = child(p, 'key');
        const key = keyNode?.type === 'Identifier' ? String(keyNode.name) : keyNode?.type === 'Literal' ? String(keyNode.value) : undefined;
        if (key === undefined || key === '__proto__') return UNKNOWN;
        const v = next(child(p, 'value'));
        if (v === UNKNOWN) return UNKNOWN;
        out[key] = v;
      }
      return out;
    }
    case 'JSXElement':
    case 'JSXFragment':
      return new HtmlValue(jsxToHtml(node, lookup, depth + 1));
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
 */
export function jsxToHtml(node: EsNode, lookup: Lookup, depth = 0): string {
  if (depth > MAX_DEPTH) return '';
  let children = '';
  for (const c of list(node, 'children')) {
    if (!c) continue;
    if (c.type === 'JSXText') children += escapeHtml(String(c.value).replace(/\s*\n\s*/g, ' '));
    else if (c.type === 'JSXElement' || c.type === 'JSXFragment') children += jsxToHtml(c, lookup, depth + 1);
    else if (c.type === 'JSXExpressionContainer') {
      const v = evaluate(child(c, 'expression'), lookup, depth + 1);
      if (typeof v === 'string' || typeof v === 'number') children += escapeHtml(String(v));
      else if (v instanceof HtmlValue) children += v.html;
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
      const v = evaluate(child(value, 'expression'), lookup, depth + 1);
      if (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') attrs[attrName] = v;
    }
  }
  return elementHtml(name, attrs, children);
}
