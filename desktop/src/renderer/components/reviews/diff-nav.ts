/**
 * Navigating long diffs (desktop-look.md "Reviews"): the counts of the file list, the unchanged
 * runs that fold, and moving from change to change. Lines and rendered blocks are compared by the
 * one diff of block-diff.ts.
 */
import { diffBlocks, type BlockOp } from './block-diff';

/** How many unchanged lines (or rendered blocks) stay shown next to a change when the rest folds. */
export const CONTEXT = 3;
/** A run of unchanged items folds only when at least this many would be hidden. */
export const MIN_FOLD = 3;

/** What changed in one file: lines added and removed (a changed line counts once on each side) and the changed blocks (runs of changed lines). */
export interface FileCounts {
  added: number;
  removed: number;
  changes: number;
}

/** Splits a text into lines (null: the file does not exist on that side). */
const linesOf = (text: string | null): string[] => (text === null || text === '' ? [] : text.replace(/\r\n?/g, '\n').replace(/\n$/, '').split('\n'));

/** The changed blocks of a diff: each run of consecutive non-`same` entries, as `[start, end)` indexes into `ops`. */
export function changeRuns(ops: readonly BlockOp[]): Array<[number, number]> {
  const runs: Array<[number, number]> = [];
  for (let i = 0; i < ops.length; i++) {
    if (ops[i]!.kind === 'same') continue;
    const start = i;
    while (i + 1 < ops.length && ops[i + 1]!.kind !== 'same') i++;
    runs.push([start, i + 1]);
  }
  return runs;
}

/** The line counts of a changed file between `before` and `after` (either null when the file does not exist on that side). */
export function fileCounts(before: string | null, after: string | null): FileCounts {
  const ops = diffBlocks(linesOf(before), linesOf(after));
  let added = 0;
  let removed = 0;
  for (const op of ops) {
    if (op.kind === 'added' || op.kind === 'changed') added++;
    if (op.kind === 'removed' || op.kind === 'changed') removed++;
  }
  return { added, removed, changes: changeRuns(ops).length };
}

/**
 * The unchanged entries of a diff that fold: of each run of `same` entries, all but the
 * {@link CONTEXT} next to a change (a run at the start or end of the file keeps context on its inner
 * side only); a run folds when at least {@link MIN_FOLD} entries would be hidden. A diff without
 * changes folds nothing. @returns the folds as `[start, end)` indexes into `ops`, in order
 */
export function foldedRuns(ops: readonly BlockOp[]): Array<[number, number]> {
  if (!ops.some((op) => op.kind !== 'same')) return [];
  const folds: Array<[number, number]> = [];
  for (let i = 0; i < ops.length; i++) {
    if (ops[i]!.kind !== 'same') continue;
    const start = i;
    while (i + 1 < ops.length && ops[i + 1]!.kind === 'same') i++;
    const end = i + 1;
    const from = start === 0 ? 0 : start + CONTEXT;
    const to = end === ops.length ? end : end - CONTEXT;
    if (to - from >= MIN_FOLD) folds.push([from, to]);
  }
  return folds;
}

/** The change `step` away from `current` among `count` changes, wrapping around (-1 for none yet: F7 goes to the first, Shift+F7 to the last). */
export function stepChange(current: number, count: number, step: 1 | -1): number {
  if (count === 0) return -1;
  if (current < 0) return step === 1 ? 0 : count - 1;
  return (current + step + count) % count;
}

/** What the review announces when it moves to a change ("Change 3 of 7"; `index` 0-based). */
export function changeAnnouncement(index: number, count: number): string {
  return `Change ${index + 1} of ${count}`;
}

/** The accessible name and text of the button showing a folded run ("Show 42 unchanged lines"). */
export function unfoldLabel(count: number, unit: 'line' | 'block' = 'line'): string {
  return `Show ${count} unchanged ${unit}${count === 1 ? '' : 's'}`;
}

/**
 * A request to move a diff to change `index` (0-based); `seq` tells a new request from an old one with
 * the same index; `focus` moves the keyboard focus too.
 */
export interface ChangeTarget {
  index: number;
  focus: boolean;
  seq: number;
}
