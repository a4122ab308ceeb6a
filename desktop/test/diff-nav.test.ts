import { describe, expect, it } from 'vitest';
import { diffBlocks } from '../src/renderer/components/reviews/block-diff';
import { changeAnnouncement, fileCounts, foldedRuns, stepChange, unfoldLabel } from '../src/renderer/components/reviews/diff-nav';

/** Navigating long review diffs: what folds, what the file list counts, and how "Next change" / "Previous change" step. */
const page = (n: number, edits: Record<number, string> = {}) => Array.from({ length: n }, (_, i) => edits[i + 1] ?? `line ${i + 1}`);

describe('long diffs', () => {
  it('fold the unchanged lines between and around two changes, keeping 3 next to each', () => {
    const before = page(50);
    const after = page(50, { 5: 'line 5, edited', 45: 'line 45, edited' });
    const ops = diffBlocks(before, after);
    // lines 1-4 keep 3 context lines: 1 would fold, too few; lines 6-44 fold but 3 on each side: 9-41; lines 46-50: 2 fold, too few
    expect(foldedRuns(ops)).toEqual([[8, 41]]);
    expect(unfoldLabel(33)).toBe('Show 33 unchanged lines');
    expect(unfoldLabel(1, 'block')).toBe('Show 1 unchanged block');
  });

  it('fold nothing when nothing changed', () => {
    expect(foldedRuns(diffBlocks(page(30), page(30)))).toEqual([]);
  });

  it('count added and removed lines and the changed blocks of a file, also a new or deleted one', () => {
    const text = page(20).join('\n');
    const edited = page(20, { 2: 'two', 3: 'three', 15: 'fifteen' }).concat('line 21').join('\n');
    expect(fileCounts(text, edited)).toEqual({ added: 4, removed: 3, changes: 3 });
    expect(fileCounts(null, 'a\nb\n')).toEqual({ added: 2, removed: 0, changes: 1 });
    expect(fileCounts('a\nb\n', null)).toEqual({ added: 0, removed: 2, changes: 1 });
  });

  it('step from change to change, wrapping around, and announce where', () => {
    expect(stepChange(-1, 7, 1)).toBe(0);
    expect(stepChange(-1, 7, -1)).toBe(6);
    expect(stepChange(6, 7, 1)).toBe(0);
    expect(stepChange(0, 7, -1)).toBe(6);
    expect(stepChange(-1, 0, 1)).toBe(-1);
    expect(changeAnnouncement(2, 7)).toBe('Change 3 of 7');
  });
});
