/**
 * `{user.<field>}` in MDX (Mintlify's personalisation syntax; the shared rules are in
 * site/personalisation.ts). The expression's ESTree is read, never evaluated: only these forms are
 * recognised, anything else stays an unevaluated expression (a build warning, nothing rendered):
 *
 * - `user.name`, `user?.name`, `user["name"]`;
 * - with a fallback for readers without the claim: `user.name ?? "there"`, `user?.name || 'there'`
 *   (the right side a string literal, or a template literal without `${}`).
 */
import { USER_ATTR } from '../../site/personalisation';
import { escapeHtml } from './html';
import type { EsNode } from './mdx-nodes';

/** A recognised reference: the field and the fallback text ('' without one). */
export interface UserReference {
  field: string;
  fallback: string;
}

/** The string a literal node holds (a string literal, or a template literal without expressions); undefined otherwise. */
function literalText(node: EsNode | undefined): string | undefined {
  if (!node) return undefined;
  if (node.type === 'Literal' && typeof node.value === 'string') return node.value;
  if (node.type === 'TemplateLiteral' && Array.isArray(node.expressions) && node.expressions.length === 0) {
    const quasis = node.quasis as { value?: { cooked?: string | null } }[] | undefined;
    const cooked = quasis?.[0]?.value?.cooked;
    return typeof cooked === 'string' ? cooked : undefined;
  }
  return undefined;
}

/** The field of `user.<field>` (also `user?.field`, `user["field"]`); undefined for anything else. */
function memberField(node: EsNode | undefined): string | undefined {
  let n = node;
  if (n?.type === 'ChainExpression') n = n.expression as EsNode | undefined;
  if (n?.type !== 'MemberExpression') return undefined;
  const object = n.object as EsNode | undefined;
  if (object?.type !== 'Identifier' || object.name !== 'user') return undefined;
  const property = n.property as EsNode | undefined;
  if (!n.computed && property?.type === 'Identifier' && typeof property.name === 'string') return property.name;
  if (n.computed) return literalText(property);
  return undefined;
}

/**
 * Reads a `{user...}` expression (see the module comment).
 * @param expr the expression of an `mdxFlowExpression`/`mdxTextExpression` (static-eval.ts `programExpression`)
 * @returns the reference, or undefined when the expression is not one of the recognised forms
 */
export function userReference(expr: EsNode | undefined): UserReference | undefined {
  if (!expr) return undefined;
  if (expr.type === 'LogicalExpression' && (expr.operator === '??' || expr.operator === '||')) {
    const field = memberField(expr.left as EsNode | undefined);
    const fallback = literalText(expr.right as EsNode | undefined);
    return field !== undefined && fallback !== undefined ? { field, fallback } : undefined;
  }
  const field = memberField(expr);
  return field !== undefined ? { field, fallback: '' } : undefined;
}

/** Whether an expression names `user` at all (a `{user.org?.plan}` Quire does not read gets its own warning). */
export function mentionsUser(expr: EsNode | undefined): boolean {
  let n: EsNode | undefined = expr;
  for (let depth = 0; n && depth < 8; depth++) {
    if (n.type === 'Identifier') return n.name === 'user';
    n = (n.type === 'ChainExpression' ? n.expression : n.type === 'MemberExpression' ? n.object : n.type === 'LogicalExpression' ? n.left : undefined) as EsNode | undefined;
  }
  return false;
}

/**
 * The placeholder element of a reference: `<span data-quire-user="<field>">escaped fallback</span>`,
 * what the site server replaces with the reader's claim (server/src/sites/personalise.ts) and what
 * a reader without the claim sees as it is.
 */
export function userPlaceholder(ref: UserReference): string {
  return `<span ${USER_ATTR}="${escapeHtml(ref.field)}">${escapeHtml(ref.fallback)}</span>`;
}
