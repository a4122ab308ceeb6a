/**
 * One page of a site rendered as a build's render worker renders it (server/src/builder/render-worker.ts):
 * a generated OpenAPI page with `renderOperationPage`, a page file with `renderSitePage` (its frontmatter
 * operation included). `check` and `dev` render every page through this.
 */
import type { CodeHighlighter, GlossaryEntry } from '@quire/shared/docs/markdown/index';
import type { OpenApiRegistry } from '@quire/shared/docs/openapi/index';
import { renderOperationPage } from '@quire/shared/docs/openapi/operation-page';
import { renderSitePage, type SitePageEntry } from '@quire/shared/docs/site-page';
import type { DocsFiles, RenderedPage } from '@quire/shared/docs/types';

/** What rendering a site's pages needs, made once per site. */
export interface RenderContext {
  files: DocsFiles;
  highlighter: CodeHighlighter;
  /** docs.json `variables` */
  variables: Record<string, string>;
  /** the `user.<field>` names pages may use (shared/src/site/personalisation.ts `userFieldsOf`) */
  userFields: readonly string[];
  /** glossary terms with a definition (their first use in a page gets a tooltip) */
  glossary: readonly GlossaryEntry[];
  /** the site's OpenAPI registry, loaded on first use */
  registry: () => OpenApiRegistry;
}

/**
 * Renders one page of the site.
 * @returns the page; undefined for a generated page whose operation the specs do not hold
 * @throws DocsError(file, line) when a page file cannot be parsed
 */
export async function renderEntry(entry: SitePageEntry, ctx: RenderContext): Promise<RenderedPage | undefined> {
  if (entry.operation) return renderOperationPage(ctx.registry(), entry.operation.ref, (code, lang) => ctx.highlighter.highlight(code, lang));
  return renderSitePage({
    filePath: entry.filePath!,
    source: ctx.files.read(entry.filePath!) ?? '',
    files: ctx.files,
    highlighter: ctx.highlighter,
    variables: ctx.variables,
    userFields: ctx.userFields,
    glossary: ctx.glossary,
    registry: ctx.registry,
  });
}
