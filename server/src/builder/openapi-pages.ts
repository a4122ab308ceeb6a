import { collectLinksAndAssets, htmlToText, sanitizeHtml, splitFrontmatter } from '@quire/shared/docs/markdown/index';
import { operationPagePath, operationToc, renderOperation, slugify, type OpenApiRegistry, type ResolvedOperation } from '@quire/shared/docs/openapi/index';
import { buildOperationModel } from '@quire/shared/docs/openapi/operation-model';
import { serverOrigin } from '@quire/shared/docs/openapi/playground';
import type { BuildWarning, NavNode, NavPage, RenderedPage } from '@quire/shared/docs/types';

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
          warnings.push({ ...(configFile ? { file: configFile } : {}), kind: 'openapi', message: `Navigation entry "${node.openapi}" names no operation of the OpenAPI specs` });
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
          warnings.push({ ...(configFile ? { file: configFile } : {}), kind: 'openapi', message: `OpenAPI spec "${node.openapi}" has no operations (or was not found)` });
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

/** Cheap pre-check before parsing a page's frontmatter: does its head set `openapi:`/`api:`? (as render-worker.ts) */
const API_KEY = /^(?:openapi|api)\s*:/m;

/**
 * {@link ApiCoverage} of a build: the registry's operations (all specs of the repository) that are
 * public, and those among them that `generated` pages show or that a page file's frontmatter
 * `openapi:`/`api:` resolves to (read with `read`; only files whose head names one are parsed, and
 * none at all when there is no public operation).
 */
export function apiCoverage(registry: OpenApiRegistry, generated: readonly OperationPage[], pageFiles: readonly string[], read: (file: string) => string | undefined): ApiCoverage {
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

/** Renders fenced code for OpenAPI samples (the page renderer's highlighter). */
export type HighlightFn = (code: string, lang: string) => Promise<string>;

/**
 * The RenderedPage of a generated OpenAPI page: the endpoint reference HTML (sanitized like every
 * page body), its section toc, a Markdown export (`# title`, method and path, description), and the
 * spec file as a dependency (so the page cache notices spec changes). Undefined when `ref` resolves
 * to no operation.
 */
export async function renderOperationPage(registry: OpenApiRegistry, ref: string, highlight: HighlightFn): Promise<RenderedPage | undefined> {
  const op = registry.resolve(ref);
  if (!op) return undefined;
  const warnings: BuildWarning[] = [];
  const html = sanitizeHtml(await renderOperation(op, { highlight, warnings }), { ownIds: 'all' }); // no author HTML: its ids are the engine's
  const { links, assets } = collectLinksAndAssets(html);
  const server = op.kind === 'operation' ? serverOrigin(buildOperationModel(op).serverUrl) : undefined;
  const endpoint = op.kind === 'webhook' ? `Webhook \`${op.path}\`` : `\`${op.method.toUpperCase()} ${op.path}\``;
  const description = op.description ? firstParagraph(op.description) : undefined;
  return {
    html,
    toc: operationToc(op),
    // `servers`: where the page's playground sends (the site CSP's connect-src when the playground is on)
    frontmatter: { title: op.title, openapi: ref, ...(server ? { servers: [server] } : {}) },
    title: op.title,
    ...(description ? { description } : {}),
    markdown: `# ${op.title}\n\n${endpoint}\n${op.description ? `\n${op.description.trim()}\n` : ''}`,
    text: htmlToText(html),
    links,
    assets,
    dependencies: [op.specFile],
    warnings,
  };
}

/**
 * The HTML of the operation a page's frontmatter `openapi:`/`api:` names, its spec file, and the
 * `openapi` warnings of what the page budget cut (truncated examples, elided fields).
 */
export async function renderFrontmatterOperation(
  registry: OpenApiRegistry,
  ref: string,
  highlight: HighlightFn,
): Promise<{ html: string; specFile: string; warnings: BuildWarning[] } | undefined> {
  const op = registry.resolve(ref);
  if (!op) return undefined;
  const warnings: BuildWarning[] = [];
  return { html: await renderOperation(op, { highlight, warnings }), specFile: op.specFile, warnings };
}

/** First paragraph of Markdown as one plain line (for descriptions), at most 300 characters. */
function firstParagraph(md: string): string | undefined {
  const para = md.trim().split(/\n\s*\n/)[0]?.replace(/[*_`#>[\]]/g, '').replace(/\s+/g, ' ').trim();
  return para ? para.slice(0, 300) : undefined;
}
