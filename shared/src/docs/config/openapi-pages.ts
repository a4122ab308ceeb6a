/**
 * The pages an OpenAPI-driven navigation generates (MINTLIFY-FORMAT.md section 6): the navigation
 * with its operation entries and spec groups expanded into pages, and how much of the repository's
 * API those pages document. Rendering the generated pages is the caller's (the builder, the preview).
 */
import { splitFrontmatter } from '../markdown/frontmatter';
import { operationPagePath, slugify } from '../openapi/page-path';
import type { OpenApiRegistry, ResolvedOperation } from '../openapi/types';
import type { BuildWarning, NavNode, NavPage } from '../types';

/** A page generated from an OpenAPI operation. */
export interface OperationPage {
  /** page path (`v3-openapi/runs/list-runs`) */
  path: string;
  /** a reference the registry resolves back to exactly this operation (`api/spec.yaml GET /runs`) */
  ref: string;
  specFile: string;
  title: string;
  /** uppercase HTTP method, or `WEBHOOK` */
  method: string;
  /** `x-hidden`: generated but not listed */
  hidden: boolean;
}

/** The exact reference of an operation: spec file, then method and path (or `webhook <name>`). */
export function operationRef(op: ResolvedOperation): string {
  return op.kind === 'webhook' ? `/${op.specFile} webhook ${op.path}` : `/${op.specFile} ${op.method.toUpperCase()} ${op.path}`;
}

/** True when any division, group or page of the navigation mentions OpenAPI (the registry is needed). */
export function navUsesOpenApi(nav: NavNode[]): boolean {
  return nav.some((n) => (n.type === 'page' ? n.openapi !== undefined : n.type !== 'link' && (n.openapi !== undefined || navUsesOpenApi(n.children))));
}

/** True when the operation names its own page path (`x-mint.href`, which {@link operationPagePath} puts first). */
function hasOwnHref(op: ResolvedOperation): boolean {
  const href = (op.operation['x-mint'] as Record<string, unknown> | undefined)?.href;
  return typeof href === 'string' && href.trim() !== '';
}

/**
 * Hands out the page paths of generated pages: {@link operationPagePath}, its first (spec) segment
 * replaced by the `directory` of the `openapi` object in force (docs.json `{source, directory}`;
 * Mintlify's openapi-setup "directory ... where generated API pages are stored"); `x-mint.href` wins.
 * Each path belongs to one operation: when another operation already has it (two specs named
 * `openapi.json`, one per language folder), the spec file's own folder is put in front
 * (`fr/openapi/users/list-users`), then a number, so no navigation entry ever opens another spec's page.
 */
function pagePaths() {
  const owners = new Map<string, string>();
  return (op: ResolvedOperation, ref: string, directory: string | undefined): string => {
    const base = operationPagePath(op);
    const rest = base.split('/').slice(1).join('/');
    const own = hasOwnHref(op);
    const first = own || !directory ? base : `${directory}/${rest}`;
    const specPath = op.specFile.replace(/\.(json|ya?ml)$/i, '').split('/').map((seg) => slugify(seg) || 'api').join('/');
    const candidates = own ? [first] : [first, `${specPath}/${rest}`];
    for (let n = 0; ; n++) {
      const path = candidates[n] ?? `${candidates[candidates.length - 1]}-${n - candidates.length + 2}`;
      const owner = owners.get(path);
      if (owner === undefined) owners.set(path, ref);
      if (owner === undefined || owner === ref) return path;
    }
  };
}

/**
 * Expands the OpenAPI parts of the navigation (MINTLIFY-FORMAT.md section 6) into pages:
 * - an entry naming an operation (`GET /users`, `/spec.json POST /users`; NavPage.openapi) becomes a
 *   page at {@link operationPagePath}, resolved against the inherited default spec (`openapi` on an
 *   enclosing division or group);
 * - a group or division with `openapi` and no children gets one page per operation of that spec
 *   (operations marked `x-hidden` are generated but not listed);
 * - pages generated under an `openapi` with a `directory` are put in that folder (see {@link pagePaths});
 *   an operation may so have a page in each language's or product's folder.
 * Entries that resolve to nothing are dropped with an `openapi` warning. Returns a new tree.
 */
