/**
 * Rendering of the pages generated from OpenAPI operations (the navigation's expansion into those
 * pages is shared/src/docs/config/openapi-pages.ts).
 */
import { collectLinksAndAssets, htmlToText, sanitizeHtml } from '../markdown/index';
import { operationToc, renderOperation } from './render-operation';
import type { OpenApiRegistry } from './types';
import { buildOperationModel } from './operation-model';
import { serverOrigin } from './playground';
import type { BuildWarning, RenderedPage } from '../types';

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
