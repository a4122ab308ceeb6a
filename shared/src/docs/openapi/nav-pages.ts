/**
 * Navigation for generated OpenAPI pages: a navigation group with `openapi` and no pages gets one
 * page per operation (MINTLIFY-FORMAT.md section 6), grouped by tag as Mintlify does.
 */
import type { NavGroup, NavPage } from '../types';
import { operationPagePath } from './page-path';
import type { ResolvedOperation } from './types';

/**
 * The navigation page of one operation: generated path, title, method badge (uppercase, `WEBHOOK`
 * for webhooks, as the builder writes it), and an `openapi`
 * reference (`<spec file> METHOD /path` or `<spec file> webhook name`) that resolves back to it.
 */
export function operationNavPage(op: ResolvedOperation): NavPage {
  const ref = op.kind === 'webhook' ? `${op.specFile} webhook ${op.path}` : `${op.specFile} ${op.method.toUpperCase()} ${op.path}`;
  return {
    type: 'page',
    path: operationPagePath(op),
    title: op.title,
    method: op.kind === 'webhook' ? 'WEBHOOK' : op.method.toUpperCase(),
    openapi: ref,
    openapiSpec: op.specFile,
    ...(op.hidden ? { hidden: true } : {}),
  };
}

/**
 * Operations as navigation groups, one per first tag, in the order of the spec's top-level `tags`
 * list and then of first appearance; untagged operations come last in a group titled `untitled`
 * (or are the only group, titled '', when no operation has a tag: the theme then shows no heading).
 */
export function operationNavGroups(ops: ResolvedOperation[], untitled = 'Other'): NavGroup[] {
  const byTag = new Map<string, ResolvedOperation[]>();
  const declared = new Map<string, number>();
  for (const op of ops) {
    const tags = op.document.tags;
    if (Array.isArray(tags)) {
      tags.forEach((t, i) => {
        const name = (t as { name?: unknown } | null)?.name;
        if (typeof name === 'string' && !declared.has(name)) declared.set(name, i);
      });
    }
    const tag = op.tags[0] ?? '';
    byTag.set(tag, [...(byTag.get(tag) ?? []), op]);
  }
  const seen = [...byTag.keys()];
  const order = (t: string) => (t === '' ? Number.MAX_SAFE_INTEGER : (declared.get(t) ?? declared.size + seen.indexOf(t)));
  const tags = seen.sort((a, b) => order(a) - order(b));
  return tags.map((tag) => ({
    type: 'group',
    title: tag === '' ? (tags.length === 1 ? '' : untitled) : tag,
    children: byTag.get(tag)!.map(operationNavPage),
  }));
}
