/**
 * Replacements made to a text and the way back from the result to the input. The renderer prepares
 * a page before parsing it (mdx.ts `prepareMdx`: `$$` blocks fenced, inline math marked); the
 * linter traces the parser's positions in the prepared text back to the page as written with
 * {@link originOffsets}.
 */

/** `text` put in place of the characters `[from, to)` of the input (0-based UTF-16 offsets, end exclusive). */
export interface TextEdit {
  from: number;
  to: number;
  text: string;
}

/**
 * The function from offsets in the result of `edits` to offsets in their input. `edits` are in the
 * input's coordinates, in increasing order and not overlapping. An offset outside every replacement
 * moves by the length change of the replacements before it; an offset inside a replacement's text
 * maps to the same distance into the replaced characters, at most their end.
 */
export function originOffsets(edits: readonly TextEdit[]): (offset: number) => number {
  if (edits.length === 0) return (offset) => offset;
  const starts: number[] = [];
  let shift = 0;
  for (const e of edits) {
    starts.push(e.from + shift);
    shift += e.text.length - (e.to - e.from);
  }
  return (offset) => {
    // the last replacement that starts at or before `offset` in the result
    let lo = 0;
    let hi = starts.length - 1;
    if (offset < starts[0]!) return offset;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid]! <= offset) lo = mid;
      else hi = mid - 1;
    }
    const e = edits[lo]!;
    const end = starts[lo]! + e.text.length;
    if (offset >= end) return e.to + (offset - end);
    return Math.min(e.from + (offset - starts[lo]!), e.to);
  };
}
