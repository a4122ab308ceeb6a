/**
 * Stable page paths for the pages generated from OpenAPI operations (a navigation group with
 * `openapi` and no pages, MINTLIFY-FORMAT.md section 6).
 */
import type { ResolvedOperation } from './types';

/**
 * URL-safe lowercase slug: camelCase split (`getUserById` → `get-user-by-id`), anything but
 * `a-z0-9` becomes `-`, dashes collapsed and trimmed.
 */
export function slugify(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/([a-z0-9])([A-Z])/g, '$1-$2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1-$2')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}

/**
 * The page path of an operation's generated page:
 * `<spec stem or 'api'>/<first tag slug>/<operationId or method-path slug>` (the tag segment is
 * left out when the operation has no tag; webhooks without an operationId get `webhook-<name>`).
 * `x-mint.href` on the operation, when set, wins (leading `/` dropped). Lowercase and URL-safe.
 * @example operationPagePath({ specFile: 'v3-openapi.yaml', tags: ['Runs'], operationId: 'listRuns', ... })
 *   === 'v3-openapi/runs/list-runs'
 */
export function operationPagePath(op: ResolvedOperation): string {
  const href = (op.operation['x-mint'] as Record<string, unknown> | undefined)?.href;
  if (typeof href === 'string') {
    const cleaned = href
      .split('/')
      .map((s) => slugify(s))
      .filter(Boolean)
      .join('/');
    if (cleaned) return cleaned;
  }
  const file = op.specFile.slice(op.specFile.lastIndexOf('/') + 1).replace(/\.(json|ya?ml)$/i, '');
  const specSeg = slugify(file) || 'api';
  const tagSeg = op.tags[0] ? slugify(op.tags[0]) : '';
  const leaf =
    (op.operationId && slugify(op.operationId)) ||
    (op.kind === 'webhook' ? `webhook-${slugify(op.path)}` : slugify(`${op.method} ${op.path}`)) ||
    op.method;
  return [specSeg, tagSeg, leaf].filter(Boolean).join('/');
}
