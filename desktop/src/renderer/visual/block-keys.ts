import type { VisualBlock } from '@quire/shared/docs/visual/index';

/** One replacement of a Monaco content change: `length` characters at `offset` (of the text before) became `text`. */
export interface ContentChange {
  offset: number;
  length: number;
  text: string;
}

/**
 * Where the character at `offset` of the text after `changes` was before them, or null when it was
 * written by one of them. `changes` are in the coordinates of the text before, not overlapping (as
 * Monaco reports one content change event). A block starting exactly where a change starts keeps its place.
 */
export function offsetBefore(changes: readonly ContentChange[], offset: number): number | null {
  let shift = 0;
  for (const c of [...changes].sort((a, b) => a.offset - b.offset)) {
    const start = c.offset + shift;
    if (offset <= start) return offset - shift;
    if (offset < start + c.text.length) return null;
    shift += c.text.length - c.length;
  }
  return offset - shift;
}

/**
 * React keys of the blocks of a page, by block start offset, carried across edits: a block that starts
 * outside every changed range keeps the key it had at its old place, so an edit re-renders the edited
 * block only (the others keep their element, their caret and their focus), whatever it did to the
 * offsets after it. Other blocks get `fresh()` keys; `changes` null (a new model) gives every block a new key.
 */
export function carryKeys(
  previous: ReadonlyMap<number, string>,
  changes: readonly ContentChange[] | null,
  blocks: readonly VisualBlock[],
  fresh: () => string,
): Map<number, string> {
  const out = new Map<number, string>();
  const used = new Set<string>();
  const walk = (list: readonly VisualBlock[]) => {
    for (const b of list) {
      const before = changes ? offsetBefore(changes, b.from) : null;
      let key = before === null ? undefined : previous.get(before);
      if (key === undefined || used.has(key)) key = fresh();
      used.add(key);
      out.set(b.from, key);
      if (b.component) walk(b.component.children);
    }
  };
  walk(blocks);
  return out;
}
