import type { NavPage } from '../types';
import type { ConvertContext } from './site-fields';

/** `GET /users`, `/spec.json POST /users`, `webhook name`, `spec.yaml webhook name` (method case-insensitive). */
const OPERATION = /^(?:\S+\s+)?(?:(?:get|post|put|patch|delete|head|options|trace)\s+\/\S*|webhook\s+\S+)$/i;

/** True when a navigation entry names an OpenAPI operation rather than a page file. */
export function isOperationEntry(entry: string): boolean {
  return OPERATION.test(entry.trim());
}

/**
 * A page path as written in a config, normalized: no leading `/` or `./`, no `.mdx`/`.md`
 * extension, no trailing `/` (`/guides/setup.mdx` → `guides/setup`).
 */
export function normalizePagePath(entry: string): string {
  return entry
    .trim()
    .replace(/^(\.?\/)+/, '')
    .replace(/\/+$/, '')
    .replace(/\.(mdx|md)$/i, '');
}

/**
 * A `pages` entry turned into a {@link NavPage}: a page path, or an OpenAPI operation
 * (`GET /users`, `/spec.json POST /users`) with `path: ''`, `openapi` = the entry and `openapiSpec` =
 * the spec inherited from the enclosing group or division. An empty entry is skipped with a warning.
 */
export function pageEntry(ctx: ConvertContext, entry: string, field: string, inheritedSpec: string | undefined): NavPage | undefined {
  const text = entry.trim();
  if (isOperationEntry(text)) {
    const page: NavPage = { type: 'page', path: '', openapi: text };
    if (inheritedSpec) page.openapiSpec = inheritedSpec;
    return page;
  }
  const path = normalizePagePath(text);
  if (path === '') {
    ctx.warnings.push({ file: ctx.file, kind: 'config', message: `${ctx.file}: ${field} is an empty page entry; skipped.` });
    return undefined;
  }
  return { type: 'page', path };
}
