import { collectLinksAndAssets, htmlToText, sanitizeHtml } from '@quire/shared/docs/markdown/index';
import { operationPagePath, operationToc, renderOperation, type OpenApiRegistry, type ResolvedOperation } from '@quire/shared/docs/openapi/index';
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

/**
 * Expands the OpenAPI parts of the navigation (MINTLIFY-FORMAT.md section 6) into pages:
 * - an entry naming an operation (`GET /users`, `/spec.json POST /users`; NavPage.openapi) becomes a
 *   page at {@link operationPagePath}, resolved against the inherited default spec (`openapi` on an
 *   enclosing division or group);
 * - a group or division with `openapi` and no children gets one page per operation of that spec
 *   (operations marked `x-hidden` are generated but not listed).
 * Entries that resolve to nothing are dropped with an `openapi` warning. Returns a new tree.
 */
export function expandOpenApiNav(
  nav: NavNode[],
  registry: OpenApiRegistry,
  configFile?: string,
): { nav: NavNode[]; operations: OperationPage[]; warnings: BuildWarning[] } {
  const operations = new Map<string, OperationPage>();
  const warnings: BuildWarning[] = [];
  const toPage = (op: ResolvedOperation): NavPage => {
    const path = operationPagePath(op);
    if (!operations.has(path)) {
      operations.set(path, {
        path,
        ref: operationRef(op),
        specFile: op.specFile,
        title: op.title,
        method: op.kind === 'webhook' ? 'WEBHOOK' : op.method.toUpperCase(),
        hidden: op.hidden,
      });
    }
    return { type: 'page', path, title: op.title, method: op.kind === 'webhook' ? 'WEBHOOK' : op.method.toUpperCase(), ...(op.hidden ? { hidden: true } : {}) };
  };
  const visit = (nodes: NavNode[], spec: string | undefined): NavNode[] =>
    nodes.flatMap((node): NavNode[] => {
      if (node.type === 'link') return [node];
      if (node.type === 'page') {
        if (node.openapi === undefined) return [node];
        const op = registry.resolve(node.openapi, node.openapiSpec ?? spec);
        if (!op) {
          warnings.push({ ...(configFile ? { file: configFile } : {}), kind: 'openapi', message: `Navigation entry "${node.openapi}" names no operation of the OpenAPI specs` });
          return [];
        }
        const page = toPage(op);
        return [{ ...page, ...(node.title ? { title: node.title } : {}), ...(node.hidden ? { hidden: true } : {}) }];
      }
      const inner = node.openapi ?? spec;
      if (node.openapi !== undefined && node.children.length === 0) {
        const ops = registry.operations(node.openapi);
        if (ops.length === 0) {
          warnings.push({ ...(configFile ? { file: configFile } : {}), kind: 'openapi', message: `OpenAPI spec "${node.openapi}" has no operations (or was not found)` });
        }
        return [{ ...node, children: ops.map(toPage) }];
      }
      return [{ ...node, children: visit(node.children, inner) }];
    });
  const out = visit(nav, undefined);
  return { nav: out, operations: [...operations.values()], warnings };
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
  const endpoint = op.kind === 'webhook' ? `Webhook \`${op.path}\`` : `\`${op.method.toUpperCase()} ${op.path}\``;
  const description = op.description ? firstParagraph(op.description) : undefined;
  return {
    html,
    toc: operationToc(op),
    frontmatter: { title: op.title, openapi: ref },
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
