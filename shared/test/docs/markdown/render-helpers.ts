/** Shared setup for renderer tests: one highlighter, in-memory docs roots. */
import { memoryFiles } from '../../../src/docs/files';
import { createCodeHighlighter, type CodeHighlighter } from '../../../src/docs/markdown/highlight';
import { renderPage, type RenderPageInput } from '../../../src/docs/markdown/render-page';
import type { RenderedPage } from '../../../src/docs/types';

let shared: Promise<CodeHighlighter> | undefined;

/** Renders `source` as `filePath` with the given extra files in the docs root. */
export async function render(
  source: string,
  options: { filePath?: string; files?: Record<string, string> } & Partial<Pick<RenderPageInput, 'variables' | 'renderOpenApi' | 'userFields'>> = {},
): Promise<RenderedPage> {
  shared ??= createCodeHighlighter();
  const { filePath = 'page.mdx', files = {}, ...rest } = options;
  return renderPage({ filePath, source, files: memoryFiles({ ...files, [filePath]: source }), highlighter: await shared, ...rest });
}

/** The warning kinds of a rendered page, in order. */
export function kinds(page: RenderedPage): string[] {
  return page.warnings.map((w) => w.kind);
}
