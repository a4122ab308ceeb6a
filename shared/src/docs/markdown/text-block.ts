/**
 * Fences that are not code to highlight: Mermaid diagrams (code-mermaid.ts, drawn in the browser) and
 * LaTeX math (math.ts, rendered with KaTeX at build time).
 */
export type TextBlockKind = 'mermaid' | 'math';

/** Maps a fence language to its kind: `mermaid`, `math`/`latex`/`tex`/`katex`; else undefined. */
export function textBlockKind(lang: string | null | undefined): TextBlockKind | undefined {
  const l = (lang ?? '').toLowerCase();
  if (l === 'mermaid') return 'mermaid';
  if (l === 'math' || l === 'latex' || l === 'tex' || l === 'katex') return 'math';
  return undefined;
}
