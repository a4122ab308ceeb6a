/**
 * Scroll sync between the editor and the preview: the preview's top-level blocks carry
 * `data-line` (shared/src/docs/markdown/source-lines.ts, preview renders only). The preview scrolls
 * so that the block holding the editor's top visible line is at its top, interpolating between the
 * blocks before and after it.
 */

/** A rendered block: its source line (1-based) and its offset from the top of the document, in px. */
export interface LineAnchor {
  line: number;
  top: number;
}

/** The anchors of a preview document, ordered by line (a later block never goes above an earlier one). */
export function anchorsOf(doc: Document): LineAnchor[] {
  const scrollTop = doc.defaultView?.scrollY ?? 0;
  const out: LineAnchor[] = [];
  for (const el of doc.querySelectorAll<HTMLElement>('[data-line]')) {
    const line = Number(el.dataset.line);
    if (!Number.isFinite(line) || line < 1) continue;
    out.push({ line, top: el.getBoundingClientRect().top + scrollTop });
  }
  return out.sort((a, b) => a.line - b.line || a.top - b.top);
}

/**
 * The preview's scroll offset (px) for editor line `line`: the top of the last block starting at or
 * before it, plus the part of the way to the next block that `line` is between their lines.
 * 0 before the first block or without anchors.
 */
export function offsetForLine(anchors: readonly LineAnchor[], line: number): number {
  if (anchors.length === 0) return 0;
  let lo = -1;
  for (let i = 0; i < anchors.length; i++) {
    if (anchors[i]!.line <= line) lo = i;
    else break;
  }
  if (lo < 0) return 0;
  const a = anchors[lo]!;
  const b = anchors.slice(lo + 1).find((x) => x.line > a.line);
  if (!b || b.top <= a.top) return a.top;
  return a.top + ((line - a.line) / (b.line - a.line)) * (b.top - a.top);
}
