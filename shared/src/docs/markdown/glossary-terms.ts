/**
 * Glossary terms on published pages (decisions.md section 9: the glossary feeds the linter and the
 * site): the first use of each term in a page's running text becomes a focusable `<dfn>` whose
 * definition is an accessible tooltip (`role="tooltip"`, tied by `aria-describedby`), shown on hover
 * and keyboard focus by the theme's CSS and dismissed with Escape by its script; no framework.
 * Code, links, headings and buttons are left alone. Works on the sanitized page HTML, so the
 * definition (plain text) is escaped like any text.
 */
import type { Element, ElementContent, Root, Text } from 'hast';
import { fromHtml } from 'hast-util-from-html';
import { toHtml } from 'hast-util-to-html';

/** A glossary term to mark, with the definition its tooltip shows. */
export interface GlossaryEntry {
  term: string;
  definition: string;
  /** whether only the term's own spelling counts (else any case) */
  caseSensitive?: boolean;
}

/** Elements whose text is never marked. */
const SKIP = new Set(['a', 'code', 'pre', 'kbd', 'samp', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'button', 'dfn', 'script', 'style', 'svg', 'select', 'option', 'textarea', 'label']);

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Marks the first use of each entry's term in `html` (a page body). Entries without a definition
 * are skipped; longer terms win where two overlap.
 * @returns the HTML with the marked terms, or `html` itself when nothing was marked.
 */
export function markGlossaryTerms(html: string, entries: readonly GlossaryEntry[]): string {
  const pending = entries.filter((e) => e.term.trim() && e.definition.trim()).sort((a, b) => b.term.length - a.term.length);
  if (pending.length === 0) return html;
  const patterns = pending.map((e) => new RegExp(`(?<![\\p{L}\\p{N}])${escapeRegExp(e.term)}(?![\\p{L}\\p{N}])`, e.caseSensitive ? 'u' : 'iu'));
  const done = new Set<number>();
  const tree = fromHtml(html, { fragment: true }) as Root;
  let marked = 0;

  const visit = (parent: Root | Element) => {
    for (let i = 0; i < parent.children.length; i++) {
      const child = parent.children[i]!;
      if (child.type === 'element') {
        if (!SKIP.has(child.tagName)) visit(child);
        continue;
      }
      if (child.type !== 'text' || done.size === pending.length) continue;
      const replaced = markText(child);
      if (replaced) {
        parent.children.splice(i, 1, ...(replaced as ElementContent[]));
        i += replaced.length - 1;
      }
    }
  };

  /** The first unmarked term in `node`'s text, split out and marked; null when there is none. */
  const markText = (node: Text): (Text | Element)[] | null => {
    let best: { index: number; length: number; entry: number } | undefined;
    for (let e = 0; e < pending.length; e++) {
      if (done.has(e)) continue;
      const m = patterns[e]!.exec(node.value);
      if (m && (!best || m.index < best.index)) best = { index: m.index, length: m[0].length, entry: e };
    }
    if (!best) return null;
    done.add(best.entry);
    const id = `q-glossary-${++marked}`;
    const word = node.value.slice(best.index, best.index + best.length);
    const rest: Text = { type: 'text', value: node.value.slice(best.index + best.length) };
    const mark: Element = {
      type: 'element',
      tagName: 'span',
      properties: { className: ['q-glossary'] },
      children: [
        { type: 'element', tagName: 'dfn', properties: { tabIndex: 0, ariaDescribedBy: [id] }, children: [{ type: 'text', value: word }] },
        { type: 'element', tagName: 'span', properties: { role: 'tooltip', id, className: ['q-glossary-tip'] }, children: [{ type: 'text', value: pending[best.entry]!.definition }] },
      ],
    };
    const out: (Text | Element)[] = [{ type: 'text', value: node.value.slice(0, best.index) }, mark];
    // The rest of this text may hold other terms.
    const more = markText(rest);
    out.push(...(more ?? [rest]));
    return out.filter((n) => n.type !== 'text' || n.value !== '');
  };

  visit(tree);
  return marked === 0 ? html : toHtml(tree);
}
