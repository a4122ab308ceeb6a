/**
 * One page file of a site rendered as a published build renders it: the page renderer
 * (markdown/render-page.ts) with the OpenAPI operation its frontmatter `openapi:`/`api:` names placed
 * after its content (openapi/operation-page.ts). The builder's render workers, the desktop app and the
 * docs CLI call this, so that every one of them gives the same page. Node-free.
 */
import { renderPage, type CodeHighlighter, type GlossaryEntry } from './markdown/index';
import { splitFrontmatter } from './markdown/frontmatter';
import { renderFrontmatterOperation } from './openapi/operation-page';
import type { OpenApiRegistry } from './openapi/types';
import type { OperationPage } from './config/openapi-pages';
import { pagePathOf } from './nav/check-navigation';
import type { BuildWarning, DocsFiles, RenderedPage } from './types';

/** Cheap pre-check before parsing frontmatter twice: does the head of the file set `openapi:`/`api:`? */
const API_KEY = /^(?:openapi|api)\s*:/m;

/** Input of {@link renderSitePage}. */
export interface SitePageInput {
  /** file path relative to the docs root (`guides/setup.mdx`) */
  filePath: string;
  /** the file's text */
  source: string;
  /** the docs root's files (snippets, OpenAPI specs) */
  files: DocsFiles;
  highlighter: CodeHighlighter;
  /** `{{name}}` substitutions (SiteConfig.variables) */
  variables?: Record<string, string>;
  /** the `user.<field>` names MDX pages may use (site/personalisation.ts `userFieldsOf`); absent: `name`, `plan` */
  userFields?: readonly string[];
  /** glossary terms with definitions */
  glossary?: readonly GlossaryEntry[];
  /** the site's OpenAPI registry, loaded when first asked for (only pages naming an operation ask) */
  registry: () => OpenApiRegistry;
}

/**
 * Renders a page file with the operation its frontmatter names (the spec file becomes a dependency,
 * the operation's `openapi` warnings the page's).
 * @throws DocsError(filePath, line) when the frontmatter or the MDX cannot be parsed (render-page.ts)
 */
export async function renderSitePage(input: SitePageInput): Promise<RenderedPage> {
  const { filePath, source, highlighter } = input;
  let api: { html: string; specFile: string; warnings: BuildWarning[] } | undefined;
  if (API_KEY.test(source.slice(0, 4000))) {
    const fm = splitFrontmatter(source, filePath).data;
    const ref = typeof fm.openapi === 'string' ? fm.openapi : typeof fm.api === 'string' ? fm.api : undefined;
    if (ref) api = await renderFrontmatterOperation(input.registry(), ref, (code, lang) => highlighter.highlight(code, lang));
  }
  const page = await renderPage({
    filePath,
    source,
    files: input.files,
    highlighter,
    variables: input.variables,
    userFields: input.userFields,
    glossary: input.glossary,
    renderOpenApi: () => api?.html,
  });
  if (api) {
    page.dependencies = [...page.dependencies, api.specFile];
    page.warnings = [...page.warnings, ...api.warnings];
  }
  return page;
}

/** One page per page path: `a.mdx` wins over `a.md` (PAGE_EXTENSIONS order). @returns page path → file path */
export function choosePageFiles(pageFiles: readonly string[]): Map<string, string> {
  const chosen = new Map<string, string>();
  for (const filePath of pageFiles) {
    const pagePath = pagePathOf(filePath)!;
    const prev = chosen.get(pagePath);
    if (!prev || (prev.endsWith('.md') && filePath.endsWith('.mdx'))) chosen.set(pagePath, filePath);
  }
  return chosen;
}

/** A page of a site: a page file's, or a generated OpenAPI page's. */
export interface SitePageEntry {
  /** page path (`guides/setup`) */
  path: string;
  /** its file, relative to the docs root (file pages) */
  filePath?: string;
  /** the operation it is generated from (OpenAPI pages) */
  operation?: OperationPage;
}

/**
 * The pages of a site, as a build renders them: one per page path from the page files
 * ({@link choosePageFiles}), then the generated OpenAPI pages whose path no file takes.
 */
export function sitePages(pageFiles: readonly string[], operations: readonly OperationPage[]): SitePageEntry[] {
  const chosen = choosePageFiles(pageFiles);
  const all: SitePageEntry[] = [...chosen].map(([path, filePath]) => ({ path, filePath }));
  for (const operation of operations) if (!chosen.has(operation.path)) all.push({ path: operation.path, operation });
  return all;
}
