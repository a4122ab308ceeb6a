/**
 * The page renderer (decisions.md section 5): Markdown and MDX to safe HTML with components, snippets,
 * code highlighting.
 * Entry points: {@link renderPage}, {@link createCodeHighlighter}, {@link sanitizeHtml}.
 */
export { renderPage, type RenderPageInput } from './render-page';
export { markGlossaryTerms, type GlossaryEntry } from './glossary-terms';
export { createCodeHighlighter, type CodeHighlighter, type CodeBlockOptions } from './highlight';
export { sanitizeHtml } from './sanitize';
export { splitFrontmatter, titleFromPath, substituteVariables, type SplitPage } from './frontmatter';
export { parseFenceMeta, type FenceMeta } from './fence-meta';
export { htmlToText, collectLinksAndAssets } from './collect';
export { COMPONENTS } from './components/index';
