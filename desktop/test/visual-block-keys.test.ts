import { describe, expect, it } from 'vitest';
import { applyTextEdits, blockEditableHtml, insertBlock, parseVisualDocument, replaceBlockText } from '@quire/shared/docs/visual/index';
import type { TextEdit } from '@quire/shared/docs/markdown/text-edits';
import { carryKeys, offsetBefore } from '../src/renderer/visual/block-keys';

const PAGE = ['# Title', '', 'First paragraph.', '', '<Note>', '  Inside the note.', '</Note>', '', 'Last paragraph.', ''].join('\n');

/** Keys of a page after `edit`, carried from the keys before it, listed by block source. */
function keysAcross(edit: TextEdit) {
  let n = 0;
  const fresh = () => `k${++n}`;
  const before = parseVisualDocument(PAGE);
  const keys = carryKeys(new Map(), null, before.blocks, fresh);
  const next = applyTextEdits(PAGE, [edit]);
  const after = parseVisualDocument(next);
  const carried = carryKeys(keys, [{ offset: edit.from, length: edit.to - edit.from, text: edit.text }], after.blocks, fresh);
  const bySource = (doc: typeof before, map: Map<number, string>) => {
    const out: Record<string, string> = {};
    const walk = (list: typeof doc.blocks) => list.forEach((b) => ((out[b.source] = map.get(b.from)!), b.component && walk(b.component.children)));
    walk(doc.blocks);
    return out;
  };
  return { before: bySource(before, keys), after: bySource(after, carried), doc: before };
}

describe('block keys across edits', () => {
  it('maps offsets back through a change, and not inside the written text', () => {
    const changes = [{ offset: 10, length: 2, text: 'abcde' }];
    expect(offsetBefore(changes, 5)).toBe(5);
    expect(offsetBefore(changes, 10)).toBe(10);
    expect(offsetBefore(changes, 12)).toBeNull();
    expect(offsetBefore(changes, 15)).toBe(12);
    expect(offsetBefore([{ offset: 0, length: 0, text: 'x' }, { offset: 20, length: 5, text: '' }], 30)).toBe(34);
  });

  it("keeps every block's key when one paragraph grows, even those after it whose offsets moved", () => {
    const doc = parseVisualDocument(PAGE);
    const first = doc.blocks[1]!;
    const edit = replaceBlockText(PAGE, first, blockEditableHtml(first).replace('.', ' grown longer.'))!;
    const { before, after } = keysAcross(edit);
    expect(after['First paragraph grown longer.']).toBe(before['First paragraph.']);
    expect(after['Last paragraph.']).toBe(before['Last paragraph.']);
    expect(after['Inside the note.']).toBe(before['Inside the note.']);
    expect(after['# Title']).toBe(before['# Title']);
  });

  it("keeps the note's key when its child is edited, and gives an inserted block a new key", () => {
    const doc = parseVisualDocument(PAGE);
    const child = doc.blocks[2]!.component!.children[0]!;
    const inChild = keysAcross(replaceBlockText(PAGE, child, 'Inside the note, edited.')!);
    expect(inChild.after['<Note>\n  Inside the note, edited.\n</Note>']).toBe(inChild.before['<Note>\n  Inside the note.\n</Note>']);
    const inserted = keysAcross(insertBlock(PAGE, doc.blocks[1]!, 'A new one.'));
    expect(Object.values(inserted.before)).not.toContain(inserted.after['A new one.']);
    expect(inserted.after['Last paragraph.']).toBe(inserted.before['Last paragraph.']);
    expect(new Set(Object.values(inserted.after)).size).toBe(Object.keys(inserted.after).length);
  });
});
