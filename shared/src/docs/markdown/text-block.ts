import { escapeHtml } from './html';

/**
 * Mermaid diagrams and LaTeX math are not rendered to graphics (no client-side renderer is shipped):
 * issue 3 asks for "readable preformatted text blocks with a label" instead.
 */
export type TextBlockKind = 'mermaid' | 'math';

const LABELS: Record<TextBlockKind, string> = { mermaid: 'Diagram (Mermaid)', math: 'Math (LaTeX)' };

/** Returns `<figure class="q-textblock q-textblock-{kind}">` with a label and the escaped source. */
export function renderTextBlock(kind: TextBlockKind, source: string): string {
  return (
    `<figure class="q-textblock q-textblock-${kind}" data-kind="${kind}">` +
    `<figcaption class="q-textblock-label">${LABELS[kind]}</figcaption>` +
    `<pre><code>${escapeHtml(source.replace(/\n$/, ''))}</code></pre></figure>`
  );
}

/** Maps a fence language to a text-block kind: `mermaid`, `math`/`latex`/`tex`/`katex`; else undefined. */
export function textBlockKind(lang: string | null | undefined): TextBlockKind | undefined {
  const l = (lang ?? '').toLowerCase();
  if (l === 'mermaid') return 'mermaid';
  if (l === 'math' || l === 'latex' || l === 'tex' || l === 'katex') return 'math';
  return undefined;
}
