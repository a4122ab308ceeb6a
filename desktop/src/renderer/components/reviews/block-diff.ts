/**
 * Which top-level blocks of a rendered page changed between two renderings (the rendered diff of
 * desktop-look.md "Reviews"). Blocks are compared by their markup: a block found unchanged in
 * both is `same`; a run of removed blocks followed by a run of added ones pairs up as `changed`
 * (one for one), the rest stay `added` or `removed`.
 */

/** One entry of a block diff: indexes into the `before` and/or `after` block lists. */
export type BlockOp =
  | { kind: 'same'; before: number; after: number }
  | { kind: 'changed'; before: number; after: number }
  | { kind: 'added'; after: number }
  | { kind: 'removed'; before: number };

/** Above this many cells (before × after blocks) the middle part is not aligned but marked changed as a whole. */
const MAX_LCS_CELLS = 4_000_000;

/**
 * Diffs two lists of block keys (e.g. each block's HTML), in the order of the new rendering with
 * removed blocks placed where they were. Common leading and trailing blocks are matched first;
 * the rest by a longest common subsequence.
 */
export function diffBlocks(before: readonly string[], after: readonly string[]): BlockOp[] {
  let head = 0;
  while (head < before.length && head < after.length && before[head] === after[head]) head++;
  let tail = 0;
  while (tail < before.length - head && tail < after.length - head && before[before.length - 1 - tail] === after[after.length - 1 - tail]) tail++;

  const raw: BlockOp[] = [];
  for (let i = 0; i < head; i++) raw.push({ kind: 'same', before: i, after: i });
  const b = before.slice(head, before.length - tail);
  const a = after.slice(head, after.length - tail);
  if (b.length * a.length > MAX_LCS_CELLS) {
    for (let i = 0; i < b.length; i++) raw.push({ kind: 'removed', before: head + i });
    for (let j = 0; j < a.length; j++) raw.push({ kind: 'added', after: head + j });
  } else {
    // lcs[i][j]: length of the longest common subsequence of b[i..] and a[j..]
    const w = a.length + 1;
    const lcs = new Uint32Array((b.length + 1) * w);
    for (let i = b.length - 1; i >= 0; i--)
      for (let j = a.length - 1; j >= 0; j--)
        lcs[i * w + j] = b[i] === a[j] ? lcs[(i + 1) * w + j + 1]! + 1 : Math.max(lcs[(i + 1) * w + j]!, lcs[i * w + j + 1]!);
    let i = 0;
    let j = 0;
    while (i < b.length || j < a.length) {
      if (i < b.length && j < a.length && b[i] === a[j]) raw.push({ kind: 'same', before: head + i++, after: head + j++ });
      else if (j < a.length && (i === b.length || lcs[i * w + j + 1]! >= lcs[(i + 1) * w + j]!)) raw.push({ kind: 'added', after: head + j++ });
      else raw.push({ kind: 'removed', before: head + i++ });
    }
  }
  const offset = after.length - tail - (before.length - tail);
  for (let k = tail; k > 0; k--) raw.push({ kind: 'same', before: before.length - k, after: before.length - k + offset });
  return pairChanges(raw);
}

/** Turns each run of removed blocks next to a run of added ones into `changed` pairs (one for one). */
function pairChanges(ops: BlockOp[]): BlockOp[] {
  const out: BlockOp[] = [];
  let k = 0;
  while (k < ops.length) {
    if (ops[k]!.kind !== 'removed' && ops[k]!.kind !== 'added') {
      out.push(ops[k++]!);
      continue;
    }
    const removed: number[] = [];
    const added: number[] = [];
    while (k < ops.length && (ops[k]!.kind === 'removed' || ops[k]!.kind === 'added')) {
      const op = ops[k++]!;
      if (op.kind === 'removed') removed.push(op.before);
      else if (op.kind === 'added') added.push(op.after);
    }
    const pairs = Math.min(removed.length, added.length);
    for (let p = 0; p < pairs; p++) out.push({ kind: 'changed', before: removed[p]!, after: added[p]! });
    for (const r of removed.slice(pairs)) out.push({ kind: 'removed', before: r });
    for (const a of added.slice(pairs)) out.push({ kind: 'added', after: a });
  }
  return out;
}

/** How many blocks of each kind a diff has (for the summary above a rendered diff). */
export function countBlocks(ops: readonly BlockOp[]): { added: number; changed: number; removed: number } {
  const c = { added: 0, changed: 0, removed: 0 };
  for (const op of ops) if (op.kind !== 'same') c[op.kind]++;
  return c;
}