export function expandOpenApiNav(
  nav: NavNode[],
  registry: OpenApiRegistry,
  configFile?: string,
): { nav: NavNode[]; operations: OperationPage[]; warnings: BuildWarning[] } {
  const operations = new Map<string, OperationPage>();
  const warnings: BuildWarning[] = [];
  const pathOf = pagePaths();
  const toPage = (op: ResolvedOperation, directory: string | undefined): NavPage => {
    const ref = operationRef(op);
    const path = pathOf(op, ref, directory);
    const method = op.kind === 'webhook' ? 'WEBHOOK' : op.method.toUpperCase();
    if (!operations.has(path)) operations.set(path, { path, ref, specFile: op.specFile, title: op.title, method, hidden: op.hidden });
    return { type: 'page', path, title: op.title, method, ...(op.hidden ? { hidden: true } : {}) };
  };
  const visit = (nodes: NavNode[], spec: string | undefined, directory: string | undefined): NavNode[] =>
    nodes.flatMap((node): NavNode[] => {
      if (node.type === 'link') return [node];
      if (node.type === 'page') {
        if (node.openapi === undefined) return [node];
        const op = registry.resolve(node.openapi, node.openapiSpec ?? spec);
        if (!op) {
          const message = `Navigation entry "${node.openapi}" names no operation of the OpenAPI specs`;
          warnings.push({ ...(configFile ? { file: configFile } : {}), kind: 'openapi', message });
          return [];
        }
        const page = toPage(op, directory);
        return [{ ...page, ...(node.title ? { title: node.title } : {}), ...(node.hidden ? { hidden: true } : {}) }];
      }
      const inner = node.openapi ?? spec;
      const innerDir = node.openapi !== undefined ? node.openapiDirectory : directory;
      if (node.openapi !== undefined && node.children.length === 0) {
        const ops = registry.operations(node.openapi);
        if (ops.length === 0) {
          const message = `OpenAPI spec "${node.openapi}" has no operations (or was not found)`;
          warnings.push({ ...(configFile ? { file: configFile } : {}), kind: 'openapi', message });
        }
        return [{ ...node, children: ops.map((op) => toPage(op, innerDir)) }];
      }
      return [{ ...node, children: visit(node.children, inner, innerDir) }];
    });
  const out = visit(nav, undefined, undefined);
  return { nav: out, operations: [...operations.values()], warnings };
}

/** Public operations of a repository's OpenAPI files and how many of them have a page (content health's `coveragePercent`). */
export interface ApiCoverage {
  /** operations not marked `x-hidden`, `x-excluded` or `x-internal` */
  operations: number;
  /** of those, operations with a generated page or an MDX page whose frontmatter `openapi:`/`api:` names them */
  documented: number;
}

/** Cheap pre-check before parsing a page's frontmatter: does its head set `openapi:`/`api:`? (as the builder's render worker) */
const API_KEY = /^(?:openapi|api)\s*:/m;

/**
 * {@link ApiCoverage} of a build: the registry's operations (all specs of the repository) that are
 * public, and those among them that `generated` pages show or that a page file's frontmatter
 * `openapi:`/`api:` resolves to (read with `read`; only files whose head names one are parsed, and
 * none at all when there is no public operation).
 */
export function apiCoverage(
  registry: OpenApiRegistry,
  generated: readonly OperationPage[],
  pageFiles: readonly string[],
  read: (file: string) => string | undefined,
): ApiCoverage {
  const isPublic = (op: ResolvedOperation) => !op.hidden && op.operation['x-internal'] !== true;
  const open = new Set(registry.operations().filter(isPublic).map(operationRef));
  if (open.size === 0) return { operations: 0, documented: 0 };
  const documented = new Set(generated.map((o) => o.ref).filter((ref) => open.has(ref)));
  for (const file of pageFiles) {
    const source = read(file);
    if (source === undefined || !API_KEY.test(source.slice(0, 4000))) continue;
    let ref: unknown;
    try {
      const fm = splitFrontmatter(source, file).data;
      ref = typeof fm.openapi === 'string' ? fm.openapi : fm.api;
    } catch {
      continue; // frontmatter that does not parse: the render step reports it
    }
    const op = typeof ref === 'string' ? registry.resolve(ref) : undefined;
    if (op && open.has(operationRef(op))) documented.add(operationRef(op));
  }
  return { operations: open.size, documented: documented.size };
}
