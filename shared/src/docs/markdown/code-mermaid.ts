/**
 * ```` ```mermaid ```` fences (MINTLIFY-FORMAT.md section 9, Mintlify's Mermaid diagrams): the source is
 * published as a labelled text block, which is what readers without JavaScript see; on pages holding one
 * ({@link MERMAID_MARKER}) the site loads its bundled copy of mermaid (`_quire/assets/mermaid.<hash>.js`)
 * and code.js draws each diagram next to its source (hidden then) with `securityLevel: 'strict'`, in the
 * light or dark theme of the page, again when the theme changes.
 */
import { escapeHtml } from './html';

/** Present in the HTML of every page that holds a Mermaid diagram (the site loads mermaid then). */
export const MERMAID_MARKER = 'data-q-mermaid';

/** The figure of one diagram: its label and source; code.js adds the drawing. */
export function renderMermaid(source: string): string {
  return (
    `<figure class="q-textblock q-textblock-mermaid q-mermaid" data-kind="mermaid" ${MERMAID_MARKER}>` +
    `<figcaption class="q-textblock-label">Diagram (Mermaid)</figcaption>` +
    `<pre class="q-mermaid-source"><code>${escapeHtml(source.replace(/\n$/, ''))}</code></pre></figure>`
  );
}
