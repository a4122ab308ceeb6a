/**
 * The page renderer's entry point (MINTLIFY-FORMAT.md section 10: `.md` is plain Markdown): `.md` through
 * markdown-it, `.mdx` through remark-mdx and Quire's own safe conversion; both sanitized by the same
 * allowlist. The builder runs it inside worker threads with one shared {@link CodeHighlighter} per worker.
 */
import type { BuildWarning, DocsFiles, RenderedPage } from '../types';
import { highlightCutWarning, type CodeHighlighter } from './highlight';
import { collectLinksAndAssets, htmlToText } from './collect';
import { splitFrontmatter, substituteVariables } from './frontmatter';
import { titleFromPath } from '../config/title-from-path';
import { HeadingCollector } from './headings';
import { renderMarkdown } from './md';
import { renderMdx } from './mdx';
import { withSourceLine } from './source-lines';
import { sanitizeHtml } from './sanitize';
import { TrustedSlots } from './trusted-slots';
import { markGlossaryTerms, type GlossaryEntry } from './glossary-terms';

/** Input of {@link renderPage}. */
export interface RenderPageInput {
  /** file path relative to the docs root, e.g. `guides/setup.mdx` (`.md` → markdown-it, else MDX) */
  filePath: string;
  /** the file's text */
  source: string;
  /** read access to the docs root (snippets) */
  files: DocsFiles;
  highlighter: CodeHighlighter;
  /** `{{name}}` substitutions from the config (SiteConfig.variables) */
  variables?: Record<string, string>;
  /** the `user.<field>` names MDX pages may use (site/personalisation.ts `userFieldsOf`); absent: `name`, `plan` */
  userFields?: readonly string[];
  /**
   * Renders the OpenAPI operation named by frontmatter `openapi:`/`api:` (e.g. `GET /users`,
   * `/spec.yaml POST /users`) to HTML, placed after the page's own content; undefined → warning 'openapi'.
   */
  renderOpenApi?: (ref: string) => string | undefined;
  /** glossary terms whose first use in the page's text gets its definition as a tooltip (glossary-terms.ts) */
  glossary?: readonly GlossaryEntry[];
  /**
   * Preview only (the desktop app's scroll sync; never set by published builds): top-level blocks
   * and code blocks carry `data-line="<1-based source line>"`.
   */
  sourceLines?: boolean;
}

/**
 * Renders one page.
 * @returns the sanitized body HTML with toc, frontmatter, title, description, Markdown export, text,
 *   internal links, local assets, files read (dependencies) and warnings
 * @throws DocsError(filePath, line, column) when the frontmatter is invalid YAML or the MDX cannot be parsed
 */
export async function renderPage(input: RenderPageInput): Promise<RenderedPage> {
  const { filePath, files } = input;
  const slots = new TrustedSlots();
  const warnings: BuildWarning[] = [];
  // one character budget for all code blocks of the page; a block past a cap gets a warning
  const budget = input.highlighter.pageBudget();
  const highlighter: CodeHighlighter = {
    ...input.highlighter,
    highlightSync: (code, lang, meta, options = {}) =>
      slots.put(
        withSourceLine(
          input.highlighter.highlightSync(code, lang, meta, {
            ...options,
            budget,
            onCut: (cut) => warnings.push(highlightCutWarning(filePath, options.line, cut, input.highlighter.limits)),
          }),
          input.sourceLines ? options.line : undefined,
        ),
      ),
    // KaTeX output is sanitized by math.ts against its own allow-list (MathML never meets the page sanitizer)
    math: (tex, display) => slots.put(input.highlighter.math(tex, display)),
  };
  const split = splitFrontmatter(input.source, filePath);
  const body = substituteVariables(split.body, input.variables);
  const headings = new HeadingCollector();
  const dependencies: string[] = [];
  let html: string;
  let markdown: string;
  if (/\.md$/i.test(filePath)) {
    html = await renderMarkdown(body, highlighter, headings, input.sourceLines);
    markdown = substituteVariables(split.content, input.variables);
  } else {
    const out = await renderMdx({
      filePath,
      body,
      files,
      highlighter,
      headings,
      warnings,
      dependencies,
      variables: input.variables,
      userFields: input.userFields,
      sourceLines: input.sourceLines,
    });
    html = out.html;
    markdown = out.markdown;
  }

  const fm = split.data;
  // author ids are prefixed, the engine's kept (user-ids.ts); the OpenAPI section holds no author HTML
  let safe = slots.restore(sanitizeHtml(html, { ownIds: headings.ids }));
  const apiRef = typeof fm.openapi === 'string' ? fm.openapi : typeof fm.api === 'string' ? fm.api : undefined;
  if (apiRef !== undefined && input.renderOpenApi) {
    const api = input.renderOpenApi(apiRef);
    if (api === undefined) warnings.push({ file: filePath, kind: 'openapi', message: `${filePath}: OpenAPI operation "${apiRef}" was not found` });
    else safe += `\n<section class="q-openapi">${sanitizeHtml(api, { ownIds: 'all' })}</section>`;
  }

  const { links, assets } = collectLinksAndAssets(safe);
  const fmTitle = typeof fm.title === 'string' && fm.title.trim() ? fm.title.trim() : undefined;
  const title = fmTitle ?? headings.firstH1 ?? titleFromPath(filePath);
  const description = typeof fm.description === 'string' && fm.description.trim() ? fm.description.trim() : undefined;
  const markdownOut = (headings.firstH1 !== undefined && fmTitle === undefined ? '' : `# ${title}\n\n`) +
    (description ? `${description}\n\n` : '') + markdown.trim() + '\n';
  return {
    // Terms are marked last: the page's text (search, llms.txt) keeps no tooltip text.
    html: input.glossary?.length ? markGlossaryTerms(safe, input.glossary) : safe,
    toc: headings.toc,
    frontmatter: fm,
    title,
    description,
    markdown: markdownOut,
    text: htmlToText(safe),
    links,
    assets,
    dependencies: [...new Set(dependencies)],
    warnings,
  };
}
